import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Ticket, TicketStatus } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { ticketsQueryKey } from './get-tickets';

/** PUT /auth/support/tickets/:id/status: Activate or Deactivate. */
export async function setTicketStatus(input: { id: string; status: TicketStatus }): Promise<Ticket> {
  return (
    await api.put<ApiSuccess<Ticket>>(`/auth/support/tickets/${encodeURIComponent(input.id)}/status`, {
      status: input.status,
    })
  ).data;
}

export function useSetTicketStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTicketStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsQueryKey }),
  });
}
