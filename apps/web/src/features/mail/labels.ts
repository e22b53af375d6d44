import type { MailAttempt } from '@portal/shared';

/** Texts used only by Undelivered mail (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  search: 'Search by recipient or subject',
  recipient: 'Recipient',
  subject: 'Subject',
  kind: 'Kind',
  organization: 'Organization',
  attempts: 'Attempts',
  lastError: 'Last error',
  gaveUpAt: 'Gave up at',
  actions: 'Actions',
  actionsFor: (to: string) => `Actions for ${to}`,
  /** A mail about no organization (the super administrator's own sign-in mail). */
  noOrganization: '—',
  noError: '—',
  time: 'Time',
  outcome: 'Outcome',
  smtpCode: 'SMTP code',
  error: 'Error',
  /** No SMTP reply: the connection was refused or timed out. */
  noAnswer: 'No answer',
  noAttempts: 'No delivery attempts recorded.',
  attemptsFailed: 'Failed to load the delivery attempts.',
  resendHint: 'Correct the address if it was mistyped; otherwise the mail goes to the same one again.',
  resendFailed: 'The mail could not be sent again.',
  cancel: 'Cancel',
} as const;

export const OUTCOME_LABELS: Record<MailAttempt['outcome'], string> = {
  sent: 'Sent',
  temporary_failure: 'Temporary failure',
  permanent_failure: 'Refused for good',
};
