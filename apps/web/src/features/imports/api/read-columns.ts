import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, ImportColumns, ImportKind } from '@portal/shared';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/imports/:kind/columns, multipart with the file: its header row, and the header each
 * column of the kind matched by itself (null when none). Nothing is stored.
 */
export async function readColumns({ kind, file }: { kind: ImportKind; file: File }): Promise<ImportColumns> {
  const form = new FormData();
  form.append('file', file);
  return (await api.post<ApiSuccess<ImportColumns>>(`/auth/imports/${kind}/columns`, form)).data;
}

export function useReadColumns() {
  return useMutation({ mutationFn: readColumns });
}
