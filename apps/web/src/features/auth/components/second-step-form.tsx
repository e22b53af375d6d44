import { useState } from 'react';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  enableTwoFactorBodySchema,
  messages,
  secondStepBodySchema,
  type SignInChallenge,
} from '@portal/shared';
import { useAuth } from '../../../lib/session/auth-context';
import { labels } from '../../../components/two-factor/labels';
import { isChallengeExpired, signInErrorText } from '../sign-in-error';

/** Six digits from the app (spaces dropped), by the shared rule of a code. */
const appCodeSchema = enableTwoFactorBodySchema;
/** The second step's own rule, which takes a recovery code too. */
const recoveryCodeSchema = secondStepBodySchema.pick({ code: true });

interface Values {
  code: string;
}

export interface SecondStepFormProps {
  challenge: SignInChallenge;
  onSignedIn(): void;
  /** Back to the password step, with the message to show there (the challenge ran out). */
  onBack(message?: string): void;
}

/**
 * The second step of a sign-in: a code from the authenticator app, or a recovery code. A wrong code
 * stays on this step with the field emptied; a challenge that ran out goes back to the password step.
 */
export function SecondStepForm({ challenge, onSignedIn, onBack }: SecondStepFormProps) {
  const { verifySecondStep } = useAuth();
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset, setFocus } = useForm<Values>({
    resolver: zodResolver(recovery ? recoveryCodeSchema : appCodeSchema),
    defaultValues: { code: '' },
  });

  const switchMode = () => {
    setRecovery(!recovery);
    setError(null);
    reset({ code: '' });
    setFocus('code');
  };

  const onSubmit = handleSubmit(async ({ code }) => {
    setError(null);
    try {
      await verifySecondStep({ challenge: challenge.challenge, code });
      onSignedIn();
    } catch (e) {
      if (isChallengeExpired(e)) {
        onBack(messages.twoFactor.challengeExpired);
        return;
      }
      setError(signInErrorText(e));
      reset({ code: '' });
      setFocus('code');
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      {error && <Alert severity="error">{error}</Alert>}
      <TextField
        label={recovery ? labels.recoveryCode : labels.authenticationCode}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        autoFocus
        {...register('code')}
        error={!!formState.errors.code}
        helperText={formState.errors.code?.message ?? (recovery ? labels.recoveryCodeHint : undefined)}
        slotProps={{
          htmlInput: recovery ? { autoCapitalize: 'none', spellCheck: false } : { inputMode: 'numeric' },
        }}
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? messages.common.loading : labels.verify}
      </Button>
      <Link component="button" type="button" onClick={switchMode} sx={{ alignSelf: 'center' }}>
        {recovery ? labels.useAuthenticator : labels.useRecoveryCode}
      </Link>
      <Button onClick={() => onBack()} disabled={formState.isSubmitting}>
        {labels.back}
      </Button>
    </Stack>
  );
}
