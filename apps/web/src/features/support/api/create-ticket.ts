import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, Ticket, TicketType } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { ticketsQueryKey } from './get-tickets';

export interface CreateTicketInput {
  message: string;
  type: TicketType;
  file?: File | null;
}

/** POST /auth/support/tickets as multipart: the message, the type and an optional attachment. */
export async function createTicket(input: CreateTicketInput): Promise<Ticket> {
  const form = new FormData();
  form.append('message', input.message);
  form.append('type', input.type);
  if (input.file) form.append('file', input.file);
  return (await api.post<ApiSuccess<Ticket>>('/auth/support/tickets', form)).data;
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsQueryKey }),
  });
}
