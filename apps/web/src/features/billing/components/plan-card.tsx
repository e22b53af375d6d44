import { useState } from 'react';
import {
  Alert,
  AlertTitle,
  Button,
  FormControlLabel,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import {
  basisPointsToPercent,
  formatCount,
  formatDate,
  formatRupees,
  messages,
  type BillingPlan,
  type OrderCreated,
  type Renewal,
} from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ErrorText } from '../../../components/error-text';
import { RowActionsMenu } from '../../../components/row-actions-menu';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePortalConfig } from '../../../lib/portal-config';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useAuth } from '../../../lib/session/auth-context';
import { useAuthorizeRazorpayMandate } from '../api/authorize-razorpay-mandate';
import { useCancelMandate } from '../api/cancel-mandate';
import { useCreateRenewalOrder } from '../api/create-renewal-order';
import { useBillingPlan } from '../api/get-billing-plan';
import { useSkipRenewal } from '../api/skip-renewal';
import { useUpdateBillingPlan } from '../api/update-billing-plan';
import { labels, planStatusLabels } from '../labels';
import { collectionText, ORDERABLE_STATUSES, renewalPeriod, SKIPPABLE_STATUSES } from '../utils/renewal';
import { ChangePlanDialog } from './change-plan-dialog';
import { MandateDialog } from './mandate-dialog';
import { TermList } from './term-list';
import { RenewalStatusChip } from './renewal-status-chip';
import { SubscriptionTimeline } from './subscription-timeline';
import { useCheckout } from './use-checkout';

/** How many of the organization's subscription events the card's History lists. */
const HISTORY_SIZE = 10;

/** What becomes of unused credits at a renewal: they never expire, or roll over up to the cap. */
function rolloverText(plan: Pick<BillingPlan, 'rolloverCap'>): string {
  if (plan.rolloverCap === null) return labels.neverExpire;
  if (plan.rolloverCap === 0) return labels.expireAtRenewal;
  return labels.rollOverUpTo(formatCount(plan.rolloverCap));
}

const COLUMNS: DataColumn<Renewal>[] = [
  { label: labels.renewalPeriod, card: 'title', render: renewalPeriod, cellSx: { whiteSpace: 'nowrap' } },
  { label: labels.amount, align: 'right', render: (r) => formatRupees(r.amountPaise) },
  { label: labels.status, render: (r) => <RenewalStatusChip status={r.status} /> },
  { label: labels.noticeSent, render: (r) => (r.noticeSentAt ? formatDate(r.noticeSentAt) : labels.none) },
  { label: labels.attempts, align: 'right', render: (r) => formatCount(r.attempts) },
  {
    label: labels.lastError,
    render: (r) => (r.lastError ? <ErrorText text={r.lastError} /> : labels.none),
    cellSx: { minWidth: 140, maxWidth: 240 },
  },
];

/** The plan's terms, label beside value (above it on a phone, where both would not fit side by side). */
function PlanTerms({ plan }: { plan: BillingPlan }) {
  const end = formatDate(plan.currentPeriodEnd);
  const rows: [string, string][] = [
    [labels.creditsPerMonth, formatCount(plan.creditsPerPeriod)],
    [labels.planPricePerCredit, formatRupees(plan.pricePerCreditPaise)],
    [labels.gst, `${basisPointsToPercent(plan.taxRateBp)}%`],
    [labels.amountPerMonth, formatRupees(plan.amountPaise)],
    [labels.unusedCredits, rolloverText(plan)],
    [labels.currentPeriod, `${formatDate(plan.currentPeriodStart)} – ${end}`],
    [labels.nextRenewal, plan.autoRenew ? end : labels.endsOn(end)],
    [labels.paidBy, collectionText(plan)],
    [labels.planStatus, planStatusLabels[plan.status]],
    ...(plan.owedPaise > 0 ? [[labels.owed, formatRupees(plan.owedPaise)] as [string, string]] : []),
  ];
  return <TermList rows={rows} />;
}

