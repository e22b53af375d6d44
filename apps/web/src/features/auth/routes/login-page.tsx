import { useState } from 'react';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { messages } from '@portal/shared';
import { useAuth } from '../auth-context';
import { AuthCard } from '../components/auth-card';
import { returnPathAfterSignIn } from '../return-path';
import { PasswordField } from '../components/password-field';

const schema = z.object({
  identifier: z.string().trim().min(1, 'Email or username is required'),
  password: z.string().min(1, 'Password is required'),
});
type Values = z.infer<typeof schema>;

/** Sign-in error texts: the server message, else 'Login failed'; no response; anything else. */
function loginErrorText(error: unknown): string {
  if (error instanceof ApiError)
    return error.status === null ? messages.login.noResponse : error.message || messages.login.failed;
  return messages.login.otherError;
}

export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { identifier: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await login(values.identifier, values.password);
      navigate(returnPathAfterSignIn(location.state), { replace: true });
    } catch (e) {
      setError(loginErrorText(e));
    }
  });

  return (
    <AuthCard title="Sign in" subtitle="Use your email or username.">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          label="Email or username"
          autoComplete="username"
          autoFocus
          {...register('identifier')}
          error={!!formState.errors.identifier}
          helperText={formState.errors.identifier?.message}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          {...register('password')}
          error={!!formState.errors.password}
          helperText={formState.errors.password?.message}
        />
        <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? messages.common.loading : 'Sign in'}
        </Button>
        <Link component={RouterLink} to="/auth/forgot-password" sx={{ alignSelf: 'center' }}>
          Forgot password?
        </Link>
      </Stack>
    </AuthCard>
  );
}
