import { Grid, MenuItem, TextField } from '@mui/material';
import { Controller, type Control, type FieldErrors } from 'react-hook-form';
import { PAYMENT_METHODS } from '@portal/shared';
import { labels, paymentMethodLabels } from '../labels';
import type { ManualPaymentFormValues } from '../utils/manual-payment-form';
import { PaymentDateField } from './payment-date-field';

/**
 * The method and date of a manual payment, two grid cells of `columns` each (of 12 from `sm` up): the
 * onboarding's Manual Payment page and a renewal's Record payment dialog.
 */
export function PaymentMethodAndDate({
  control,
  errors,
  columns,
}: {
  control: Control<ManualPaymentFormValues>;
  errors: FieldErrors<ManualPaymentFormValues>;
  columns: number;
}) {
  return (
    <>
      <Grid size={{ xs: 12, sm: columns }}>
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
      <Grid size={{ xs: 12, sm: columns }}>
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
    </>
  );
}
