import { useRef, type ChangeEvent } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { IMPORT_MAX_BYTES } from '@portal/shared';
import { labels } from '../labels';

/** What the file input offers; the server judges a file by its bytes, whatever its name. */
const SPREADSHEET_ACCEPT =
  '.xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv';

function sizeText(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Step 2: the spreadsheet to import, its name and size once chosen, and what went wrong reading it. */
export function FilePicker({
  file,
  onChoose,
  disabled,
  error,
}: {
  file: File | null;
  onChoose: (file: File) => void;
  disabled: boolean;
  error?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // The same file chosen again (fixed and saved) is read again.
    event.target.value = '';
    if (chosen) onChoose(chosen);
  };
  return (
    <Stack spacing={1.5}>
      <input
        ref={input}
        type="file"
        hidden
        accept={SPREADSHEET_ACCEPT}
        aria-label={labels.fileInput}
        onChange={choose}
      />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          variant={file ? 'outlined' : 'contained'}
          startIcon={<UploadFileIcon />}
          onClick={() => input.current?.click()}
          disabled={disabled}
        >
          {file ? labels.chooseAnotherFile : labels.chooseFile}
        </Button>
        {file && (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            <strong>{file.name}</strong> ({sizeText(file.size)})
          </Typography>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {labels.fileHint(IMPORT_MAX_BYTES)}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
