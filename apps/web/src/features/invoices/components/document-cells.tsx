import { Box } from '@mui/material';

/** The page, page size and their setters of a server-paged list (lib/use-paged-search.ts). */
export interface ListPaging {
  /** Zero-based. */
  page: number;
  setPage: (page: number) => void;
  pageSize: number;
  setPageSize: (size: number) => void;
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
