import { Box, Stack, Typography } from '@mui/material';
import { messages } from '@portal/shared';
import { TestModeBadge } from '../components/test-mode-badge';

/**
 * What a page that failed to load or render shows, instead of React Router's developer screen. The
 * usual cause is a page's code that no longer exists (the portal was updated while this tab stayed
 * open) or did not arrive; a reload fetches the current code. Built from what the first page already
 * loads, since loading more code may be what failed.
 */
export function RouteErrorView() {
  return (
    <main>
      <TestModeBadge fullScreen />
      <Stack
        spacing={2}
        sx={{ minHeight: '100vh', p: 3, textAlign: 'center', alignItems: 'center', justifyContent: 'center' }}
      >
        <Typography role="alert">{messages.common.unexpectedRetry}</Typography>
        <Box
          component="button"
          type="button"
          onClick={() => window.location.reload()}
          sx={{
            font: 'inherit',
            px: 2,
            py: 1,
            border: 0,
            borderRadius: 1,
            cursor: 'pointer',
            color: 'primary.contrastText',
            bgcolor: 'primary.main',
            '&:hover': { bgcolor: 'primary.dark' },
          }}
        >
          {messages.common.reload}
        </Box>
      </Stack>
    </main>
  );
}
