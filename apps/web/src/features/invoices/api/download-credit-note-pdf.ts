import { useMutation } from '@tanstack/react-query';
import type { CreditNote } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { pdfName } from '../utils/document-format';

/** The credit note as the PDF the server renders (the server names the file). */
export function downloadCreditNotePdf(note: Pick<CreditNote, 'id' | 'number'>): Promise<void> {
  return api.download(`/auth/credit-notes/${encodeURIComponent(note.id)}/pdf`, {}, pdfName(note.number));
}

export function useDownloadCreditNotePdf() {
  return useMutation({ mutationFn: downloadCreditNotePdf });
}
