import { useState } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { QRCodeSVG } from 'qrcode.react';
import { enableTwoFactorBodySchema, messages, type TwoFactorSetup } from '@portal/shared';
import { ApiError } from '../../lib/api-client';
import { extractErrorMessage } from '../../lib/error-message';
import { useEnableTwoFactor } from '../../lib/two-factor/enable-two-factor';
import { useStartTwoFactorSetup } from '../../lib/two-factor/start-two-factor-setup';
import { labels } from './labels';
import { RecoveryCodes } from './recovery-codes';
import { SetupKey } from './setup-key';

type Step =
  { name: 'start' } | { name: 'confirm'; setup: TwoFactorSetup } | { name: 'codes'; codes: string[] };

export interface TwoFactorEnrolmentProps {
  /** The last step's button: after the user has saved their recovery codes. */
  finishLabel: string;
  onFinished(): void;
  /** Two-factor sign-in is on and the recovery codes are on screen: keep this mounted until finished. */
  onEnabled?(): void;
  /** A secret already made (a new authenticator for a lost one): start at its first code. */
  setup?: TwoFactorSetup;
}

/**
 * Setting up two-factor sign-in, in Settings and on the page a role that requires it leads to: a new
 * secret (QR code and setup key), its first code, then the recovery codes, shown this once.
 */
export function TwoFactorEnrolment({ finishLabel, onFinished, onEnabled, setup }: TwoFactorEnrolmentProps) {
  const [step, setStep] = useState<Step>(setup ? { name: 'confirm', setup } : { name: 'start' });
  const startSetup = useStartTwoFactorSetup();

  if (step.name === 'codes')
    return (
      <Stack spacing={2}>
        <Alert severity="success">{messages.twoFactor.enabled}</Alert>
        <RecoveryCodes codes={step.codes} />
        <Box>
          <Button variant="contained" onClick={onFinished}>
            {finishLabel}
          </Button>
        </Box>
      </Stack>
    );

  if (step.name === 'confirm')
    return (
      <ConfirmFirstCode
        setup={step.setup}
        onCancel={() => setStep({ name: 'start' })}
        onEnabled={(codes) => {
          setStep({ name: 'codes', codes });
          onEnabled?.();
        }}
      />
    );

  const start = async () => {
    try {
      setStep({ name: 'confirm', setup: await startSetup.mutateAsync() });
    } catch {
      // Shown below from the mutation's error.
    }
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography>{labels.setupIntro}</Typography>
      {startSetup.error && (
        <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
          {extractErrorMessage(startSetup.error)}
        </Alert>
      )}
      <Button variant="contained" onClick={() => void start()} loading={startSetup.isPending}>
        {labels.setUp}
      </Button>
    </Stack>
  );
}

interface ConfirmFirstCodeProps {
  setup: TwoFactorSetup;
  onCancel(): void;
  onEnabled(codes: string[]): void;
}

/** The QR code and setup key of the new secret, and the field for the first code the app shows. */
function ConfirmFirstCode({ setup, onCancel, onEnabled }: ConfirmFirstCodeProps) {
  const enable = useEnableTwoFactor();
  const [error, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, setValue, setFocus } = useForm<{ code: string }>({
    resolver: zodResolver(enableTwoFactorBodySchema),
    defaultValues: { code: '' },
  });

  const submit = handleSubmit(async (body) => {
    setFormError(null);
    try {
      onEnabled(await enable.mutateAsync(body));
    } catch (e) {
      if (e instanceof ApiError && e.message === messages.twoFactor.codeInvalid) {
        setValue('code', '');
        setError('code', { type: 'server', message: e.message });
        setFocus('code');
      } else setFormError(extractErrorMessage(e));
    }
  });

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2}>
      <Typography>{labels.scanStep}</Typography>
      <Box sx={{ alignSelf: 'center', p: 1.5, bgcolor: '#fff', lineHeight: 0, borderRadius: 1 }}>
        <QRCodeSVG value={setup.otpauthUri} size={176} title={labels.qrTitle} role="img" />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {labels.keyStep}
      </Typography>
      <SetupKey secret={setup.secret} />
      <Typography>{labels.codeStep}</Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <TextField
        label={labels.authenticationCode}
        autoComplete="one-time-code"
        autoFocus
        {...register('code')}
        error={!!formState.errors.code}
        helperText={formState.errors.code?.message}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" loading={enable.isPending}>
          {labels.confirm}
        </Button>
        <Button onClick={onCancel} disabled={enable.isPending}>
          {labels.cancel}
        </Button>
      </Stack>
    </Stack>
  );
}
