import { Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { messages } from '@portal/shared';
import { TestModeBadge } from '../components/test-mode-badge';

/** Shown after 30 s of loading. Loaded lazily: it is rarely needed at start. */
export function NotFoundView() {
  return (
    <>
      <TestModeBadge fullScreen />
      <Stack
        spacing={3}
        sx={{ minHeight: '100vh', p: 3, textAlign: 'center', alignItems: 'center', justifyContent: 'center' }}
      >
        <Typography variant="h5" component="h1">
          {messages.common.notFound}
        </Typography>
        <Stack direction="row" spacing={2}>
          <Button variant="contained" component={RouterLink} to="/dashboard">
            {messages.common.backToDashboard}
          </Button>
          <Button variant="outlined" component={RouterLink} to="/dashboard/support">
            {messages.common.contactSupport}
          </Button>
        </Stack>
      </Stack>
    </>
  );
}
