import { z } from 'zod';
import {
  DEFAULT_PAYMENT_METHOD,
  formatDate,
  manualPaymentInputSchema,
  parseDay,
  PAYMENT_METHODS,
  type ManualPaymentInput,
} from '@portal/shared';
import { labels } from '../labels';

/**
 * The manual payment fields (transaction id, method, date, remarks) by the shared schema, the date as
 * shown and typed, day first (`27 Nov 2026`). Onboarding's Manual Payment page and a renewal's Record
 * payment use it.
 */
export const manualPaymentFormSchema = manualPaymentInputSchema.extend({
  paymentMethod: z.enum(PAYMENT_METHODS),
  remarks: z.string().max(1000),
  paymentDate: z.string().refine((text) => parseDay(text) !== null, labels.paymentDateInvalid),
});
export type ManualPaymentFormValues = z.infer<typeof manualPaymentFormSchema>;

/** Today in India (the portal's business day), whatever the browser's time zone: `27 Nov 2026`. */
function today(): string {
  return formatDate(new Date());
}

export function defaultManualPayment(): ManualPaymentFormValues {
  return { transactionId: '', paymentMethod: DEFAULT_PAYMENT_METHOD, paymentDate: today(), remarks: '' };
}

/** What the API takes: trimmed, and the day the date names (YYYY-MM-DD). */
export function manualPaymentFromForm(form: ManualPaymentFormValues): ManualPaymentInput {
  return {
    transactionId: form.transactionId.trim(),
    paymentMethod: form.paymentMethod,
    paymentDate: parseDay(form.paymentDate) ?? form.paymentDate,
    remarks: form.remarks.trim(),
  };
}
