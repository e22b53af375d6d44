import { useEffect, useState } from 'react';
import { Alert, Button, Link, Stack } from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { messages, strongPasswordSchema } from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useResetPassword } from '../api/password-recovery';
import { AuthCard } from '../components/auth-card';
import { PasswordChecklist } from '../components/password-checklist';
import { PasswordField } from '../components/password-field';

const schema = z
  .object({
    password: z.string().min(1, messages.password.newRequired).pipe(strongPasswordSchema),
    confirm: z.string().min(1, messages.password.confirmRequired),
  })
  .refine((v) => v.password === v.confirm, { message: messages.password.mismatch, path: ['confirm'] });
type Values = z.infer<typeof schema>;

/** Sets a password from an invitation or a reset link (`?token=`). */
export function ResetPasswordPage() {
  const [params, setParams] = useSearchParams();
  // Read once and kept here: the address bar loses it just below.
  const [token] = useState(() => params.get('token') ?? '');
  const linkHasToken = params.has('token');
  useEffect(() => {
    // The token is a password in all but name: out of the address bar and this history entry, it is
    // not in the history list, a screenshot, a bookmark or a later Referer (issue 20).
    if (linkHasToken)
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('token');
          return next;
        },
        { replace: true },
      );
  }, [linkHasToken, setParams]);
  const reset = useResetPassword();
  const [done, setDone] = useState<string | null>(null);
  const { register, handleSubmit, control, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', confirm: '' },
  });
  const password = useWatch({ control, name: 'password' });

  const onSubmit = handleSubmit(async ({ password }) => {
    const result = await reset.mutateAsync({ token, password }).catch(() => null);
    if (result) setDone(result.message);
  });

  if (!token) {
    return (
      <AuthCard title="Set your password">
        <Alert severity="error">{messages.login.resetInvalid}</Alert>
        <Link component={RouterLink} to="/auth/forgot-password" sx={{ display: 'block', mt: 2 }}>
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Set your password">
      {done ? (
        <Stack spacing={2}>
          <Alert severity="success">{done}</Alert>
          <Button component={RouterLink} to="/auth/login" variant="contained">
            Sign in
          </Button>
        </Stack>
      ) : (
        <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
          {reset.isError && <Alert severity="error">{extractErrorMessage(reset.error)}</Alert>}
          <PasswordField
            label="New password"
            autoComplete="new-password"
            autoFocus
            {...register('password')}
            error={!!formState.errors.password}
            helperText={formState.errors.password?.message}
          />
          <PasswordField
            label="Confirm password"
            autoComplete="new-password"
            {...register('confirm')}
            error={!!formState.errors.confirm}
            helperText={formState.errors.confirm?.message}
          />
          <PasswordChecklist password={password} />
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
            Set password
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
