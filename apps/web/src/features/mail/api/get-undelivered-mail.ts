import type { UndeliveredMail } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';

export interface UndeliveredMailParams {
  page: number;
  pageSize: number;
  /** Matches the recipient or the subject. */
  search?: string | undefined;
}

/** Every query of the mail screen starts with this key; a resend invalidates them all. */
export const mailQueryKey = ['mail'] as const;

/**
 * GET /api/auth/mail/undelivered: the mail the portal gave up on, newest first, paged by the server.
 * The delivery job adds to it at any time: read afresh on every visit.
 */
export const undeliveredMail = pagedList<UndeliveredMail, UndeliveredMailParams>({
  key: [...mailQueryKey, 'undelivered'],
  path: '/auth/mail/undelivered',
  staleTime: 0,
});
export const useUndeliveredMail = undeliveredMail.useList;
