import type { Ticket } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';

export interface TicketsParams {
  page: number;
  pageSize: number;
  search?: string | undefined;
}

export const ticketsQueryKey = ['support', 'tickets'] as const;

/** GET /auth/support/tickets: paged, searched and sorted (last update first) on the server. */
export const tickets = pagedList<Ticket, TicketsParams>({
  key: ticketsQueryKey,
  path: '/auth/support/tickets',
});
export const useTickets = tickets.useList;
