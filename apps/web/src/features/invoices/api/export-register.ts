import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { InvoiceFilters } from './get-invoices';

/** "Export GSTR-1 Register": the invoices and credit notes of the current filters, as .xlsx. */
export function exportRegister(filters: InvoiceFilters): Promise<void> {
  return api.download('/auth/invoices/export', { ...filters }, 'gstr1-register.xlsx');
}

export function useExportRegister() {
  return useMutation({ mutationFn: exportRegister });
}
