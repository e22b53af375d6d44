import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ticketsQueryKey } from './get-tickets';

export async function deleteTicket(id: string): Promise<void> {
  await api.delete(`/auth/support/tickets/${encodeURIComponent(id)}`);
}

export function useDeleteTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsQueryKey }),
  });
}
