import { useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { formatDate, messages, type ApiKey, type CreatedApiKey } from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { extractErrorMessage } from '../../../lib/error-message';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { labels } from '../labels';

const day = (iso: string | null) => (iso ? formatDate(iso) : labels.never);

const COLUMNS: DataColumn<ApiKey>[] = [
  { label: labels.apiKeyName, card: 'title', render: (k) => k.name, cellSx: { overflowWrap: 'anywhere' } },
  { label: labels.prefix, render: (k) => `${k.prefix}…`, cellSx: { fontFamily: 'monospace' } },
  { label: labels.created, render: (k) => day(k.createdAt) },
  { label: labels.lastUsed, render: (k) => day(k.lastUsedAt) },
  {
    label: labels.status,
    render: (k) => (
      <Chip
        size="small"
        label={k.revokedAt ? labels.revoked : labels.active}
        color={k.revokedAt ? 'default' : 'success'}
      />
    ),
  },
];

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
      <DataTable
        label={labels.apiKeys}
        size="small"
        columns={COLUMNS}
        actions={
          canManage
            ? {
                label: labels.actions,
                labelHidden: true,
                align: 'right',
                render: (k) =>
                  !k.revokedAt && (
                    <Button
                      color="error"
                      size="small"
                      onClick={() => setToRevoke(k)}
                      aria-label={`${labels.revoke} ${k.name}`}
                    >
                      {labels.revoke}
                    </Button>
                  ),
              }
            : undefined
        }
        rows={list}
        rowKey={(k) => k.id}
        loading={keys.isPending}
        error={keys.isError ? extractErrorMessage(keys.error, messages.common.anErrorOccurred) : undefined}
        emptyText={labels.noKeys}
      />

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
