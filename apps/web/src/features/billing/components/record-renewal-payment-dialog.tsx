import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { formatRupees, PAYMENT_METHODS, type RenewalListItem } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { isStaleRenewal, useRecordRenewalPayment } from '../api/record-renewal-payment';
import { labels, paymentMethodLabels, renewalStatusLabels } from '../labels';
import {
  defaultManualPayment,
  manualPaymentFormSchema,
  manualPaymentFromForm,
  type ManualPaymentFormValues,
} from '../utils/manual-payment-form';
import { renewalPeriod } from '../utils/renewal';
import { PaymentDateField } from './payment-date-field';

const FIELDS = ['transactionId', 'paymentMethod', 'paymentDate', 'remarks'] as const;

/**
 * Record a payment received for a renewal (the platform operator's): the manual payment fields of
 * onboarding, by the same schema. Mounted once per opening.
 */
export function RecordRenewalPaymentDialog({
  renewal,
  onClose,
}: {
  renewal: RenewalListItem;
  onClose: () => void;
}) {
  const record = useRecordRenewalPayment();
  const { control, register, handleSubmit, setError, formState } = useForm<ManualPaymentFormValues>({
    resolver: zodResolver(manualPaymentFormSchema),
    defaultValues: defaultManualPayment(),
  });
  const busy = record.isPending;

  const submit = handleSubmit(async (form) => {
    try {
      await record.mutateAsync({ id: renewal.id, body: manualPaymentFromForm(form) });
      enqueueSnackbar(labels.paymentRecorded, { variant: 'success' });
      onClose();
    } catch (error) {
      // The server's objection to a field, on the field as well as in the toast.
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      for (const name of FIELDS) {
        const message = fields[name]?.[0];
        if (message) setError(name, { type: 'server', message });
      }
      enqueueSnackbar(extractErrorMessage(error, labels.recordFailed), { variant: 'error' });
      // Gone, or paid meanwhile: nothing left to record from here; the list is read again.
      if (isStaleRenewal(error)) onClose();
    }
  });

  const errors = formState.errors;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="record-renewal-payment-title"
    >
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="record-renewal-payment-title">{labels.recordPaymentTitle}</DialogTitle>
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
                [labels.organization, renewal.organizationName],
                [labels.renewalPeriod, renewalPeriod(renewal)],
                [labels.amount, formatRupees(renewal.amountPaise)],
                [labels.status, renewalStatusLabels[renewal.status]],
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
          <Alert severity="info" sx={{ mb: 2 }}>
            {labels.recordPaymentHint}
          </Alert>
          <Grid container spacing={2}>
            <Grid size={12}>
              <TextField
                {...register('transactionId')}
                label={labels.transactionId}
                required
                fullWidth
                autoFocus
                error={!!errors.transactionId}
                helperText={errors.transactionId?.message}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Controller
                control={control}
                name="paymentMethod"
                render={({ field }) => (
                  <TextField {...field} select label={labels.paymentMethod} fullWidth>
                    {PAYMENT_METHODS.map((m) => (
                      <MenuItem key={m} value={m}>
                        {paymentMethodLabels[m]}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Controller
                control={control}
                name="paymentDate"
                render={({ field }) => (
                  <PaymentDateField
                    name={field.name}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    error={errors.paymentDate?.message}
                  />
                )}
              />
            </Grid>
            <Grid size={12}>
              <TextField {...register('remarks')} label={labels.remarks} fullWidth multiline minRows={2} />
            </Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {labels.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {labels.recordPayment}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
