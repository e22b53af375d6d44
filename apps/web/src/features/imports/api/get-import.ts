import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, ImportDetail, ImportKind } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { isWorking } from '../utils/import-kind';

/** Every imports query starts with this key; each kind's with [...importsQueryKey, kind]. */
export const importsQueryKey = ['imports'] as const;

/** How often a committed import's progress is asked while its job works. */
export const IMPORT_POLL_MS = 1_000;

/** GET /api/auth/imports/:kind/:id: the import, its counts, commit progress, results and first errors. */
export async function getImport(kind: ImportKind, id: string): Promise<ImportDetail> {
  return (await api.get<ApiSuccess<ImportDetail>>(`/auth/imports/${kind}/${encodeURIComponent(id)}`)).data;
}

export const importQuery = (kind: ImportKind, id: string) =>
  queryOptions({
    queryKey: [...importsQueryKey, kind, 'detail', id],
    queryFn: () => getImport(kind, id),
    // Asked again while the commit's job works; left alone once it has ended.
    refetchInterval: (query) =>
      query.state.data && isWorking(query.state.data.status) ? IMPORT_POLL_MS : false,
  });

export function useImport(kind: ImportKind, id: string) {
  return useQuery(importQuery(kind, id));
}
