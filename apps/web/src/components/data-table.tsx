import type { ReactNode } from 'react';
import {
  Alert,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { messages } from '@portal/shared';
import { ListPagination, type ListPaginationProps } from './list-pagination';

export interface DataColumn {
  label: string;
  align?: 'left' | 'right';
}

export interface DataTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  columns: readonly DataColumn[];
  rows: readonly Row[];
  /** One `TableRow` (with its key) for a row. */
  renderRow: (row: Row) => ReactNode;
  loading: boolean;
  /** Shown above the table when the rows could not be loaded. */
  error?: string;
  emptyText: string;
  size?: 'small' | 'medium';
  pagination: ListPaginationProps;
}

/** A server-paged table: error, headings, a loading or empty row, the rows, and the pager. */
export function DataTable<Row>({
  label,
  columns,
  rows,
  renderRow,
  loading,
  error,
  emptyText,
  size,
  pagination,
}: DataTableProps<Row>) {
  return (
    <>
      {error && (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {error}
        </Alert>
      )}
      <TableContainer>
        <Table aria-label={label} size={size}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.label} align={column.align}>
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {loading ? (
              <TableRow>
                <TableCell colSpan={columns.length} align="center">
                  <CircularProgress size={24} aria-label={messages.common.loading} />
                </TableCell>
              </TableRow>
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columns.length} align="center">
                  {emptyText}
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row) => renderRow(row))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination {...pagination} />
    </>
  );
}
