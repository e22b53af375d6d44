import { Alert, Grid, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { formatRupees, messages } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePermission } from '../../auth/use-permission';
import { useCredits } from '../api/get-credits';
import { ApiKeysCard } from '../components/api-keys-card';
import { BuyCreditsCard } from '../components/buy-credits-card';
import { LedgerTable } from '../components/ledger-table';
import { labels } from '../labels';

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long' });

/** A tenant admin's billing ({prefix}/billing): subscription, credit balance and history, buying, API keys. */
export function BillingPage() {
  const credits = useCredits();
  const canRead = usePermission('subscriptions', 'READ');
  const canBuy = usePermission('subscriptions', 'CREATE');
  const summary = credits.data;
  const sub = summary?.subscription ?? null;

  // Without Subscription Management READ every card would fail: say so once instead.
  if (!canRead) {
    return (
      <>
        <PageHeader title={labels.billingTitle} subtitle={labels.billingSubtitle} />
        <Alert severity="error">{messages.http.forbidden}</Alert>
      </>
    );
  }

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
                {summary.balance}
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
                  {sub.status} · {sub.billingCycle} · {sub.totalInterviewCredits}{' '}
                  {labels.credits.toLowerCase()}
                </Typography>
                <Typography>
                  {labels.validUntil}: <strong>{dateFormat.format(new Date(sub.validUntil))}</strong>
                </Typography>
                <Typography color="text.secondary">
                  {labels.total}: {formatRupees(sub.grandTotalAmountPaise)}
                </Typography>
              </Stack>
            )}
          </Paper>
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
