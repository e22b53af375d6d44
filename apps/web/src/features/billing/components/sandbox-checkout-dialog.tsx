import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  TextField,
  Typography,
} from '@mui/material';
import {
  formatCount,
  formatRupees,
  messages,
  SANDBOX_TEST_CARD,
  type PaymentOrder,
  type VerifyPaymentBody,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useSandboxPay } from '../api/sandbox-pay';
import { labels } from '../labels';
import { groupDigits } from '../utils/card-number';

/**
 * The sandbox's test checkout, in place of Razorpay Checkout when no Razorpay keys are configured:
 * a test card form whose Pay asks the server to sign the payment as Razorpay would.
 */
export function SandboxCheckoutDialog({
  order,
  onPaid,
  onClose,
}: {
  order: PaymentOrder;
  onPaid: (payment: VerifyPaymentBody) => void;
  onClose: () => void;
}) {
  const pay = useSandboxPay();
  const [card, setCard] = useState(groupDigits(SANDBOX_TEST_CARD));
  const [expiry, setExpiry] = useState('12/30');
  const [cvv, setCvv] = useState('123');
  const [name, setName] = useState('Test User');
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    try {
      onPaid(await pay.mutateAsync({ orderId: order.providerOrderId, cardNumber: card.replace(/\s/g, '') }));
    } catch (e) {
      setError(extractErrorMessage(e, messages.fallback.verifyPayment));
    }
  };

  return (
    <Dialog
      open
      onClose={pay.isPending ? undefined : onClose}
      aria-labelledby="sandbox-checkout-title"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="sandbox-checkout-title">{labels.sandboxTitle}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 1 }}>
          {formatCount(order.credits)} × {labels.credits.toLowerCase()}:{' '}
          <strong>{formatRupees(order.amountPaise)}</strong>
        </Typography>
        <Alert severity="info" sx={{ mb: 2 }}>
          {labels.sandboxHint}
        </Alert>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        <Grid container spacing={2}>
          <Grid size={12}>
            <TextField
              label={labels.cardNumber}
              value={card}
              onChange={(e) => setCard(groupDigits(e.target.value))}
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-number' } }}
            />
          </Grid>
          <Grid size={6}>
            <TextField
              label={labels.expiry}
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              fullWidth
            />
          </Grid>
          <Grid size={6}>
            <TextField label={labels.cvv} value={cvv} onChange={(e) => setCvv(e.target.value)} fullWidth />
          </Grid>
          <Grid size={12}>
            <TextField
              label={labels.cardName}
              value={name}
              onChange={(e) => setName(e.target.value)}
              fullWidth
            />
          </Grid>
        </Grid>
      </DialogContent>
      {/* Pay commits money: large targets with room between them (issue 21). */}
      <DialogActions disableSpacing sx={{ gap: 2, px: 3, pb: 2 }}>
        <Button size="large" onClick={onClose} disabled={pay.isPending}>
          {labels.cancel}
        </Button>
        <Button
          variant="contained"
          size="large"
          onClick={submit}
          disabled={pay.isPending || card.replace(/\s/g, '').length !== 16}
        >
          {labels.pay} {formatRupees(order.amountPaise)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
