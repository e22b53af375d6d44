import type { ReactNode } from 'react';
import { Alert, Box, CircularProgress, Paper, Typography } from '@mui/material';
import { messages, storageKeys } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { useAuth } from '../../../lib/session/auth-context';
import { usePermissions } from '../../../lib/session/use-permission';
import { useProfile } from '../api/get-profile';
import { CompanyDetailsSection } from '../components/company-details-section';
import { UserInformationSection } from '../components/user-information-section';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 3, mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** {prefix}/profile, 'My Profile': user information and company details. */
export function ProfilePage() {
  const { user } = useAuth();
  const { can } = usePermissions();
  const userId = user?.id ?? localStorage.getItem(storageKeys.userId);
  const profile = useProfile();

  let body: ReactNode;
  if (!userId) body = <Alert severity="error">{messages.profile.userIdMissing}</Alert>;
  else if (profile.isPending)
    body = (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={messages.common.loading} />
      </Box>
    );
  else if (profile.isError)
    body = (
      <Alert severity="error">
        {profile.error.message === messages.common.apiBadShape
          ? messages.fallback.loadProfileNoData
          : messages.fallback.loadProfile}
      </Alert>
    );
  else
    body = (
      <>
        <Section title={messages.profile.userInformation}>
          <UserInformationSection profile={profile.data} />
        </Section>
        {can('organizations', 'READ') && (
          <Section title={messages.profile.companyDetails}>
            <CompanyDetailsSection profile={profile.data} canEdit={can('organizations', 'UPDATE')} />
          </Section>
        )}
      </>
    );

  return (
    <Box>
      <PageHeader title={messages.shell.myProfile} />
      {body}
    </Box>
  );
}
