import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, PageMeta, Ticket } from '@portal/shared';
import { api } from '../../../lib/api-client';

export interface TicketsParams {
  page: number;
  pageSize: number;
  search?: string | undefined;
}

/** GET /auth/support/tickets: paged, searched and sorted (last update first) on the server. */
export async function getTickets(params: TicketsParams): Promise<{ tickets: Ticket[]; meta: PageMeta }> {
  const body = await api.get<ApiPage<Ticket>>('/auth/support/tickets', {
    params: { page: params.page, pageSize: params.pageSize, search: params.search },
  });
  const tickets = Array.isArray(body.data) ? body.data : [];
  return {
    tickets,
    meta: body.meta ?? { page: params.page, pageSize: params.pageSize, total: tickets.length },
  };
}

export const ticketsQueryKey = ['support', 'tickets'] as const;

export const ticketsQuery = (params: TicketsParams) =>
  queryOptions({
    queryKey: [...ticketsQueryKey, params],
    queryFn: () => getTickets(params),
    placeholderData: keepPreviousData,
  });

export function useTickets(params: TicketsParams, enabled = true) {
  return useQuery({ ...ticketsQuery(params), enabled });
}
