import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { messages, type ApiKey, type CreatedApiKey } from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { extractErrorMessage } from '../../../lib/error-message';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { labels } from '../labels';
import { visuallyHidden } from '../../../components/visually-hidden';

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' });
const day = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : labels.never);

/** The organization's API keys: a new key is shown once; only its prefix is listed afterwards. */
export function ApiKeysCard({ canManage }: { canManage: boolean }) {
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [toRevoke, setToRevoke] = useState<ApiKey | null>(null);

  const submit = async () => {
    try {
      setCreated(await create.mutateAsync(name.trim()));
      setCopied(false);
      setName('');
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.unexpectedRetry), { variant: 'error' });
    }
  };

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    try {
      await revoke.mutateAsync(toRevoke.id);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.unexpectedRetry), { variant: 'error' });
    }
    setToRevoke(null);
  };

  const list = keys.data ?? [];
  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2">
        {labels.apiKeys}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {labels.apiKeysHint}
      </Typography>
      {canManage && (
        <Stack
          component="form"
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ mb: 2 }}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField
            label={labels.apiKeyName}
            value={name}
            onChange={(e) => setName(e.target.value)}
            size="small"
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <Button type="submit" variant="outlined" disabled={!name.trim() || create.isPending}>
            {labels.createKey}
          </Button>
        </Stack>
      )}
      <Table size="small" aria-label={labels.apiKeys}>
        <TableHead>
          <TableRow>
            <TableCell>{labels.apiKeyName}</TableCell>
            <TableCell>{labels.prefix}</TableCell>
            <TableCell>{labels.created}</TableCell>
            <TableCell>{labels.lastUsed}</TableCell>
            <TableCell>{labels.status}</TableCell>
            {canManage && (
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  {labels.actions}
                </Box>
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((k) => (
            <TableRow key={k.id}>
              <TableCell>{k.name}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{k.prefix}…</TableCell>
              <TableCell>{day(k.createdAt)}</TableCell>
              <TableCell>{day(k.lastUsedAt)}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  label={k.revokedAt ? labels.revoked : labels.active}
                  color={k.revokedAt ? 'default' : 'success'}
                />
              </TableCell>
              {canManage && (
                <TableCell align="right">
                  {!k.revokedAt && (
                    <Button
                      color="error"
                      size="small"
                      onClick={() => setToRevoke(k)}
                      aria-label={`${labels.revoke} ${k.name}`}
                    >
                      {labels.revoke}
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
          {keys.isSuccess && list.length === 0 && (
            <TableRow>
              <TableCell colSpan={canManage ? 6 : 5} align="center">
                {labels.noKeys}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>

      <Dialog open={created !== null} aria-labelledby="api-key-created-title" maxWidth="sm" fullWidth>
        <DialogTitle id="api-key-created-title">{labels.keyCreatedTitle}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {labels.keyCreatedHint}
          </Alert>
          <TextField
            label={created?.name ?? labels.apiKeys}
            value={created?.key ?? ''}
            fullWidth
            slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } } }}
          />
        </DialogContent>
        <DialogActions>
          <Button
            onClick={async () => {
              if (created) await navigator.clipboard?.writeText(created.key);
              setCopied(true);
            }}
          >
            {copied ? labels.copied : labels.copy}
          </Button>
          <Button variant="contained" onClick={() => setCreated(null)}>
            {labels.done}
          </Button>
        </DialogActions>
      </Dialog>

      <ConfirmDialog
        open={toRevoke !== null}
        title={labels.revokeTitle}
        message={labels.revokeMessage}
        confirmLabel={labels.revoke}
        onConfirm={confirmRevoke}
        onClose={() => setToRevoke(null)}
        busy={revoke.isPending}
        destructive
      />
    </Paper>
  );
}
