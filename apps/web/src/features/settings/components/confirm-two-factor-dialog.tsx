import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { confirmTwoFactorBodySchema, messages, type ConfirmTwoFactorBody } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { PasswordField } from '../../../components/password-field';
import { labels as authLabels } from '../../../components/two-factor/labels';

/** Where a refusal's message belongs: under the field it names, else above the form. */
function fieldOf(error: unknown): keyof ConfirmTwoFactorBody | null {
  if (!(error instanceof ApiError)) return null;
  if (error.message === messages.password.currentIncorrect) return 'password';
  if (error.message === messages.twoFactor.codeInvalid) return 'code';
  return null;
}

export interface ConfirmTwoFactorDialogProps {
  title: string;
  intro: string;
  confirmLabel: string;
  destructive?: boolean;
  /** The change itself; a refusal it throws is shown in the dialog, which stays open. */
  send(body: ConfirmTwoFactorBody): Promise<void>;
  onClose(): void;
}

/**
 * Turning two-factor sign-in off, making new recovery codes or setting up a new authenticator: each
 * asks for the password and a current code or a recovery code (the phone may be lost). Mounted once
 * per opening, so each opening starts empty.
 */
export function ConfirmTwoFactorDialog({
  title,
  intro,
  confirmLabel,
  destructive,
  send,
  onClose,
}: ConfirmTwoFactorDialogProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, setValue } = useForm<ConfirmTwoFactorBody>({
    resolver: zodResolver(confirmTwoFactorBodySchema),
    defaultValues: { password: '', code: '' },
  });
  const busy = formState.isSubmitting;

  const submit = handleSubmit(async (body) => {
    setFormError(null);
    try {
      await send(body);
    } catch (error) {
      const field = fieldOf(error);
      if (!field) {
        setFormError(extractErrorMessage(error, messages.common.unexpectedRetry));
        return;
      }
      // A code is good for a moment only: a refused one is typed again.
      if (field === 'code') setValue('code', '');
      setError(field, { type: 'server', message: (error as ApiError).message }, { shouldFocus: true });
    }
  });

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="confirm-two-factor-title"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id="confirm-two-factor-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>{intro}</DialogContentText>
            {formError && <Alert severity="error">{formError}</Alert>}
            <PasswordField
              label={messages.password.currentLabel}
              autoComplete="current-password"
              autoFocus
              fullWidth
              {...register('password')}
              error={!!formState.errors.password}
              helperText={formState.errors.password?.message}
            />
            <TextField
              label={authLabels.codeOrRecoveryCode}
              autoComplete="one-time-code"
              fullWidth
              {...register('code')}
              error={!!formState.errors.code}
              helperText={formState.errors.code?.message}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {authLabels.cancel}
          </Button>
          <Button type="submit" variant="contained" color={destructive ? 'error' : 'primary'} loading={busy}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
