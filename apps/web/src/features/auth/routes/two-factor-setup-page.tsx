import { useState } from 'react';
import { Button, Divider, Stack } from '@mui/material';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { messages } from '@portal/shared';
import { useAuth } from '../../../lib/session/auth-context';
import { AuthCard } from '../components/auth-card';
import { TwoFactorEnrolment } from '../../../components/two-factor/two-factor-enrolment';
import { labels } from '../../../components/two-factor/labels';
import { returnPathAfterSignIn } from '../../../lib/session/return-path';
import { mustSetUpTwoFactor } from '../../../lib/session/two-factor-gate';

/**
 * /auth/two-factor-setup: where every page leads a user whose role requires two-factor sign-in until
 * they set it up. Full screen, outside the shell, whose calls the server refuses until then. Once set
 * up it goes on to the page that led here (the guard passes it in the navigation state, which the
 * browser keeps across a reload), checked as a sign-in's return path is.
 */
export function TwoFactorSetupPage() {
  const { user, logout, refetchUser } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const next = returnPathAfterSignIn(location.state);
  // Set up just now: the recovery codes stay on screen until the user goes on.
  const [enabled, setEnabled] = useState(false);

  if (!enabled && !mustSetUpTwoFactor(user)) return <Navigate to={next} replace />;

  const goOn = async () => {
    await refetchUser();
    navigate(next, { replace: true });
  };
  const signOut = async () => {
    await logout();
    navigate('/auth/login', { replace: true });
  };

  return (
    <AuthCard title={messages.twoFactor.title} subtitle={messages.twoFactor.enrolmentRequired}>
      <Stack spacing={3}>
        <TwoFactorEnrolment
          finishLabel={labels.continue}
          onEnabled={() => setEnabled(true)}
          onFinished={() => void goOn()}
        />
        <Divider />
        <Button onClick={() => void signOut()} sx={{ alignSelf: 'center' }}>
          {labels.signOut}
        </Button>
      </Stack>
    </AuthCard>
  );
}
