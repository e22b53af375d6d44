import type { ComponentType } from 'react';
import { Box, List, ListItem, ListItemButton, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { Link, useSearchParams } from 'react-router';
import { messages, REQUIREMENTS } from '@portal/shared';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { PageHeader } from '../../../components/page-header';
import { usePermissions } from '../../../lib/session/use-permission';
import { ActiveSessionsSection } from '../components/active-sessions-section';
import { ChangePasswordForm } from '../components/change-password-form';
import { TaxProfileForm } from '../components/tax-profile-form';
import { TwoFactorSection } from '../components/two-factor-section';
import { labels } from '../labels';

type Section = 'password' | 'two-factor' | 'sessions' | 'tax';

const SECTION_VIEWS: Record<Section, ComponentType> = {
  password: ChangePasswordForm,
  'two-factor': TwoFactorSection,
  sessions: ActiveSessionsSection,
  tax: TaxProfileForm,
};

/**
 * {prefix}/settings: a sidebar of sections and the chosen one: change password, two-factor sign-in
 * (`?section=two-factor`) and active sessions (`?section=sessions`) for everyone, and the seller's tax
 * details (`?section=tax`) for the platform operator (REQUIREMENTS.manageTaxProfile).
 */
export function SettingsPage() {
  const prefix = useRoutePrefix();
  const canManageTax = usePermissions().meets(REQUIREMENTS.manageTaxProfile);
  const [searchParams] = useSearchParams();
  const sections: { value: Section; title: string; search: string }[] = [
    { value: 'password', title: messages.password.changePassword, search: '' },
    { value: 'two-factor', title: messages.twoFactor.title, search: '?section=two-factor' },
    { value: 'sessions', title: messages.sessions.title, search: '?section=sessions' },
    ...(canManageTax ? [{ value: 'tax' as const, title: labels.taxDetails, search: '?section=tax' }] : []),
  ];
  const current = sections.find((s) => s.value === searchParams.get('section')) ?? sections[0]!;
  const View = SECTION_VIEWS[current.value];
  return (
    <Box>
      <PageHeader title={messages.shell.settings} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0 }}>
          <nav aria-label={messages.shell.settings}>
            <List disablePadding>
              {sections.map((section) => (
                <ListItem disablePadding key={section.value}>
                  <ListItemButton
                    component={Link}
                    to={`${prefix}/settings${section.search}`}
                    selected={section === current}
                    aria-current={section === current ? 'page' : undefined}
                  >
                    <ListItemText primary={section.title} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </nav>
        </Paper>
        <Paper variant="outlined" sx={{ p: 3, flexGrow: 1, width: '100%', minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            {current.title}
          </Typography>
          <View />
        </Paper>
      </Stack>
    </Box>
  );
}
