import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { messages, strongPasswordSchema } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { useResetPassword, useResetTokenCheck } from '../api/password-recovery';
import { AuthCard } from '../components/auth-card';
import { PasswordChecklist } from '../../../components/password-checklist';
import { PasswordField } from '../../../components/password-field';
import { forgetResetToken, takeResetToken } from '../reset-token';

const schema = z
  .object({
    password: z.string().min(1, messages.password.newRequired).pipe(strongPasswordSchema),
    confirm: z.string().min(1, messages.password.confirmRequired),
  })
  .refine((v) => v.password === v.confirm, { message: messages.password.mismatch, path: ['confirm'] });
type Values = z.infer<typeof schema>;

const TITLE = 'Set your password';

/** A dead link: said at once, with the way to a new one. */
function InvalidLink() {
  return (
    <AuthCard title={TITLE}>
      <Alert severity="error">{messages.login.resetInvalid}</Alert>
      <Link component={RouterLink} to="/auth/forgot-password" sx={{ display: 'block', mt: 2 }}>
        Ask for a new link
      </Link>
    </AuthCard>
  );
}

/**
 * Sets a password from an invitation or a reset link (`?token=`). The link is checked as the page
 * opens, so a dead one says so before anything is typed.
 */
export function ResetPasswordPage() {
  const [params, setParams] = useSearchParams();
  // Read once and kept here and in this tab's session storage (a reload): the address bar loses it just below.
  const [token] = useState(() => takeResetToken(params.get('token')));
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
  const check = useResetTokenCheck(token);
  const reset = useResetPassword();
  const [done, setDone] = useState<string | null>(null);
  // The server refused the token on sending (it expired or was used meanwhile).
  const [refused, setRefused] = useState(false);
  const { register, handleSubmit, control, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', confirm: '' },
  });
  const password = useWatch({ control, name: 'password' });
  const dead = refused || check.data === false;

  useEffect(() => {
    if (dead || done) forgetResetToken();
  }, [dead, done]);

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      setDone((await reset.mutateAsync({ token, password })).message);
    } catch (error) {
      if (error instanceof ApiError && error.message === messages.login.resetInvalid) setRefused(true);
    }
  });

  if (!token || dead) return <InvalidLink />;

  if (check.isPending)
    return (
      <AuthCard title={TITLE}>
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2 }}>
          <CircularProgress size={22} aria-hidden />
          <Typography>Checking your link...</Typography>
        </Box>
      </AuthCard>
    );

  if (check.isError)
    return (
      <AuthCard title={TITLE}>
        <Stack spacing={2}>
          <Alert severity="error">{extractErrorMessage(check.error)}</Alert>
          <Button variant="outlined" onClick={() => void check.refetch()} sx={{ alignSelf: 'flex-start' }}>
            Try again
          </Button>
        </Stack>
      </AuthCard>
    );

  return (
    <AuthCard title={TITLE}>
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
          <PasswordChecklist
            password={password}
            showErrors={formState.isSubmitted || !!formState.touchedFields.password}
          />
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
            Set password
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
