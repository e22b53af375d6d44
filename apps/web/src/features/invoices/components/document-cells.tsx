import { Box } from '@mui/material';
import { ADMIN_USER_PAGE_SIZES } from '@portal/shared';

/** The page, page size and their setters of a server-paged list (lib/use-paged-search.ts). */
export interface ListPaging {
  /** Zero-based. */
  page: number;
  setPage: (page: number) => void;
  pageSize: number;
  setPageSize: (size: number) => void;
}

/** The DataTable pagination of a paged document list. */
export function documentPagination(paging: ListPaging, total: number) {
  return {
    count: total,
    page: paging.page,
    pageSize: paging.pageSize,
    onPageChange: paging.setPage,
    pageSizes: ADMIN_USER_PAGE_SIZES,
    onPageSizeChange: paging.setPageSize,
  };
}

/** An invoice or credit note number (`IC/26-27/000001`), never broken inside. */
export function DocumentNumber({ number }: { number: string }) {
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {number}
    </Box>
  );
}

/** Figures one per line (CGST and SGST), each kept whole. */
export function Lines({ lines }: { lines: readonly string[] }) {
  return (
    <>
      {lines.map((line) => (
        <Box key={line} component="span" sx={{ display: 'block', whiteSpace: 'nowrap' }}>
          {line}
        </Box>
      ))}
    </>
  );
}
