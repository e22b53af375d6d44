import { useState } from 'react';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { messages, type SignInChallenge } from '@portal/shared';
import { isSignInChallenge } from '../../../lib/session/api/login';
import { useAuth } from '../../../lib/session/auth-context';
import { AuthCard } from '../components/auth-card';
import { SecondStepForm } from '../components/second-step-form';
import { labels } from '../../../components/two-factor/labels';
import { returnPathAfterSignIn } from '../../../lib/session/return-path';
import { PasswordField } from '../../../components/password-field';
import { signInErrorText } from '../sign-in-error';

const schema = z.object({
  identifier: z.string().trim().min(1, 'Email or username is required'),
  password: z.string().min(1, 'Password is required'),
});
type Values = z.infer<typeof schema>;

/** Sign-in: the password step, then, for an account with two-factor sign-in on, the code step. */
export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const { register, handleSubmit, formState, resetField } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { identifier: '', password: '' },
  });

  const signedIn = () => navigate(returnPathAfterSignIn(location.state), { replace: true });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const result = await login(values.identifier, values.password);
      if (isSignInChallenge(result)) setChallenge(result);
      else signedIn();
    } catch (e) {
      setError(signInErrorText(e));
    }
  });

  const backToPassword = (message?: string) => {
    setChallenge(null);
    setError(message ?? null);
    // The identifier stays; the password is asked for again.
    resetField('password');
  };

  if (challenge)
    return (
      <AuthCard title={messages.twoFactor.title} subtitle={labels.secondStepSubtitle}>
        <SecondStepForm challenge={challenge} onSignedIn={signedIn} onBack={backToPassword} />
      </AuthCard>
    );

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
