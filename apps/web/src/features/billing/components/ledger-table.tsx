import { useState } from 'react';
import { Paper, TableCell, TableRow, Typography } from '@mui/material';
import { ADMIN_USER_PAGE_SIZES, DEFAULT_PAGE_SIZE, messages } from '@portal/shared';
import { DataTable } from '../../../components/data-table';
import { extractErrorMessage } from '../../../lib/error-message';
import { useLedger } from '../api/get-ledger';
import { labels, ledgerReasonLabels } from '../labels';

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
const COLUMNS = [
  { label: labels.date },
  { label: labels.description },
  { label: labels.reference },
  { label: labels.change, align: 'right' },
] as const;

/** Every grant and use of credits; the balance is their sum. */
export function LedgerTable() {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const ledger = useLedger(page + 1, pageSize);

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {labels.ledger}
      </Typography>
      <DataTable
        label={labels.ledger}
        size="small"
        columns={COLUMNS}
        rows={ledger.data?.entries ?? []}
        loading={ledger.isPending}
        error={
          ledger.isError ? extractErrorMessage(ledger.error, messages.common.anErrorOccurred) : undefined
        }
        emptyText={labels.ledgerEmpty}
        pagination={{
          count: ledger.data?.meta.total ?? 0,
          page,
          pageSize,
          onPageChange: setPage,
          pageSizes: ADMIN_USER_PAGE_SIZES,
          onPageSizeChange: (size) => {
            setPageSize(size);
            setPage(0);
          },
        }}
        renderRow={(e) => (
          <TableRow key={e.id}>
            <TableCell>{dateFormat.format(new Date(e.createdAt))}</TableCell>
            <TableCell>{e.note ?? ledgerReasonLabels[e.reason]}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace', fontSize: 13 }}>{e.reference ?? '—'}</TableCell>
            <TableCell
              align="right"
              sx={{ color: e.delta < 0 ? 'error.main' : 'success.main', fontWeight: 600 }}
            >
              {e.delta > 0 ? `+${e.delta}` : e.delta}
            </TableCell>
          </TableRow>
        )}
      />
    </Paper>
  );
}
