import { Box, List, ListItem, ListItemButton, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { NavLink } from 'react-router';
import { messages } from '@portal/shared';
import { useRoutePrefix } from '../../../app/use-route-prefix';
import { PageHeader } from '../../../components/page-header';
import { ChangePasswordForm } from '../components/change-password-form';

/** {prefix}/settings: a sidebar with one item and the change-password form. */
export function SettingsPage() {
  const prefix = useRoutePrefix();
  return (
    <Box>
      <PageHeader title={messages.shell.settings} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0 }}>
          <nav aria-label={messages.shell.settings}>
            <List disablePadding>
              <ListItem disablePadding>
                <ListItemButton component={NavLink} to={`${prefix}/settings`} selected>
                  <ListItemText primary={messages.password.changePassword} />
                </ListItemButton>
              </ListItem>
            </List>
          </nav>
        </Paper>
        <Paper variant="outlined" sx={{ p: 3, flexGrow: 1, width: '100%' }}>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            {messages.password.changePassword}
          </Typography>
          <ChangePasswordForm />
        </Paper>
      </Stack>
    </Box>
  );
}
