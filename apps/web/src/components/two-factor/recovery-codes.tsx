import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopyOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { saveFile } from '../../lib/save-file';
import { enqueueSnackbar } from '../../lib/snackbar';
import { labels } from './labels';

/**
 * Recovery codes, shown once when made (only their hashes are kept): the codes, a copy and a
 * download, and the warning that they will not be shown again.
 */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      enqueueSnackbar(labels.codesCopied, { variant: 'success' });
    } catch {
      // No clipboard (an insecure page, a refused permission): the codes are on screen and downloadable.
    }
  };
  const download = () =>
    saveFile(
      new Blob([`${labels.recoveryCodesFileHeading}\n\n${text}\n`], { type: 'text/plain' }),
      labels.recoveryCodesFile,
    );
  return (
    <Stack spacing={2}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {labels.recoveryCodesTitle}
      </Typography>
      <Alert severity="warning">{labels.recoveryCodesNote}</Alert>
      <Box
        component="ol"
        aria-label={labels.recoveryCodesTitle}
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(2, max-content)',
          columnGap: 4,
          rowGap: 0.5,
          justifyContent: 'center',
          listStyle: 'none',
          m: 0,
          p: 2,
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontFamily: 'monospace',
          fontSize: '1rem',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {labels.copyCodes}
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
          {labels.downloadCodes}
        </Button>
      </Stack>
    </Stack>
  );
}
