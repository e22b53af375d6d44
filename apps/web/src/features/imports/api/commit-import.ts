import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ImportDetail, ImportKind } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { importQuery, importsQueryKey } from './get-import';

/**
 * POST /api/auth/imports/:kind/:id/commit: queues the job that creates (and updates) the dry run's
 * valid rows; 202 with the import, queued. Already committed, or nothing to commit: 409.
 */
export async function commitImport({ kind, id }: { kind: ImportKind; id: string }) {
  const body = await api.post<ApiSuccess<ImportDetail> & { message?: string }>(
    `/auth/imports/${kind}/${encodeURIComponent(id)}/commit`,
  );
  return { detail: body.data, message: body.message };
}

export function useCommitImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitImport,
    // The import's page polls its progress from here on (importQuery's refetchInterval).
    onSuccess: ({ detail }) => {
      queryClient.setQueryData(importQuery(detail.kind, detail.id).queryKey, detail);
      return queryClient.invalidateQueries({ queryKey: [...importsQueryKey, detail.kind, 'list'] });
    },
  });
}
