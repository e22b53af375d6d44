import { Alert, Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { messages } from '@portal/shared';
import { useRoutePrefix } from '../lib/use-route-prefix';

/** The server's refusal, with the way back: for a page, or a record on it, the user may not use. */
export function Refusal() {
  const prefix = useRoutePrefix();
  return (
    <Box>
      <Alert
        severity="warning"
        action={
          <Button component={RouterLink} to={prefix} color="inherit" size="small">
            {messages.common.backToDashboard}
          </Button>
        }
      >
        {/* The refusal is this page's heading, as a page's title is elsewhere. */}
        <Typography component="h1" variant="body2">
          {messages.http.forbidden}
        </Typography>
      </Alert>
    </Box>
  );
}
