import { z } from 'zod';
import { messages, refundBodySchema, rupeesToPaise, type RefundBody } from '@portal/shared';

/** Rupees with at most two decimals, as typed. */
const RUPEES = /^\d+(\.\d{1,2})?$/;

export interface RefundFormValues {
  /** In rupees, as typed. */
  amount: string;
  reason: string;
}

/** The amount left to refund on an invoice's payment. */
export function refundablePaise(invoice: { totalPaise: number; refundedPaise: number }): number {
  return Math.max(0, invoice.totalPaise - invoice.refundedPaise);
}

/** `1180.00`: paise as the amount field shows them. */
export function rupeesText(paise: number): string {
  return (paise / 100).toFixed(2);
}

/**
 * The refund dialog: the amount in rupees, at least ₹0.01 and at most what is left to refund, sent
 * as the API's body (integer paise); the reason by the shared rule.
 */
export function refundFormSchema(maxPaise: number): z.ZodType<RefundBody, RefundFormValues> {
  return z
    .object({
      amount: z
        .string()
        .trim()
        .superRefine((value, ctx) => {
          if (!RUPEES.test(value) || rupeesToPaise(Number(value)) < 1) {
            ctx.addIssue({ code: 'custom', message: messages.refunds.amountRequired });
          } else if (rupeesToPaise(Number(value)) > maxPaise) {
            ctx.addIssue({ code: 'custom', message: messages.refunds.amountTooLarge });
          }
        }),
      reason: refundBodySchema.shape.reason,
    })
    .transform(({ amount, reason }) => ({ amountPaise: rupeesToPaise(Number(amount)), reason }));
}