/** What is owed, while a renewal is unpaid past its period's start (the plan past due or suspended). */
function PlanOverdue({ plan }: { plan: BillingPlan }) {
  const owed = formatRupees(plan.owedPaise);
  if (plan.status === 'past_due') {
    return (
      <Alert severity="warning" sx={{ mb: 2 }}>
        <AlertTitle>{messages.renewals.pastDueTitle}</AlertTitle>
        {labels.pastDueBody(owed, plan.pastDueSince ? formatDate(plan.pastDueSince) : labels.none)}
      </Alert>
    );
  }
  if (plan.status === 'suspended') {
    return (
      <Alert severity="error" sx={{ mb: 2 }}>
        <AlertTitle>{messages.renewals.suspendedTitle}</AlertTitle>
        {labels.suspendedBody(owed)}
      </Alert>
    );
  }
  return null;
}

/**
 * The organization's monthly plan: its terms, automatic renewal, the card mandate (the sandbox's form
 * or Razorpay Checkout), changing the plan (an upgrade now, or from the next renewal), its latest renewals, each
 * skippable or payable online while it allows, and its history. `canManage` (Subscription Management
 * CREATE) shows the controls; a reader sees the same figures without them. `canSeeHistory` (Dashboard
 * READ, which the activity feed needs) shows the history.
 */
