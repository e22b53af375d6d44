import { useMutation } from '@tanstack/react-query';
import type { Invoice } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { pdfName } from '../utils/document-format';

/** The invoice as the PDF the server renders (the server names the file). */
export function downloadInvoicePdf(invoice: Pick<Invoice, 'id' | 'number'>): Promise<void> {
  return api.download(`/auth/invoices/${encodeURIComponent(invoice.id)}/pdf`, {}, pdfName(invoice.number));
}

export function useDownloadInvoicePdf() {
  return useMutation({ mutationFn: downloadInvoicePdf });
}
