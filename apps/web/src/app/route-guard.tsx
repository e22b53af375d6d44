import { Alert, Box, Button, Typography } from '@mui/material';
import { Outlet, Link as RouterLink, useLocation, useMatches } from 'react-router';
import { messages } from '@portal/shared';
import { usePermissions } from '../features/auth/use-permission';
import { allows, type PageAccess } from '../lib/page-access';
import { useRoutePrefix } from './use-route-prefix';

/**
 * The page the address names, when the signed-in user may use it (its route's `handle.access`);
 * otherwise the server's own refusal, said before the page offers anything that would meet it.
 */
export function PermittedOutlet() {
  const matches = useMatches();
  const location = useLocation();
  const { holder } = usePermissions();
  const access = matches
    .map((match) => (match.handle as { access?: PageAccess } | undefined)?.access)
    .findLast((declared) => declared !== undefined);
  if (allows(access, holder, location)) return <Outlet />;
  return <Refusal />;
}

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