export function PlanCard({ canManage, canSeeHistory }: { canManage: boolean; canSeeHistory: boolean }) {
  const view = useBillingPlan();
  const config = usePortalConfig();
  const update = useUpdateBillingPlan();
  const skip = useSkipRenewal();
  const createOrder = useCreateRenewalOrder();
  const checkout = useCheckout();
  const cancelMandate = useCancelMandate();
  const razorpayMandate = useAuthorizeRazorpayMandate();
  const { user } = useAuth();
  const [mandateOpen, setMandateOpen] = useState(false);
  const [cancellingMandate, setCancellingMandate] = useState(false);
  const [toSkip, setToSkip] = useState<Renewal | null>(null);
  const [changing, setChanging] = useState(false);

  const plan = view.data?.plan ?? null;
  const provider = config.data?.paymentProvider;
  const mandateReady = plan?.collection === 'mandate' && plan.mandateStatus === 'authorized';
  // Razorpay makes its customer from the admin's email and mobile number.
  const needsMobile = !user?.mobileNo;
  const paying = createOrder.isPending || checkout.verifying;

  const setAutoRenew = async (autoRenew: boolean) => {
    try {
      await update.mutateAsync({ autoRenew });
      enqueueSnackbar(autoRenew ? messages.renewals.autoRenewOn : messages.renewals.autoRenewOff, {
        variant: 'success',
      });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.unexpectedRetry), { variant: 'error' });
    }
  };

  const authorizeRazorpayMandate = async () => {
    try {
      if (await razorpayMandate.mutateAsync()) {
        enqueueSnackbar(messages.renewals.mandateAuthorized, { variant: 'success' });
      }
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.unexpectedRetry), { variant: 'error' });
    }
  };

  const confirmCancelMandate = async () => {
    try {
      await cancelMandate.mutateAsync();
      enqueueSnackbar(messages.renewals.mandateCancelled, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.unexpectedRetry), { variant: 'error' });
    }
    setCancellingMandate(false);
  };

  const confirmSkip = async () => {
    if (!toSkip) return;
    try {
      await skip.mutateAsync(toSkip.id);
      enqueueSnackbar(messages.renewals.skipped, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.unexpectedRetry), { variant: 'error' });
    }
    setToSkip(null);
  };

  const payNow = async (renewal: Renewal) => {
    if (paying) return;
    let created;
    try {
      created = await createOrder.mutateAsync(renewal.id);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.createPaymentOrder), { variant: 'error' });
      return;
    }
    await checkout.pay(created);
  };

  /** An upgrade's order, its amount seen: the usual checkout, then the plan has the new credits. */
  const payUpgrade = (created: OrderCreated, credits: number) => {
    setChanging(false);
    void checkout.pay(created, () =>
      enqueueSnackbar(labels.planUpgraded(formatCount(credits)), { variant: 'success' }),
    );
  };

  // While the change is on its way, the switch shows what was asked.
  const autoRenew = update.isPending ? update.variables.autoRenew : (plan?.autoRenew ?? false);

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {labels.planTitle}
      </Typography>
      {view.isError && (
        <Alert severity="error">{extractErrorMessage(view.error, messages.common.anErrorOccurred)}</Alert>
      )}
      {view.isPending && <Skeleton height={120} />}
      {view.data && !plan && <Typography>{messages.renewals.planNotFound}</Typography>}
      {plan && (
        <>
          <PlanOverdue plan={plan} />
          <PlanTerms plan={plan} />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ mt: 2, alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
          >
            {canManage ? (
              <FormControlLabel
                control={
                  <Switch
                    checked={autoRenew}
                    onChange={(_event, checked) => void setAutoRenew(checked)}
                    disabled={update.isPending}
                  />
                }
                label={labels.autoRenew}
              />
            ) : (
              <Typography data-testid="auto-renew">
                {labels.autoRenew}: <strong>{plan.autoRenew ? labels.on : labels.off}</strong>
              </Typography>
            )}
            {canManage && (
              <Button variant="outlined" onClick={() => setChanging(true)} disabled={paying}>
                {labels.changePlan}
              </Button>
            )}
            {provider === 'sandbox' && canManage && (
              <Button variant="outlined" onClick={() => setMandateOpen(true)}>
                {mandateReady ? labels.replaceMandate : labels.setUpMandate}
              </Button>
            )}
            {mandateReady && canManage && (
              <Button color="error" onClick={() => setCancellingMandate(true)}>
                {labels.cancelMandate}
              </Button>
            )}
            {provider === 'razorpay' && canManage && (
              <Button
                variant="outlined"
                onClick={() => void authorizeRazorpayMandate()}
                disabled={razorpayMandate.isPending || needsMobile}
              >
                {mandateReady ? labels.replaceMandate : labels.setUpMandate}
              </Button>
            )}
            {provider === 'razorpay' && canManage && needsMobile && (
              <Typography color="text.secondary" variant="body2">
                {messages.renewals.mandateNeedsMobile}
              </Typography>
            )}
          </Stack>
          <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
            {labels.latestRenewals}
          </Typography>
          <DataTable
            label={labels.latestRenewals}
            size="small"
            columns={COLUMNS}
            rows={view.data?.renewals ?? []}
            rowKey={(r) => r.id}
            loading={false}
            emptyText={labels.noRenewals}
            actions={
              canManage
                ? {
                    label: labels.actions,
                    labelHidden: true,
                    align: 'right',
                    render: (r) => (
                      <RowActionsMenu
                        label={labels.renewalActionsFor(renewalPeriod(r))}
                        actions={[
                          SKIPPABLE_STATUSES.includes(r.status) && {
                            label: labels.skipDebit,
                            run: () => setToSkip(r),
                          },
                          ORDERABLE_STATUSES.includes(r.status) && {
                            label: labels.payNow,
                            run: () => void payNow(r),
                          },
                        ]}
                      />
                    ),
                  }
                : undefined
            }
          />
          {canSeeHistory && (
            <>
              <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
                {labels.history}
              </Typography>
              <SubscriptionTimeline
                organizationId={plan.organizationId}
                pageSize={HISTORY_SIZE}
                label={labels.history}
              />
            </>
          )}
          {mandateOpen && <MandateDialog plan={plan} onClose={() => setMandateOpen(false)} />}
          {changing && <ChangePlanDialog plan={plan} onClose={() => setChanging(false)} onPay={payUpgrade} />}
        </>
      )}
      {cancellingMandate && (
        <ConfirmDialog
          open
          title={labels.cancelMandateTitle}
          message={labels.cancelMandateMessage}
          confirmLabel={labels.cancelMandate}
          onConfirm={confirmCancelMandate}
          onClose={() => setCancellingMandate(false)}
          busy={cancelMandate.isPending}
          destructive
        />
      )}
      {toSkip && (
        <ConfirmDialog
          open
          title={labels.skipTitle}
          message={labels.skipMessage(formatRupees(toSkip.amountPaise), renewalPeriod(toSkip))}
          confirmLabel={labels.skipDebit}
          onConfirm={confirmSkip}
          onClose={() => setToSkip(null)}
          busy={skip.isPending}
        />
      )}
      {checkout.dialog}
    </Paper>
  );
}
