import { useState } from 'react';
import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  computeAmounts,
  DEFAULT_GST_RATE_BP,
  formatRupees,
  MAX_ORDER_CREDITS,
  messages,
  PLATFORM_PRICE_PER_CREDIT_PAISE,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useCreateOrder } from '../api/create-order';
import { labels } from '../labels';
import { useCheckout } from './use-checkout';

/** Buy credits online: order (priced on the server) → checkout → verify → the balance rises. */
export function BuyCreditsCard() {
  const createOrder = useCreateOrder();
  const checkout = useCheckout();
  const [credits, setCredits] = useState('10');

  const count = Number(credits);
  const valid = Number.isInteger(count) && count >= 1 && count <= MAX_ORDER_CREDITS;
  const quote = valid
    ? computeAmounts({
        credits: count,
        pricePerCreditPaise: PLATFORM_PRICE_PER_CREDIT_PAISE,
        taxRateBp: DEFAULT_GST_RATE_BP,
      })
    : null;

  const buy = async () => {
    let created;
    try {
      created = await createOrder.mutateAsync(count);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.createPaymentOrder), { variant: 'error' });
      return;
    }
    await checkout.pay(created);
  };

  return (
    <Paper sx={{ p: 3, height: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {labels.buyCredits}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {formatRupees(PLATFORM_PRICE_PER_CREDIT_PAISE)} {labels.pricePerCreditNote}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          label={labels.creditsToBuy}
          type="number"
          value={credits}
          onChange={(e) => setCredits(e.target.value)}
          error={!valid}
          slotProps={{ htmlInput: { min: 1, max: MAX_ORDER_CREDITS, step: 1 } }}
          sx={{ maxWidth: 180 }}
        />
        <Typography aria-live="polite">
          {labels.total}: <strong>{quote ? formatRupees(quote.grandTotalPaise) : '—'}</strong>
        </Typography>
        <Button
          variant="contained"
          size="large"
          onClick={buy}
          disabled={!valid || createOrder.isPending || checkout.verifying}
        >
          {checkout.verifying ? messages.payment.verifying : labels.buyCredits}
        </Button>
      </Stack>
      {checkout.dialog}
    </Paper>
  );
}
