import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ImportDetail, ImportKind, ImportMapping, ImportOnExisting } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { importQuery, importsQueryKey } from './get-import';

export interface DryRunInput {
  kind: ImportKind;
  file: File;
  /** Column → the file's header; a column left out is read by its own header. */
  mapping: ImportMapping;
  onExisting: ImportOnExisting;
  matchBy: string;
  /** The super administrator's choice, for users and positions; others import into their own. */
  organizationId?: string;
}

/**
 * POST /api/auth/imports/:kind, multipart: the file and the options as text fields. Answers the dry
 * run, stored: what each row would do and every error found (the first 1,000 listed). Nothing is created.
 */
export async function dryRunImport({
  kind,
  file,
  mapping,
  onExisting,
  matchBy,
  organizationId,
}: DryRunInput) {
  const form = new FormData();
  form.append('file', file);
  form.append('mapping', JSON.stringify(mapping));
  form.append('onExisting', onExisting);
  form.append('matchBy', matchBy);
  if (organizationId) form.append('organizationId', organizationId);
  return (await api.post<ApiSuccess<ImportDetail>>(`/auth/imports/${kind}`, form)).data;
}

export function useDryRunImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dryRunImport,
    onSuccess: (detail) => {
      queryClient.setQueryData(importQuery(detail.kind, detail.id).queryKey, detail);
      return queryClient.invalidateQueries({ queryKey: [...importsQueryKey, detail.kind, 'list'] });
    },
  });
}
