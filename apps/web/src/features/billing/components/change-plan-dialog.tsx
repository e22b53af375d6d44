import { useId, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  computeAmounts,
  formatCount,
  formatDate,
  formatRupees,
  MAX_CREDITS,
  messages,
  type BillingPlan,
  type OrderCreated,
} from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { TermList } from './term-list';
import { useChangePlanTerms } from '../api/change-plan-terms';
import { useUpgradePlan } from '../api/upgrade-plan';
import { labels } from '../labels';
import { changePlanFormSchema, type ChangePlanFormValues } from '../utils/plan-terms-form';

/** The plan's amount a month at `credits`, GST included; null while the credits are not a valid number. */
function monthlyAmount(plan: BillingPlan, credits: number): number | null {
  if (!Number.isInteger(credits) || credits < 1 || credits > MAX_CREDITS) return null;
  return computeAmounts({
    credits,
    pricePerCreditPaise: plan.pricePerCreditPaise,
    taxRateBp: plan.taxRateBp,
  }).grandTotalPaise;
}

/** An upgrade's order, created: what it charges, shown before the checkout opens. */
interface Quote {
  created: OrderCreated;
  credits: number;
}

/**
 * The admin's Change plan: the credits a month, then either an upgrade now (more credits than today:
 * the rest of this period's extra credits are ordered, their amount shown, then paid through the
 * checkout `onPay` opens) or a change from the next renewal (PUT terms, any number). The server's
 * refusal shows as it words it. Mounted once per opening.
 */
export function ChangePlanDialog({
  plan,
  onClose,
  onPay,
}: {
  plan: BillingPlan;
  onClose: () => void;
  /** Pays the upgrade's order through the usual checkout, the dialog closed. */
  onPay: (created: OrderCreated, credits: number) => void;
}) {
  const current = plan.creditsPerPeriod;
  const schema = useMemo(() => changePlanFormSchema(current), [current]);
  const { control, register, handleSubmit, setError, formState } = useForm<ChangePlanFormValues>({
    resolver: zodResolver(schema),
    defaultValues: { credits: String(current), when: 'next' },
  });
  const change = useChangePlanTerms();
  const upgrade = useUpgradePlan();
  const [refused, setRefused] = useState<string | null>(null);
  const [quote, setQuote] = useState<Quote | null>(null);
  const whenId = useId();
  const nowHintId = useId();
  const nextHintId = useId();

  const credits = Number(useWatch({ control, name: 'credits' }));
  const when = useWatch({ control, name: 'when' });
  const amount = monthlyAmount(plan, credits);
  const canUpgrade = amount !== null && credits > current;
  const busy = change.isPending || upgrade.isPending;
  const end = formatDate(plan.currentPeriodEnd);

  const submit = handleSubmit(async (form) => {
    setRefused(null);
    const creditsPerPeriod = Number(form.credits);
    try {
      if (form.when === 'now') {
        setQuote({ created: await upgrade.mutateAsync({ creditsPerPeriod }), credits: creditsPerPeriod });
        return;
      }
      await change.mutateAsync({ body: { creditsPerPeriod } });
      enqueueSnackbar(labels.planChangeSaved(formatCount(creditsPerPeriod)), { variant: 'success' });
      onClose();
    } catch (error) {
      // Not an upgrade (400), no paid period running (409): as the server words it, the dialog kept.
      const onCredits = error instanceof ApiError ? error.fieldErrors.creditsPerPeriod?.[0] : undefined;
      if (onCredits) setError('credits', { type: 'server', message: onCredits });
      setRefused(extractErrorMessage(error, messages.common.unexpectedRetry));
    }
  });

  const creditsError = formState.errors.credits?.message;
  const title = (
    <DialogTitle id="change-plan-title">
      {quote ? labels.upgradeChargeTitle : labels.changePlanTitle}
    </DialogTitle>
  );

  if (quote) {
    const { order } = quote.created;
    const then = monthlyAmount(plan, quote.credits);
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="change-plan-title">
        {title}
        <DialogContent>
          <TermList
            dense
            rows={[
              [labels.upgradeExtraCredits, formatCount(order.credits)],
              [labels.upgradeAmountNow, formatRupees(order.amountPaise)],
              [labels.upgradeUntil, end],
              [
                labels.upgradeThen,
                labels.upgradeThenValue(
                  formatCount(quote.credits),
                  then === null ? labels.none : formatRupees(then),
                ),
              ],
            ]}
          />
          <Alert severity="info">{labels.upgradePayHint}</Alert>
        </DialogContent>
        <DialogActions disableSpacing sx={{ gap: 1, px: 3, pb: 2, flexWrap: 'wrap' }}>
          <Button onClick={() => setQuote(null)}>{labels.back}</Button>
          <Button variant="contained" onClick={() => onPay(quote.created, quote.credits)}>
            {labels.payAmount(formatRupees(order.amountPaise))}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="change-plan-title"
    >
      <Box component="form" noValidate onSubmit={submit}>
        {title}
        <DialogContent>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {labels.changePlanCurrent(formatCount(current), formatRupees(plan.amountPaise))}
          </Typography>
          {refused && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {refused}
            </Alert>
          )}
          <TextField
            {...register('credits')}
            label={labels.creditsPerMonth}
            type="number"
            required
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { min: 1, max: MAX_CREDITS, step: 1 } }}
            error={!!creditsError}
            helperText={
              creditsError ?? (amount === null ? ' ' : labels.newAmountPerMonth(formatRupees(amount)))
            }
            sx={{ mt: 1, mb: 2 }}
          />
          <Controller
            control={control}
            name="when"
            render={({ field }) => (
              <FormControl component="fieldset">
                <FormLabel component="legend" id={whenId}>
                  {labels.changeWhen}
                </FormLabel>
                <RadioGroup
                  aria-labelledby={whenId}
                  name={field.name}
                  value={field.value}
                  onChange={(_event, value) => field.onChange(value)}
                  onBlur={field.onBlur}
                >
                  <FormControlLabel
                    value="now"
                    disabled={!canUpgrade}
                    control={<Radio slotProps={{ input: { 'aria-describedby': nowHintId } }} />}
                    label={labels.upgradeNow}
                  />
                  <Typography id={nowHintId} variant="body2" color="text.secondary" sx={{ pl: 4, mb: 1 }}>
                    {canUpgrade ? labels.upgradeNowHint(end) : labels.upgradeNeedsMore(formatCount(current))}
                  </Typography>
                  <FormControlLabel
                    value="next"
                    control={<Radio slotProps={{ input: { 'aria-describedby': nextHintId } }} />}
                    label={labels.fromNextRenewal}
                  />
                  <Typography id={nextHintId} variant="body2" color="text.secondary" sx={{ pl: 4 }}>
                    {labels.fromNextRenewalHint}
                  </Typography>
                </RadioGroup>
              </FormControl>
            )}
          />
        </DialogContent>
        <DialogActions disableSpacing sx={{ gap: 1, px: 3, pb: 2, flexWrap: 'wrap' }}>
          <Button onClick={onClose} disabled={busy}>
            {labels.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {when === 'now' ? labels.continue : labels.saveFromNextRenewal}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
