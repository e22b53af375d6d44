import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { formatRupees, messages, type Invoice, type RefundBody } from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { newIdempotencyKey } from '../../../lib/use-idempotency-key';
import { useRefundPayment } from '../api/refund-payment';
import { labels } from '../labels';
import { refundablePaise, refundFormSchema, rupeesText, type RefundFormValues } from '../utils/refund-form';

/**
 * Refund part or all of an invoice's payment. Mounted once per opening, with one Idempotency-Key for
 * that opening: a submit retried after a lost answer (or a double click) refunds once, and a changed
 * amount after a refund that did go through is refused rather than refunded again.
 */
export function RefundDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const [idempotencyKey] = useState(newIdempotencyKey);
  const refund = useRefundPayment();
  const left = refundablePaise(invoice);
  const [schema] = useState(() => refundFormSchema(left));
  const { register, handleSubmit, formState } = useForm<RefundFormValues, unknown, RefundBody>({
    resolver: zodResolver(schema),
    defaultValues: { amount: rupeesText(left), reason: '' },
  });
  const busy = refund.isPending;

  const submit = handleSubmit(async (body) => {
    try {
      await refund.mutateAsync({ paymentId: invoice.paymentId, body, idempotencyKey });
      enqueueSnackbar(messages.refunds.done, { variant: 'success' });
      onClose();
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.refundFailed), { variant: 'error' });
    }
  });

  const errors = formState.errors;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="refund-dialog-title"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id="refund-dialog-title">{labels.refundTitle}</DialogTitle>
        <DialogContent>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content minmax(0, 1fr)',
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              mb: 2,
            }}
          >
            {(
              [
                [labels.refundOf, invoice.number],
                [labels.organization, invoice.buyerName],
                [labels.total, formatRupees(invoice.totalPaise)],
                [labels.refunded, formatRupees(invoice.refundedPaise)],
                [labels.refundable, formatRupees(left)],
              ] as const
            ).map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {term}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <Stack spacing={2}>
            <TextField
              label={labels.amount}
              required
              autoFocus
              {...register('amount')}
              error={!!errors.amount}
              helperText={errors.amount?.message ?? labels.amountHint}
              slotProps={{
                input: { startAdornment: <InputAdornment position="start">₹</InputAdornment> },
                htmlInput: { inputMode: 'decimal' },
              }}
            />
            <TextField
              label={labels.refundReason}
              required
              multiline
              minRows={2}
              {...register('reason')}
              error={!!errors.reason}
              helperText={errors.reason?.message}
            />
            <Alert severity="info">{labels.refundHint}</Alert>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {labels.cancel}
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={busy}>
            {messages.refunds.refund}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
