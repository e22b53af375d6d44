import { TablePagination } from '@mui/material';

export interface ListPaginationProps {
  count: number;
  /** Zero-based. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** The page sizes offered as "Rows per page" beside the pager (every list chooses its size here). */
  pageSizes?: readonly number[];
  onPageSizeChange?: (size: number) => void;
}

/** The pager under a server-paged list. */
export function ListPagination({
  count,
  page,
  pageSize,
  onPageChange,
  pageSizes = [],
  onPageSizeChange,
}: ListPaginationProps) {
  // A list without rows says so in its empty text alone: no "0–0 of 0" and no arrows under it.
  if (count === 0) return null;
  // MUI reports a page past the last one (while a smaller total loads) as an error.
  const lastPage = Math.max(0, Math.ceil(count / pageSize) - 1);
  return (
    <TablePagination
      component="div"
      count={count}
      page={Math.min(page, lastPage)}
      onPageChange={(_event, next) => onPageChange(next)}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[...pageSizes]}
      onRowsPerPageChange={onPageSizeChange && ((event) => onPageSizeChange(Number(event.target.value)))}
      // On a phone the page-size choice, the range and the arrows do not fit on one line: the arrows
      // move to the next one instead of being cut off at the card's edge.
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', rowGap: 0.5 } }}
    />
  );
}
