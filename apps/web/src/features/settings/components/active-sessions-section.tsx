import { useState } from 'react';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import { formatDateTime, messages, type ActiveSession } from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useAuth } from '../../../lib/session/auth-context';
import { useEndOtherSessions } from '../api/end-other-sessions';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { labels } from '../labels';

const COLUMNS: DataColumn<ActiveSession>[] = [
  {
    label: labels.device,
    card: 'title',
    render: (s) => (
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <span>{s.device}</span>
        {s.current && <Chip size="small" color="primary" label={labels.thisBrowser} />}
      </Stack>
    ),
  },
  { label: labels.address, render: (s) => s.address ?? '—' },
  { label: labels.signedIn, render: (s) => formatDateTime(s.signedInAt) },
  { label: labels.lastUsed, render: (s) => formatDateTime(s.lastUsedAt) },
];

/** What the confirm dialog is about to end: one session, or all but this browser's. */
type Ending = ActiveSession | 'others';

/**
 * Settings → Active sessions: the browsers signed in to the account, each with End (Sign out on this
 * browser's own row), and End all others.
 */
export function ActiveSessionsSection() {
  const sessions = useSessions();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const { forgetSession } = useAuth();
  const navigate = useNavigate();
  const [ending, setEnding] = useState<Ending | null>(null);
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  const end = async () => {
    if (!ending) return;
    try {
      if (ending === 'others') {
        await endOthers.mutateAsync();
        enqueueSnackbar(messages.sessions.othersEnded, { variant: 'success' });
      } else {
        await endSession.mutateAsync(ending);
        if (ending.current) {
          // The server has signed this browser out already.
          forgetSession();
          navigate('/auth/login', { replace: true });
        } else enqueueSnackbar(messages.sessions.ended, { variant: 'success' });
      }
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.endFailed), { variant: 'error' });
    } finally {
      setEnding(null);
    }
  };

  const dialog =
    ending === 'others'
      ? { title: labels.endOthersTitle, message: labels.endOthersConfirm, confirm: labels.endOthers }
      : ending?.current
        ? { title: labels.endCurrentTitle, message: labels.endCurrentConfirm, confirm: labels.signOut }
        : {
            title: labels.endTitle,
            message: ending ? labels.endConfirm(ending.device) : '',
            confirm: labels.end,
          };

  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{labels.sessionsIntro}</Typography>
      <Box>
        <DataTable
          label={messages.sessions.title}
          columns={COLUMNS}
          rows={sessions.data ?? []}
          rowKey={(s) => s.id}
          loading={sessions.isPending}
          error={
            sessions.isError ? extractErrorMessage(sessions.error, labels.sessionsLoadFailed) : undefined
          }
          emptyText={labels.sessionsEmpty}
          size="small"
          actions={{
            label: labels.sessionActions,
            labelHidden: true,
            align: 'right',
            // This browser's row signs out here, and says so; every other row ends that session.
            render: (s) =>
              s.current ? (
                <Button size="small" onClick={() => setEnding(s)} aria-label={labels.signOutThisBrowser}>
                  {labels.signOut}
                </Button>
              ) : (
                <Button
                  size="small"
                  color="error"
                  onClick={() => setEnding(s)}
                  aria-label={labels.endSessionOf(s.device)}
                >
                  {labels.end}
                </Button>
              ),
          }}
        />
      </Box>
      <Box>
        <Button variant="outlined" color="error" disabled={others === 0} onClick={() => setEnding('others')}>
          {labels.endOthers}
        </Button>
      </Box>
      <ConfirmDialog
        open={ending !== null}
        title={dialog.title}
        message={dialog.message}
        confirmLabel={dialog.confirm}
        destructive
        busy={endSession.isPending || endOthers.isPending}
        onConfirm={() => void end()}
        onClose={() => setEnding(null)}
      />
    </Stack>
  );
}
