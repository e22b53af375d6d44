import { IMPORT_KINDS, type ImportKind, type ImportSummary } from '@portal/shared';
import { pagedList, type PageParams } from '../../../lib/paged-list';
import { importsQueryKey } from './get-import';

/** GET /api/auth/imports/:kind: the kind's import history, newest first, one list per kind. */
const histories = Object.fromEntries(
  IMPORT_KINDS.map((kind) => [
    kind,
    pagedList<ImportSummary, PageParams>({
      key: [...importsQueryKey, kind],
      path: `/auth/imports/${kind}`,
      // An import's status changes while nobody here acts: asked again on every visit.
      staleTime: 0,
    }),
  ]),
) as Record<ImportKind, ReturnType<typeof pagedList<ImportSummary, PageParams>>>;

export function useImportHistory(kind: ImportKind, params: PageParams) {
  return histories[kind].useList(params);
}
