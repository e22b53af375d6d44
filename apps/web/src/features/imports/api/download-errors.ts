import { useMutation } from '@tanstack/react-query';
import type { ImportKind } from '@portal/shared';
import { api } from '../../../lib/api-client';
import type { SpreadsheetFormat } from './download-template';

/**
 * GET /api/auth/imports/:kind/:id/errors: the rows with errors as uploaded, plus an Error column,
 * under the template's headers: fixed, the file is uploaded again and maps itself.
 */
export function downloadErrors({
  kind,
  id,
  format,
}: {
  kind: ImportKind;
  id: string;
  format: SpreadsheetFormat;
}) {
  return api.download(
    `/auth/imports/${kind}/${encodeURIComponent(id)}/errors`,
    { format },
    `import-errors.${format}`,
  );
}

export function useDownloadErrors() {
  return useMutation({ mutationFn: downloadErrors });
}
