import { Fragment, type ReactNode } from 'react';
import {
  Alert,
  Box,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
  type SxProps,
  type Theme,
} from '@mui/material';
import { messages } from '@portal/shared';
import { ListPagination, type ListPaginationProps } from './list-pagination';
import { visuallyHidden } from './visually-hidden';

/** Where a column goes on a row's card (below `sm`). */
export type CardPlace = 'title' | 'subtitle' | 'field' | 'none';

export interface DataColumn<Row> {
  /** The column's heading; on a card, the field's label. */
  label: string;
  align?: 'left' | 'right';
  /** The cell's content, in the table and on the card alike. */
  render: (row: Row) => ReactNode;
  /** Styles of the table cell. */
  cellSx?: SxProps<Theme>;
  /** On a card: its title, the line under the title, a labelled field (the default) or left out. */
  card?: CardPlace;
}

export interface DataTableActions<Row> {
  /** The last column's heading. */
  label: string;
  /** Heading for screen readers only. */
  labelHidden?: boolean;
  align?: 'left' | 'right';
  /** The row's action menu (⋮) or buttons; nothing for a row without any. */
  render: (row: Row) => ReactNode;
}

export interface DataTableProps<Row> {
  /** The table's (or the card list's) accessible name. */
  label: string;
  columns: readonly DataColumn<Row>[];
  /** The row actions: the last column of the table, the top right corner of a card. */
  actions?: DataTableActions<Row>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** A row shown as the current one (e.g. the ticket open in the form). */
  isSelected?: (row: Row) => boolean;
  loading: boolean;
  /** Shown above the table when the rows could not be loaded. */
  error?: string;
  emptyText: string;
  size?: 'small' | 'medium';
  /**
   * Cells 8 px apart on each side instead of 16 (the first and last keep 16, in line with the
   * toolbar), so that a list of many figures (invoices) fits beside the sidebar at 1280 px.
   */
  dense?: boolean;
  /** The pager under a server-paged list; none for a list that comes whole. */
  pagination?: ListPaginationProps;
}

/**
 * A list of rows: error, then a table (headings, a loading or empty row, the rows) or, below the `sm`
 * breakpoint, one card per row from the same columns (title, subtitle, labelled fields and the action
 * menu in the corner), so a phone neither scrolls sideways nor hides the row's actions; then the pager.
 */
export function DataTable<Row>({
  label,
  columns,
  actions,
  rows,
  rowKey,
  isSelected,
  loading,
  error,
  emptyText,
  size,
  dense,
  pagination,
}: DataTableProps<Row>) {
  // The theme's own breakpoints, or MUI's defaults outside a ThemeProvider. Read at the first render
  // (noSsr), so a phone never lays out the table first.
  const cards = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  return (
    <>
      {error && (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {error}
        </Alert>
      )}
      {cards ? (
        <RowCards
          label={label}
          columns={columns}
          actions={actions}
          rows={rows}
          rowKey={rowKey}
          isSelected={isSelected}
          loading={loading}
          emptyText={emptyText}
        />
      ) : (
        <TableContainer>
          <Table aria-label={label} size={size} sx={dense ? DENSE : undefined}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column.label} align={column.align}>
                    {column.label}
                  </TableCell>
                ))}
                {actions && (
                  <TableCell align={actions.align}>
                    {actions.labelHidden ? (
                      <Box component="span" sx={visuallyHidden}>
                        {actions.label}
                      </Box>
                    ) : (
                      actions.label
                    )}
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {loading || rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={columns.length + (actions ? 1 : 0)} align="center">
                    {loading ? <Progress /> : emptyText}
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((row) => (
                  <TableRow key={rowKey(row)} hover selected={isSelected?.(row) ?? false}>
                    {columns.map((column) => (
                      <TableCell key={column.label} align={column.align} sx={column.cellSx}>
                        {column.render(row)}
                      </TableCell>
                    ))}
                    {actions && <TableCell align={actions.align}>{actions.render(row)}</TableCell>}
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {pagination && <ListPagination {...pagination} />}
    </>
  );
}

const DENSE: SxProps<Theme> = {
  '& .MuiTableCell-root': { px: 1 },
  '& .MuiTableCell-root:first-of-type': { pl: 2 },
  '& .MuiTableCell-root:last-of-type': { pr: 2 },
};

function Progress() {
  return <CircularProgress size={24} aria-label={messages.common.loading} />;
}

type RowCardsProps<Row> = Pick<
  DataTableProps<Row>,
  'label' | 'columns' | 'actions' | 'rows' | 'rowKey' | 'isSelected' | 'loading' | 'emptyText'
>;

/** The rows as a list of cards: what a table becomes on a phone. */
function RowCards<Row>({
  label,
  columns,
  actions,
  rows,
  rowKey,
  isSelected,
  loading,
  emptyText,
}: RowCardsProps<Row>) {
  if (loading || rows.length === 0) {
    return (
      <Box sx={{ p: 2, textAlign: 'center', borderTop: 1, borderColor: 'divider' }}>
        {loading ? <Progress /> : emptyText}
      </Box>
    );
  }
  const title = columns.find((c) => c.card === 'title') ?? columns[0];
  const subtitle = columns.find((c) => c.card === 'subtitle');
  const fields = columns.filter((c) => c !== title && c !== subtitle && c.card !== 'none');
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {rows.map((row) => (
        <Box
          component="li"
          key={rowKey(row)}
          sx={{
            px: 2,
            py: 1.5,
            borderTop: 1,
            borderColor: 'divider',
            bgcolor: isSelected?.(row) ? 'action.selected' : undefined,
          }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Box sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
              {title && (
                <Typography component="div" sx={{ fontWeight: 600 }}>
                  {title.render(row)}
                </Typography>
              )}
              {subtitle && (
                <Typography component="div" variant="body2" color="text.secondary">
                  {subtitle.render(row)}
                </Typography>
              )}
            </Box>
            {actions && <Box sx={{ flexShrink: 0, mr: -1 }}>{actions.render(row)}</Box>}
          </Stack>
          {fields.length > 0 && (
            <Box
              component="dl"
              sx={{
                display: 'grid',
                gridTemplateColumns: 'minmax(6rem, max-content) minmax(0, 1fr)',
                columnGap: 2,
                rowGap: 0.75,
                alignItems: 'center',
                m: 0,
                mt: 1,
              }}
            >
              {fields.map((column) => (
                <Fragment key={column.label}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {column.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                    {column.render(row)}
                  </Typography>
                </Fragment>
              ))}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}
