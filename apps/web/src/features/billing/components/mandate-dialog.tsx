import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  messages,
  SANDBOX_DECLINED_CARD,
  SANDBOX_FAILING_DEBITS_CARD,
  SANDBOX_TEST_CARD,
  sandboxMandateBodySchema,
  type BillingPlan,
  type SandboxMandateBody,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useAuthorizeMandate } from '../api/authorize-mandate';
import { labels } from '../labels';
import { groupDigits } from '../utils/card-number';

/**
 * Set up a card mandate in the sandbox (the authentication a customer completes in Razorpay
 * Checkout): a test card, for monthly debits up to the plan's amount. Mounted once per opening.
 */
export function MandateDialog({ plan, onClose }: { plan: BillingPlan; onClose: () => void }) {
  const authorize = useAuthorizeMandate();
  const [refused, setRefused] = useState<string | null>(null);
  const { control, handleSubmit, formState } = useForm<
    SandboxMandateBody,
    unknown,
    z.output<typeof sandboxMandateBodySchema>
  >({
    resolver: zodResolver(sandboxMandateBodySchema),
    defaultValues: { cardNumber: groupDigits(SANDBOX_TEST_CARD) },
  });
  const busy = authorize.isPending;

  const submit = handleSubmit(async (body) => {
    setRefused(null);
    try {
      await authorize.mutateAsync(body);
      enqueueSnackbar(labels.mandateDone, { variant: 'success' });
      onClose();
    } catch (error) {
      // The declined card (402) and any other refusal, as the server words it.
      setRefused(extractErrorMessage(error, messages.common.unexpectedRetry));
    }
  });

  const cardError = formState.errors.cardNumber?.message;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="mandate-dialog-title"
      aria-describedby="mandate-dialog-explanation"
      maxWidth="xs"
      fullWidth
    >
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="mandate-dialog-title">{labels.mandateTitle}</DialogTitle>
        <DialogContent>
          <Typography id="mandate-dialog-explanation" sx={{ mb: 2 }}>
            {labels.mandateExplanation(plan.amountPaise)}
          </Typography>
          <Alert severity="info" sx={{ mb: 2 }}>
            {labels.mandateSandboxHint(
              groupDigits(SANDBOX_DECLINED_CARD),
              groupDigits(SANDBOX_FAILING_DEBITS_CARD),
            )}
          </Alert>
          {refused && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {refused}
            </Alert>
          )}
          <Controller
            control={control}
            name="cardNumber"
            render={({ field }) => (
              <TextField
                name={field.name}
                inputRef={field.ref}
                value={field.value}
                onBlur={field.onBlur}
                onChange={(e) => field.onChange(groupDigits(e.target.value))}
                label={labels.cardNumber}
                required
                fullWidth
                error={!!cardError}
                helperText={cardError}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-number' } }}
              />
            )}
          />
        </DialogContent>
        {/* Authorizing lets the portal take money: large targets with room between them (issue 21). */}
        <DialogActions disableSpacing sx={{ gap: 2, px: 3, pb: 2, flexWrap: 'wrap' }}>
          <Button size="large" onClick={onClose} disabled={busy}>
            {labels.cancel}
          </Button>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {labels.authorizeMandate}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
