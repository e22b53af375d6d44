import { Button, Chip, Stack, Typography } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { IMPORT_COLUMNS, type ImportColumn, type ImportKind } from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useDownloadTemplate, type SpreadsheetFormat } from '../api/download-template';
import { labels } from '../labels';

const COLUMNS: DataColumn<ImportColumn>[] = [
  {
    label: labels.column,
    card: 'title',
    render: (c) => (
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <span>{c.label}</span>
        {c.optional && <Chip size="small" variant="outlined" label={labels.optional} />}
      </Stack>
    ),
  },
  { label: labels.rule, card: 'subtitle', render: (c) => c.rule },
  { label: labels.example, render: (c) => <code>{c.example}</code>, cellSx: { overflowWrap: 'anywhere' } },
];

/** Step 1: the kind's columns with their rules, and the template to fill in. */
export function TemplateSection({ kind }: { kind: ImportKind }) {
  const download = useDownloadTemplate();
  const get = async (format: SpreadsheetFormat) => {
    try {
      await download.mutateAsync({ kind, format });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.templateFailed), { variant: 'error' });
    }
  };
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{labels.templateHint(kind)}</Typography>
      <DataTable
        label={labels.columnsTable}
        columns={COLUMNS}
        rows={IMPORT_COLUMNS[kind]}
        rowKey={(c) => c.key}
        loading={false}
        emptyText=""
        size="small"
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          disabled={download.isPending}
          onClick={() => void get('xlsx')}
        >
          {labels.templateXlsx}
        </Button>
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          disabled={download.isPending}
          onClick={() => void get('csv')}
        >
          {labels.templateCsv}
        </Button>
      </Stack>
    </Stack>
  );
}
