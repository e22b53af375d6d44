import { Box, IconButton, Stack, Tooltip } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopyOutlined';
import { enqueueSnackbar } from '../../lib/snackbar';
import { labels } from './labels';

/** `JBSWY3DPEHPK3PXP` as `JBSW Y3DP EHPK 3PXP`: groups of four are easier to type into an app. */
export function groupSetupKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/** The secret as text, for an authenticator app that cannot scan the QR code, with a copy button. */
export function SetupKey({ secret }: { secret: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      enqueueSnackbar(labels.keyCopied, { variant: 'success' });
    } catch {
      // No clipboard: the key stays on screen to type.
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Box
        component="code"
        data-testid="setup-key"
        sx={{ fontFamily: 'monospace', fontSize: '1rem', overflowWrap: 'anywhere', userSelect: 'all' }}
      >
        {groupSetupKey(secret)}
      </Box>
      <Tooltip title={labels.copyKey}>
        <IconButton size="small" aria-label={labels.copyKey} onClick={() => void copy()}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
