import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { formatRupees, type RenewalListItem } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { isStaleRenewal, useRecordRenewalPayment } from '../api/record-renewal-payment';
import { labels, renewalStatusLabels } from '../labels';
import {
  defaultManualPayment,
  manualPaymentFormSchema,
  manualPaymentFromForm,
  type ManualPaymentFormValues,
} from '../utils/manual-payment-form';
import { renewalPeriod } from '../utils/renewal';
import { PaymentMethodAndDate } from './payment-method-and-date';

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
            <PaymentMethodAndDate control={control} errors={errors} columns={6} />
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
