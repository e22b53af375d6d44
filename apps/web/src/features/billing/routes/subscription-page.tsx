import { useEffect, useId, useMemo, useState, type FocusEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FormControlLabel,
  FormHelperText,
  Grid,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  DEMO_TRIAL_OPTIONS,
  messages,
  parseGstPercent,
  REDIRECT_AFTER_SAVE_MS,
  subscriptionTitle,
} from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useOnboard } from '../api/onboard';
import { AmountsFields } from '../components/amounts-fields';
import { labels, trialLabel } from '../labels';
import { clearHandoff, readPendingUser, writeSubscriptionData, type PendingUser } from '../utils/handoff';
import {
  defaultSubscriptionForm,
  liveAmounts,
  subscriptionFormSchema,
  termsFromForm,
  type SubscriptionFormValues,
} from '../utils/subscription-form';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';

/**
 * Subscription Configuration ({prefix}/subscription?organizationId=, alias
 * /dashboard/usermanagement/subscription): the super administrator sets the new admin's monthly
 * credits, then either creates everything at once or goes on to record a manual payment.
 */
export function SubscriptionPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const onboard = useOnboard();
  const idempotency = useIdempotencyKey();
  const [pending] = useState(() => readPendingUser());
  const user: PendingUser | null = pending.status === 'ok' ? pending.data : null;
  const organizationId = params.get('organizationId') || user?.organizationId || '';

  useEffect(() => {
    if (pending.status === 'missing') {
      enqueueSnackbar(messages.subscription.noUserData, { variant: 'error' });
      const timer = setTimeout(() => navigate(`${prefix}/inviteuser`), REDIRECT_AFTER_SAVE_MS);
      return () => clearTimeout(timer);
    }
    if (pending.status === 'invalid') {
      enqueueSnackbar(messages.subscription.loadUserError, { variant: 'error' });
    }
    return undefined;
  }, [pending.status, navigate, prefix]);

  const { control, register, handleSubmit, setValue, formState } = useForm<SubscriptionFormValues>({
    resolver: zodResolver(subscriptionFormSchema),
    defaultValues: defaultSubscriptionForm,
    mode: 'onTouched',
  });
  const values = useWatch({ control });
  const autoRenewHintId = useId();
  const amounts = useMemo(() => liveAmounts(values), [values]);

  const requireUser = (): PendingUser | null => {
    if (!user || !organizationId) {
      enqueueSnackbar(messages.subscription.missingData, { variant: 'error' });
      return null;
    }
    return user;
  };

  const createUserAndSubscription = handleSubmit(async (form) => {
    const u = requireUser();
    if (!u) return;
    const body = {
      user: {
        username: u.username,
        email: u.email,
        mobileNo: u.mobileNo,
        client: u.client,
        organizationId,
        roleId: u.roleId,
      },
      subscription: termsFromForm(form),
      autoRenew: form.autoRenew,
    };
    try {
      await onboard.mutateAsync({ body, idempotencyKey: idempotency.keyFor(body) });
      idempotency.settle();
      enqueueSnackbar(messages.subscription.created, { variant: 'success' });
      clearHandoff();
      setTimeout(() => navigate(`${prefix}/usermanagement`), REDIRECT_AFTER_SAVE_MS);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.subscription.createFailed), { variant: 'error' });
    }
  });

  const goToManualPayment = handleSubmit((form) => {
    if (!requireUser()) return;
    writeSubscriptionData({
      organizationId,
      terms: termsFromForm(form),
      pricePerCredit: Number(form.pricePerCredit),
      gstPercent: parseGstPercent(form.gstPercent),
      autoRenew: form.autoRenew,
    });
    navigate(`${prefix}/manualPayment`);
  });

  const title = user
    ? subscriptionTitle(user.username, user.email)
    : messages.subscription.titlePrefix.trim();
  const busy = onboard.isPending || onboard.isSuccess;

  return (
    <>
      <PageHeader title={title} backTo={`${prefix}/usermanagement/invite`} backLabel={labels.backToInvite} />
      {pending.status !== 'ok' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {pending.status === 'missing'
            ? messages.subscription.noUserData
            : messages.subscription.loadUserError}
        </Alert>
      )}
      <Paper component="form" noValidate onSubmit={createUserAndSubscription} sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {labels.subscriptionDetails}
        </Typography>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...register('credits')}
              label={labels.credits}
              type="number"
              required
              fullWidth
              slotProps={{ htmlInput: { min: 1, step: 1 } }}
              error={!!formState.errors.credits}
              helperText={formState.errors.credits?.message}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...register('pricePerCredit')}
              label={labels.pricePerCredit}
              type="number"
              required
              fullWidth
              slotProps={{ htmlInput: { min: 1, step: 0.01 } }}
              error={!!formState.errors.pricePerCredit}
              helperText={formState.errors.pricePerCredit?.message}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...register('gstPercent', {
                // Invalid input becomes 0 when the field is left.
                onBlur: (e: FocusEvent<HTMLInputElement>) =>
                  setValue('gstPercent', String(parseGstPercent(e.target.value))),
              })}
              label={labels.gstPercent}
              type="number"
              fullWidth
              slotProps={{ htmlInput: { min: 0, max: 100, step: 0.01 } }}
            />
          </Grid>
          <AmountsFields amounts={amounts} />
          <Grid size={{ xs: 12, sm: 4 }}>
            <Controller
              control={control}
              name="demoTrials"
              render={({ field }) => (
                <TextField {...field} select label={labels.demoCredits} fullWidth>
                  {DEMO_TRIAL_OPTIONS.map((n) => (
                    <MenuItem key={n} value={String(n)}>
                      {trialLabel(n)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Grid>
          <Grid size={12}>
            <Controller
              control={control}
              name="autoRenew"
              render={({ field }) => (
                <>
                  <FormControlLabel
                    control={
                      <Checkbox
                        name={field.name}
                        checked={field.value}
                        onChange={(_event, checked) => field.onChange(checked)}
                        onBlur={field.onBlur}
                        slotProps={{ input: { ref: field.ref, 'aria-describedby': autoRenewHintId } }}
                      />
                    }
                    label={labels.autoRenewField}
                  />
                  <FormHelperText id={autoRenewHintId} sx={{ mt: 0 }}>
                    {labels.autoRenewFieldHint}
                  </FormHelperText>
                </>
              )}
            />
          </Grid>
        </Grid>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {onboard.isPending ? messages.users.creating : messages.subscription.createUserAndSubscription}
          </Button>
          <Button variant="outlined" size="large" onClick={goToManualPayment} disabled={busy}>
            {messages.subscription.manualPayment}
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
