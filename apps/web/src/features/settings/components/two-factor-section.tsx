import { useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import {
  formatDate,
  messages,
  type ConfirmTwoFactorBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useTwoFactorStatus } from '../../../lib/two-factor/get-two-factor-status';
import { useMakeRecoveryCodes } from '../api/make-recovery-codes';
import { useReplaceAuthenticator } from '../api/replace-authenticator';
import { useAuth } from '../../../lib/session/auth-context';
import { RecoveryCodes } from '../../../components/two-factor/recovery-codes';
import { TwoFactorEnrolment } from '../../../components/two-factor/two-factor-enrolment';
import { labels } from '../labels';
import { ConfirmTwoFactorDialog } from './confirm-two-factor-dialog';

/** Settings → Two-factor sign-in: its state, and setting it up, turning it off or new recovery codes. */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const { refetchUser } = useAuth();
  // Set up just now: the enrolment's last step (the recovery codes) stays until the user is done.
  const [enrolled, setEnrolled] = useState(false);
  // A new authenticator for a lost one: the old factor is gone (the status says off) and the new
  // secret waits for its first code. Kept here, above whatever the status says meanwhile.
  const [replacement, setReplacement] = useState<TwoFactorSetup | null>(null);

  if (status.isPending) return <CircularProgress size={24} aria-label={messages.common.loading} />;
  if (status.isError)
    return (
      <Alert severity="error">{extractErrorMessage(status.error, messages.common.unexpectedRetry)}</Alert>
    );
  if (replacement)
    return (
      <TwoFactorEnrolment
        setup={replacement}
        finishLabel={labels.done}
        onEnabled={() => setEnrolled(true)}
        onFinished={() => {
          setReplacement(null);
          setEnrolled(false);
          void refetchUser();
        }}
      />
    );
  if (!status.data.enabled || enrolled)
    return (
      <Stack spacing={2}>
        <StateLine on={false} />
        <TwoFactorEnrolment
          finishLabel={labels.done}
          onEnabled={() => setEnrolled(true)}
          onFinished={() => {
            setEnrolled(false);
            void refetchUser();
          }}
        />
      </Stack>
    );
  return <TwoFactorOn status={status.data} onReplaced={setReplacement} />;
}

function StateLine({ on, details }: { on: boolean; details?: string[] }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Chip
        size="small"
        color={on ? 'success' : 'default'}
        label={on ? labels.twoFactorOn : labels.twoFactorOff}
      />
      {details?.map((detail) => (
        <Typography key={detail} variant="body2" color="text.secondary">
          {detail}
        </Typography>
      ))}
    </Stack>
  );
}

/**
 * Two-factor sign-in is on: since when, the codes left, new recovery codes, a new authenticator for a
 * lost one, and turning it off.
 */
function TwoFactorOn({
  status,
  onReplaced,
}: {
  status: TwoFactorStatus;
  /** The old factor is gone; `setup` is the new secret, waiting for its first code. */
  onReplaced(setup: TwoFactorSetup): void;
}) {
  const { refetchUser } = useAuth();
  const disable = useDisableTwoFactor();
  const makeCodes = useMakeRecoveryCodes();
  const replace = useReplaceAuthenticator();
  const [dialog, setDialog] = useState<'turn-off' | 'new-codes' | 'new-authenticator' | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  const turnOff = async (body: ConfirmTwoFactorBody) => {
    await disable.mutateAsync(body);
    setDialog(null);
    enqueueSnackbar(messages.twoFactor.disabled, { variant: 'success' });
    // A role that requires it leads the user to set it up again (app/guard.tsx).
    await refetchUser();
  };
  const remake = async (body: ConfirmTwoFactorBody) => {
    setNewCodes(await makeCodes.mutateAsync(body));
    setDialog(null);
    enqueueSnackbar(messages.twoFactor.recoveryCodesMade, { variant: 'success' });
  };

  const startNewAuthenticator = async (body: ConfirmTwoFactorBody) => {
    const setup = await replace.mutateAsync(body);
    setDialog(null);
    onReplaced(setup);
  };

  const details = [
    ...(status.enabledAt ? [labels.twoFactorSince(formatDate(status.enabledAt))] : []),
    labels.recoveryCodesLeft(status.recoveryCodesLeft),
  ];
  return (
    <Stack spacing={2}>
      <StateLine on details={details} />
      {newCodes ? (
        <>
          <RecoveryCodes codes={newCodes} />
          <Box>
            <Button variant="contained" onClick={() => setNewCodes(null)}>
              {labels.done}
            </Button>
          </Box>
        </>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <Button variant="outlined" onClick={() => setDialog('new-codes')}>
            {labels.newRecoveryCodes}
          </Button>
          <Button variant="outlined" onClick={() => setDialog('new-authenticator')}>
            {labels.newAuthenticator}
          </Button>
          <Button variant="outlined" color="error" onClick={() => setDialog('turn-off')}>
            {labels.turnOff}
          </Button>
          {status.required && (
            <Typography variant="body2" color="text.secondary">
              {labels.requiredByRole}
            </Typography>
          )}
        </Stack>
      )}
      {dialog === 'turn-off' && (
        <ConfirmTwoFactorDialog
          title={labels.turnOffTitle}
          intro={labels.turnOffIntro}
          confirmLabel={labels.turnOff}
          destructive
          send={turnOff}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'new-authenticator' && (
        <ConfirmTwoFactorDialog
          title={labels.newAuthenticatorTitle}
          intro={labels.newAuthenticatorIntro}
          confirmLabel={labels.startNewAuthenticator}
          send={startNewAuthenticator}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'new-codes' && (
        <ConfirmTwoFactorDialog
          title={labels.newCodesTitle}
          intro={labels.newCodesIntro}
          confirmLabel={labels.makeCodes}
          send={remake}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
