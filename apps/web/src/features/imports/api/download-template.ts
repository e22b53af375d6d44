import { useMutation } from '@tanstack/react-query';
import type { ImportKind } from '@portal/shared';
import { api } from '../../../lib/api-client';

export type SpreadsheetFormat = 'xlsx' | 'csv';

/** GET /api/auth/imports/:kind/template: the columns, an example row and (in .xlsx) each column's rule. */
export function downloadTemplate({ kind, format }: { kind: ImportKind; format: SpreadsheetFormat }) {
  return api.download(`/auth/imports/${kind}/template`, { format }, `${kind}-import-template.${format}`);
}

export function useDownloadTemplate() {
  return useMutation({ mutationFn: downloadTemplate });
}
