import { useState } from 'react';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link as RouterLink } from 'react-router';
import { emailSchema } from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useForgotPassword } from '../api/password-recovery';
import { AuthCard } from '../components/auth-card';

const schema = z.object({ email: emailSchema });

export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [sent, setSent] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ email: string }>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    const result = await forgot.mutateAsync(email).catch(() => null);
    if (result) setSent(result.message);
  });

  return (
    <AuthCard title="Forgot password" subtitle="We will email you a link to set a new password.">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        {sent && <Alert severity="success">{sent}</Alert>}
        {forgot.isError && <Alert severity="error">{extractErrorMessage(forgot.error)}</Alert>}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          {...register('email')}
          error={!!formState.errors.email}
          helperText={formState.errors.email?.message}
        />
        <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
          Send reset link
        </Button>
        <Link component={RouterLink} to="/auth/login" sx={{ alignSelf: 'center' }}>
          Back to sign in
        </Link>
      </Stack>
    </AuthCard>
  );
}
