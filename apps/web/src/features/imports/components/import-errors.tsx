import { useState } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { ADMIN_USER_PAGE_SIZES, formatCount, type ImportCellError, type ImportDetail } from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useDownloadErrors } from '../api/download-errors';
import type { SpreadsheetFormat } from '../api/download-template';
import { labels } from '../labels';

const COLUMNS: DataColumn<ImportCellError>[] = [
  { label: labels.row, align: 'right', render: (e) => formatCount(e.row), cellSx: { width: '4rem' } },
  { label: labels.column, card: 'title', render: (e) => e.column, cellSx: { whiteSpace: 'nowrap' } },
  { label: labels.message, card: 'subtitle', render: (e) => e.message },
];

/**
 * The dry run's errors, a page at a time (up to the 1,000 the answer lists), and the file of every row
 * with errors, to fix and upload again.
 */
export function ImportErrors({ detail }: { detail: ImportDetail }) {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(ADMIN_USER_PAGE_SIZES[0]);
  const download = useDownloadErrors();
  const get = async (format: SpreadsheetFormat) => {
    try {
      await download.mutateAsync({ kind: detail.kind, id: detail.id, format });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.downloadErrorsFailed), { variant: 'error' });
    }
  };
  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {labels.errorsTable}
      </Typography>
      {detail.errorsTruncated && (
        <Alert severity="info">{labels.errorsTruncated(detail.errors.length)}</Alert>
      )}
      <DataTable
        label={labels.errorsTable}
        columns={COLUMNS}
        rows={detail.errors.slice(page * pageSize, (page + 1) * pageSize)}
        rowKey={(e) => `${e.row}:${e.column}:${e.message}`}
        loading={false}
        emptyText=""
        size="small"
        pagination={{
          count: detail.errors.length,
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
      <Typography variant="body2" color="text.secondary">
        {labels.errorsLeftOut}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          disabled={download.isPending}
          onClick={() => void get('xlsx')}
        >
          {labels.downloadErrors} (.xlsx)
        </Button>
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          disabled={download.isPending}
          onClick={() => void get('csv')}
        >
          {labels.downloadErrors} (.csv)
        </Button>
      </Stack>
    </Stack>
  );
}
