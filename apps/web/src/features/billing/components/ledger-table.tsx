import { useState } from 'react';
import { Box, Paper, Typography } from '@mui/material';
import {
  ADMIN_USER_PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
  formatCount,
  formatDateTime,
  messages,
  type LedgerEntry,
} from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { plainId, ShortId } from '../../../components/short-id';
import { extractErrorMessage } from '../../../lib/error-message';
import { useLedger } from '../api/get-ledger';
import { labels, ledgerReasonLabels } from '../labels';
import { ledgerEntryKind } from '../utils/ledger-entry';

const COLUMNS: DataColumn<LedgerEntry>[] = [
  { label: labels.date, card: 'subtitle', render: (e) => formatDateTime(e.createdAt) },
  { label: labels.description, card: 'title', render: (e) => e.note ?? ledgerReasonLabels[e.reason] },
  {
    label: labels.entry,
    render: (e) => {
      const kind = ledgerEntryKind(e);
      return (
        <>
          {kind.label}
          {/* A payment's id (pay_ and 14 characters) shows whole; the interview product's own may be longer. */}
          {kind.number && (
            <Box component="span" sx={{ display: 'block', fontSize: 13, color: 'text.secondary' }}>
              <ShortId id={kind.number} format={plainId} keep={18} />
            </Box>
          )}
        </>
      );
    },
  },
  {
    label: labels.change,
    align: 'right',
    render: (e) => (
      <Box component="span" sx={{ color: e.delta < 0 ? 'error.main' : 'success.main', fontWeight: 600 }}>
        {e.delta > 0 ? `+${formatCount(e.delta)}` : formatCount(e.delta)}
      </Box>
    ),
  },
];

/** Every grant and use of credits; the balance is their sum. */
export function LedgerTable() {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const ledger = useLedger({ page: page + 1, pageSize });

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {labels.ledger}
      </Typography>
      <DataTable
        label={labels.ledger}
        size="small"
        columns={COLUMNS}
        rows={ledger.data?.items ?? []}
        rowKey={(e) => e.id}
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
      />
    </Paper>
  );
}
