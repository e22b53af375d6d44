import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** "Export To Excel": the list as filtered, generated and streamed by the server as .xlsx. */
export function exportTickets(search: string | undefined): Promise<void> {
  return api.download('/auth/support/tickets/export', { format: 'xlsx', search }, 'tickets.xlsx');
}

export function useExportTickets() {
  return useMutation({ mutationFn: exportTickets });
}
