import { useState } from 'react';
import { Alert, Button, Stack } from '@mui/material';
import { messages } from '@portal/shared';
import { useAuth } from '../lib/session/auth-context';
import { TestModeBadge } from '../components/test-mode-badge';
import { extractErrorMessage } from '../lib/error-message';

/** The signed-in user could not be read for want of an answer: what went wrong, and a retry. */
export function SessionUnreachable({ error }: { error: unknown }) {
  const { refetchUser } = useAuth();
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await refetchUser();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Stack component="main" sx={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <TestModeBadge fullScreen />
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={retry} loading={retrying}>
            {messages.common.retry}
          </Button>
        }
      >
        {extractErrorMessage(error, messages.common.unexpectedRetry)}
      </Alert>
    </Stack>
  );
}
