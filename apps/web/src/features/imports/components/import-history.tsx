import { useState } from 'react';
import { Link, Paper } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import {
  ADMIN_USER_PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
  formatCount,
  formatDateTime,
  type ImportKind,
  type ImportSummary,
} from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { extractErrorMessage } from '../../../lib/error-message';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useImportHistory } from '../api/get-imports';
import { labels } from '../labels';
import { ImportStatusChip } from './import-status-chip';

/** What an import did, or would do while only checked, in a few words: its first count, and others not 0. */
function outcomeOf({ status, counts, results }: ImportSummary): string {
  const parts: [number, (n: number) => string][] =
    status === 'dry_run'
      ? [
          [counts.toCreate, labels.toCreate],
          [counts.toUpdate, labels.toUpdate],
          [counts.errors, labels.withErrors],
        ]
      : [
          [results.created, labels.created],
          [results.updated, labels.updated],
          [results.failed, labels.failed],
        ];
  return parts
    .filter(([count], i) => i === 0 || count > 0)
    .map(([count, label]) => label(count))
    .join(' · ');
}

/** The kind's imports, newest first, each opening its own page. */
export function ImportHistory({ kind }: { kind: ImportKind }) {
  const prefix = useRoutePrefix();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const history = useImportHistory(kind, { page: page + 1, pageSize });
  const columns: DataColumn<ImportSummary>[] = [
    {
      label: labels.file,
      card: 'title',
      render: (i) => (
        <Link component={RouterLink} to={`${prefix}/imports/${kind}/${encodeURIComponent(i.id)}`}>
          {i.fileName}
        </Link>
      ),
      cellSx: { overflowWrap: 'anywhere' },
    },
    { label: labels.status, render: (i) => <ImportStatusChip status={i.status} /> },
    {
      label: labels.started,
      card: 'subtitle',
      render: (i) => <time dateTime={i.createdAt}>{formatDateTime(i.createdAt)}</time>,
      cellSx: { whiteSpace: 'nowrap' },
    },
    { label: labels.rows, align: 'right', render: (i) => formatCount(i.counts.total) },
    { label: labels.outcome, render: outcomeOf },
  ];
  return (
    <Paper variant="outlined">
      <DataTable
        label={labels.history}
        columns={columns}
        rows={history.data?.items ?? []}
        rowKey={(i) => i.id}
        loading={history.isPending}
        error={history.isError ? extractErrorMessage(history.error, labels.historyFailed) : undefined}
        emptyText={labels.noImports}
        pagination={{
          count: history.data?.meta.total ?? 0,
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
