import { useEffect, useState } from 'react';
import { Alert, Box, Button, Stack } from '@mui/material';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import {
  firstPasswordChangeError,
  messages,
  PASSWORD_BANNER_MS,
  storageKeys,
  type PasswordChangeField,
  type PasswordChangeValues,
} from '@portal/shared';
import { useAuth } from '../../../lib/session/auth-context';
import { PasswordChecklist } from '../../../components/password-checklist';
import { PasswordField } from '../../../components/password-field';
import { passwordChangeFailure, useChangePassword } from '../api/change-password';

const EMPTY: PasswordChangeValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The rules in order, one message at a time, under the field it concerns. */
const orderedResolver: Resolver<PasswordChangeValues> = async (values) => {
  const failure = firstPasswordChangeError(values);
  return failure
    ? { values: {}, errors: { [failure.field]: { type: 'validate', message: failure.message } } }
    : { values, errors: {} };
};

const FIELDS: { name: PasswordChangeField; label: string; autoComplete: string }[] = [
  { name: 'currentPassword', label: messages.password.currentLabel, autoComplete: 'current-password' },
  { name: 'newPassword', label: messages.password.newLabel, autoComplete: 'new-password' },
  { name: 'confirmPassword', label: messages.password.confirmLabel, autoComplete: 'new-password' },
];

/** Change password in Settings: idle → busy → success or error. */
export function ChangePasswordForm() {
  const { user } = useAuth();
  const mutation = useChangePassword();
  const [banner, setBanner] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, clearErrors, reset, formState } = useForm<PasswordChangeValues>({
    defaultValues: EMPTY,
    resolver: orderedResolver,
    // Typing clears the field's own error; the next check runs on the next submit.
    reValidateMode: 'onSubmit',
  });
  const newPassword = useWatch({ control, name: 'newPassword' });

  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), PASSWORD_BANNER_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    setBanner(null);
    const userId = user?.id ?? localStorage.getItem(storageKeys.userId);
    if (!userId) {
      setFormError(messages.password.userIdMissing);
      return;
    }
    try {
      await mutation.mutateAsync({
        userId,
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      });
      reset(EMPTY);
      setBanner(messages.password.changed);
    } catch (error) {
      const failure = passwordChangeFailure(error);
      if (failure.field) setError(failure.field, { type: 'server', message: failure.message });
      else setFormError(failure.message);
    }
  });

  const busy = mutation.isPending;
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ maxWidth: 520 }}>
      <Stack spacing={2.5}>
        {banner && (
          <Alert severity="success" role="status">
            {banner}
          </Alert>
        )}
        {formError && <Alert severity="error">{formError}</Alert>}
        {FIELDS.map(({ name, label, autoComplete }) => (
          <Controller
            key={name}
            name={name}
            control={control}
            render={({ field }) => (
              <PasswordField
                {...field}
                inputRef={field.ref}
                onChange={(event) => {
                  field.onChange(event);
                  clearErrors(name);
                }}
                label={label}
                autoComplete={autoComplete}
                disabled={busy}
                fullWidth
                error={!!formState.errors[name]}
                helperText={formState.errors[name]?.message}
              />
            )}
          />
        ))}
        <PasswordChecklist
          password={newPassword}
          showErrors={formState.isSubmitted || !!formState.touchedFields.newPassword}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? messages.password.updating : messages.password.changePassword}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
