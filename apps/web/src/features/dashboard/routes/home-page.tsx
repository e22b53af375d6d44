import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { messages, welcomeBack } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { extractErrorMessage } from '../../../lib/error-message';
import { useAuth } from '../../../lib/session/auth-context';
import { usePermissions } from '../../../lib/session/use-permission';
import { useDashboard } from '../api/get-dashboard';
import { MonthBarChart } from '../components/month-bar-chart';
import { RecentActivity } from '../components/recent-activity';
import { StatCards } from '../components/stat-cards';

/** {prefix} index: welcome message, stat cards, a 12-month chart and recent activity. */
export function HomePage() {
  const { user } = useAuth();
  const prefix = useRoutePrefix();
  // Everyone has a home; its figures need Dashboard READ.
  const canRead = usePermissions().can('dashboard', 'READ');
  const dashboard = useDashboard({ enabled: canRead });
  const fallbackWelcome = welcomeBack(user?.fullName || user?.username || '');

  if (!canRead) {
    return (
      <Box>
        <PageHeader title={fallbackWelcome} />
      </Box>
    );
  }

  const data = dashboard.data;
  return (
    <Box>
      <PageHeader title={data?.welcomeMessage ?? fallbackWelcome} />
      {dashboard.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {extractErrorMessage(dashboard.error, messages.dashboard.loadFailed)}
        </Alert>
      )}
      {dashboard.isPending ? (
        <Box sx={{ p: 4, textAlign: 'center' }}>
          <CircularProgress aria-label={messages.common.loading} />
          <Typography sx={{ mt: 1 }} color="text.secondary">
            {messages.common.loading}
          </Typography>
        </Box>
      ) : (
        data && (
          <Stack spacing={3}>
            <StatCards stats={data.stats} />
            <MonthBarChart series={data.series} />
            <RecentActivity items={data.recentActivity} allLink={`${prefix}/activity`} />
          </Stack>
        )
      )}
    </Box>
  );
}
