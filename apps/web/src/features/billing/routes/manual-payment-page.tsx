import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Grid,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { formatCount, formatRupees, messages, REDIRECT_AFTER_SAVE_MS } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useOnboard } from '../api/onboard';
import { PaymentMethodAndDate } from '../components/payment-method-and-date';
import { labels, trialLabel } from '../labels';
import {
  clearHandoff,
  readPendingUser,
  readSubscriptionData,
  type PendingUser,
  type SubscriptionData,
} from '../utils/handoff';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';
import {
  defaultManualPayment,
  manualPaymentFormSchema,
  manualPaymentFromForm,
  type ManualPaymentFormValues,
} from '../utils/manual-payment-form';

const SUBSCRIPTION_PAGE = '/dashboard/usermanagement/subscription';
const USER_MANAGEMENT = '/dashboard/usermanagement';

type Loaded =
  { status: 'ok'; user: PendingUser; subscription: SubscriptionData } | { status: 'missing' | 'invalid' };

function load(): Loaded {
  const subscription = readSubscriptionData();
  if (subscription.status !== 'ok') return { status: subscription.status };
  const user = readPendingUser();
  if (user.status !== 'ok') return { status: user.status };
  return { status: 'ok', user: user.data, subscription: subscription.data };
}

/**
 * Manual Payment Processing ({prefix}/manualPayment): records the payment received outside the
 * portal and creates the user, subscription and payment record in one server transaction.
 */
export function ManualPaymentPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const onboard = useOnboard();
  const idempotency = useIdempotencyKey();
  const [loaded] = useState(load);

  useEffect(() => {
    if (loaded.status === 'missing') {
      enqueueSnackbar(messages.payment.noData, { variant: 'error' });
      const timer = setTimeout(() => navigate(`${prefix}/subscription`), REDIRECT_AFTER_SAVE_MS);
      return () => clearTimeout(timer);
    }
    if (loaded.status === 'invalid') enqueueSnackbar(messages.payment.loadError, { variant: 'error' });
    return undefined;
  }, [loaded.status, navigate, prefix]);

  const { control, register, handleSubmit, formState } = useForm<ManualPaymentFormValues>({
    resolver: zodResolver(manualPaymentFormSchema),
    defaultValues: defaultManualPayment(),
  });

  const submit = handleSubmit(async (form) => {
    if (loaded.status !== 'ok') {
      enqueueSnackbar(messages.payment.missingData, { variant: 'error' });
      return;
    }
    const { user, subscription } = loaded;
    const body = {
      user: {
        username: user.username,
        email: user.email,
        mobileNo: user.mobileNo,
        client: user.client,
        organizationId: subscription.organizationId,
        roleId: user.roleId,
      },
      subscription: subscription.terms,
      payment: manualPaymentFromForm(form),
      autoRenew: subscription.autoRenew,
    };
    try {
      await onboard.mutateAsync({ body, idempotencyKey: idempotency.keyFor(body) });
      idempotency.settle();
      enqueueSnackbar(messages.payment.created, { variant: 'success' });
      clearHandoff();
      setTimeout(() => navigate(USER_MANAGEMENT), REDIRECT_AFTER_SAVE_MS);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.payment.failed), { variant: 'error' });
    }
  });

  const busy = onboard.isPending || onboard.isSuccess;
  const rows: [string, string][] =
    loaded.status === 'ok'
      ? [
          [labels.credits, formatCount(loaded.subscription.terms.totalInterviewCredits)],
          [labels.pricePerCredit, formatRupees(loaded.subscription.terms.interviewCreditsPricePaise)],
          [labels.gstPercent, `${loaded.subscription.gstPercent}%`],
          [labels.amount, formatRupees(loaded.subscription.terms.totalAmountPaise)],
          [labels.gstAmount, formatRupees(loaded.subscription.terms.taxAmountPaise ?? 0)],
          [labels.total, formatRupees(loaded.subscription.terms.grandTotalAmountPaise)],
          [labels.demoCredits, trialLabel(loaded.subscription.terms.demoTrials)],
          [labels.renewsAutomatically, loaded.subscription.autoRenew ? labels.yes : labels.no],
        ]
      : [];
  const userRows: [string, string][] =
    loaded.status === 'ok'
      ? [
          [labels.username, loaded.user.username],
          [labels.email, loaded.user.email],
          [labels.mobileNumber, loaded.user.mobileNo],
          [labels.companyName, loaded.user.client],
        ]
      : [];

  return (
    <>
      <PageHeader
        title={messages.subscription.manualPaymentTitle}
        backTo={SUBSCRIPTION_PAGE}
        backLabel={labels.back}
      />
      {loaded.status !== 'ok' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {loaded.status === 'missing' ? messages.payment.noData : messages.payment.loadError}
        </Alert>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper sx={{ p: 3, height: '100%' }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {labels.paymentCalculation}
            </Typography>
            <SummaryTable rows={rows} label={labels.paymentCalculation} />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper sx={{ p: 3, height: '100%' }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {labels.userInformation}
            </Typography>
            <SummaryTable rows={userRows} label={labels.userInformation} />
          </Paper>
        </Grid>
        <Grid size={12}>
          <Paper component="form" noValidate onSubmit={submit} sx={{ p: 3 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              {labels.paymentDetails}
            </Typography>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  {...register('transactionId')}
                  label={labels.transactionId}
                  required
                  fullWidth
                  error={!!formState.errors.transactionId}
                  helperText={formState.errors.transactionId?.message}
                />
              </Grid>
              <PaymentMethodAndDate control={control} errors={formState.errors} columns={3} />
              <Grid size={12}>
                <TextField {...register('remarks')} label={labels.remarks} fullWidth multiline minRows={2} />
              </Grid>
            </Grid>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
              <Button type="submit" variant="contained" size="large" disabled={busy}>
                {onboard.isPending ? messages.users.creating : messages.payment.submit}
              </Button>
              <Button
                variant="outlined"
                size="large"
                onClick={() => navigate(USER_MANAGEMENT)}
                disabled={onboard.isPending}
              >
                {labels.cancel}
              </Button>
            </Stack>
          </Paper>
        </Grid>
      </Grid>
    </>
  );
}

function SummaryTable({ rows, label }: { rows: [string, string][]; label: string }) {
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map(([name, value]) => (
          <TableRow key={name}>
            <TableCell component="th" scope="row" sx={{ color: 'text.secondary' }}>
              {name}
            </TableCell>
            {/* `anywhere` lets a long email break inside the cell on a phone instead of widening the page. */}
            <TableCell align="right" sx={{ overflowWrap: 'anywhere' }}>
              {value}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
