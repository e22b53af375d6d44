import { useId } from 'react';
import { Alert, Divider, Grid, Paper, Skeleton, Stack, Typography } from '@mui/material';
import {
  formatCount,
  formatDate,
  formatRupees,
  messages,
  subscriptionStateLabel,
  type Subscription,
} from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePermissions } from '../../../lib/session/use-permission';
import { useCredits } from '../api/get-credits';
import { ApiKeysCard } from '../components/api-keys-card';
import { BuyCreditsCard } from '../components/buy-credits-card';
import { LedgerTable } from '../components/ledger-table';
import { PlanCard } from '../components/plan-card';
import { labels } from '../labels';

/** `1 Nov 2026 – 1 Dec 2026` */
function period(sub: Subscription): string {
  return `${formatDate(sub.validFrom)} – ${formatDate(sub.validUntil)}`;
}

function creditsText(credits: number): string {
  return `${formatCount(credits)} ${labels.credits.toLowerCase()}`;
}

/**
 * A tenant admin's billing ({prefix}/billing): subscription, credit balance, the monthly plan and its
 * renewals, buying credits, credit history, API keys.
 */
export function BillingPage() {
  const credits = useCredits();
  const permissions = usePermissions();
  const canBuy = permissions.can('subscriptions', 'CREATE');
  const summary = credits.data;
  const sub = summary?.subscription ?? null;
  const upcoming = summary?.upcoming ?? [];
  const upcomingId = useId();

  return (
    <>
      <PageHeader title={labels.billingTitle} subtitle={labels.billingSubtitle} />
      {credits.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {extractErrorMessage(credits.error, messages.common.anErrorOccurred)}
        </Alert>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Paper sx={{ p: 3, height: '100%' }}>
            <Typography color="text.secondary">{labels.creditBalance}</Typography>
            {summary ? (
              <Typography
                variant="h3"
                component="p"
                aria-label={labels.creditBalance}
                data-testid="credit-balance"
              >
                {formatCount(summary.balance)}
              </Typography>
            ) : (
              <Skeleton width={80} height={56} />
            )}
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Paper sx={{ p: 3, height: '100%' }}>
            <Typography color="text.secondary">{labels.currentSubscription}</Typography>
            {summary && !sub && (
              <Typography variant="h6" component="p">
                {labels.noSubscription}
              </Typography>
            )}
            {sub && (
              <Stack spacing={0.5}>
                <Typography variant="h6" component="p">
                  {subscriptionStateLabel(sub.status, sub.billingCycle)} ·{' '}
                  {creditsText(sub.totalInterviewCredits)}
                </Typography>
                <Typography data-testid="current-period">
                  {labels.period}: <strong>{period(sub)}</strong>
                </Typography>
                <Typography color="text.secondary">
                  {labels.total}: {formatRupees(sub.grandTotalAmountPaise)}
                </Typography>
              </Stack>
            )}
            {upcoming.length > 0 && (
              <>
                <Divider sx={{ my: 1.5 }} />
                <Typography color="text.secondary" id={upcomingId}>
                  {labels.upcoming}
                </Typography>
                <Stack
                  component="ul"
                  aria-labelledby={upcomingId}
                  spacing={0.5}
                  sx={{ m: 0, pl: 0, listStyle: 'none' }}
                >
                  {upcoming.map((next) => (
                    <Typography component="li" key={next.id}>
                      <strong>{period(next)}</strong> · {creditsText(next.totalInterviewCredits)} ·{' '}
                      {formatRupees(next.grandTotalAmountPaise)}
                    </Typography>
                  ))}
                </Stack>
              </>
            )}
          </Paper>
        </Grid>
        <Grid size={12}>
          <PlanCard canManage={canBuy} canSeeHistory={permissions.can('dashboard', 'READ')} />
        </Grid>
        {canBuy && (
          <Grid size={12}>
            <BuyCreditsCard />
          </Grid>
        )}
        <Grid size={12}>
          <LedgerTable />
        </Grid>
        <Grid size={12}>
          <ApiKeysCard canManage={canBuy} />
        </Grid>
      </Grid>
    </>
  );
}
