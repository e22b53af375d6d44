import { useState } from 'react';
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { ADMIN_USER_PAGE_SIZES, DEFAULT_PAGE_SIZE } from '@portal/shared';
import { useLedger } from '../api/get-ledger';
import { labels, ledgerReasonLabels } from '../labels';

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/** Every grant and use of credits; the balance is their sum. */
export function LedgerTable() {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const ledger = useLedger(page + 1, pageSize);
  const entries = ledger.data?.entries ?? [];

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {labels.ledger}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label={labels.ledger}>
          <TableHead>
            <TableRow>
              <TableCell>{labels.date}</TableCell>
              <TableCell>{labels.description}</TableCell>
              <TableCell>{labels.reference}</TableCell>
              <TableCell align="right">{labels.change}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map((e) => (
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
            ))}
            {ledger.isSuccess && entries.length === 0 && (
              <TableRow>
                <TableCell colSpan={4} align="center">
                  {labels.ledgerEmpty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={ledger.data?.meta.total ?? 0}
        page={page}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[...ADMIN_USER_PAGE_SIZES]}
        onPageChange={(_, p) => setPage(p)}
        onRowsPerPageChange={(e) => {
          setPageSize(Number(e.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}
