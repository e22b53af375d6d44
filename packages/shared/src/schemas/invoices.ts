import { z } from 'zod';
import { DOCUMENT_PREFIX_MAX, gstinProblem, PAN_SHAPE, STATE_CODES, type GstinProblem } from '../gst.js';
import { messages } from '../messages.js';
import { paymentSchema } from './billing.js';
import { listQuerySchema } from './common.js';

/**
 * Tax invoices, credit notes, refunds and the seller's tax profile (docs/product.md, "Tax
 * invoices"). Money is integer paise, rates basis points, as in billing.ts.
 */

const GSTIN_MESSAGES: Record<GstinProblem, string> = {
  format: messages.tax.gstinFormat,
  state: messages.tax.gstinState,
  check: messages.tax.gstinCheck,
};

const gstinText = z
  .string({ error: messages.tax.gstinFormat })
  .trim()
  .toUpperCase()
  .superRefine((value, ctx) => {
    const problem = value === '' ? null : gstinProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: GSTIN_MESSAGES[problem] });
  });

/** A GSTIN that must be given. */
export const gstinSchema = gstinText.refine((v) => v !== '', messages.tax.gstinFormat);
/** A GSTIN that may be left empty (an unregistered buyer): empty becomes null. */
export const optionalGstinSchema = gstinText.nullish().transform((v) => v || null);

export const stateCodeSchema = z.enum(STATE_CODES, { error: messages.tax.stateRequired });
export const optionalStateCodeSchema = z
  .union([stateCodeSchema, z.literal('')], { error: messages.tax.stateRequired })
  .nullish()
  .transform((v) => v || null);

/** A GSTIN begins with its state's code: the two must agree where both are given. */
export function gstinMatchesState(gstin: string | null, stateCode: string | null): boolean {
  return !gstin || !stateCode || gstin.slice(0, 2) === stateCode;
}

export const DEFAULT_SAC = '998314';
export const DEFAULT_INVOICE_PREFIX = 'IC';
export const DEFAULT_CREDIT_NOTE_PREFIX = 'CN';

const documentPrefix = (fallback: string) =>
  z
    .string({ error: messages.tax.prefixInvalid })
    .trim()
    .regex(new RegExp(`^[A-Za-z0-9-]{1,${DOCUMENT_PREFIX_MAX}}$`), messages.tax.prefixInvalid)
    .default(fallback);

const required = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, messages.company.tooLong);

/** PUT /api/auth/tax-profile: the seller's particulars every invoice carries. */
export const sellerTaxProfileBodySchema = z
  .object({
    legalName: required(messages.tax.legalNameRequired),
    address: required(messages.tax.addressRequired, 500),
    stateCode: stateCodeSchema,
    gstin: gstinSchema,
    pan: z
      .string({ error: messages.tax.panInvalid })
      .trim()
      .toUpperCase()
      .regex(PAN_SHAPE, messages.tax.panInvalid),
    sac: z
      .string({ error: messages.tax.sacInvalid })
      .trim()
      .regex(/^99\d{4}$/, messages.tax.sacInvalid)
      .default(DEFAULT_SAC),
    invoicePrefix: documentPrefix(DEFAULT_INVOICE_PREFIX),
    creditNotePrefix: documentPrefix(DEFAULT_CREDIT_NOTE_PREFIX),
    signatory: required(messages.tax.signatoryRequired, 100),
  })
  .superRefine((v, ctx) => {
    if (!gstinMatchesState(v.gstin, v.stateCode)) {
      ctx.addIssue({ code: 'custom', path: ['gstin'], message: messages.tax.gstinStateMismatch });
    }
    if (v.gstin.slice(2, 12) !== v.pan) {
      ctx.addIssue({ code: 'custom', path: ['pan'], message: messages.tax.panGstinMismatch });
    }
    if (v.invoicePrefix.toUpperCase() === v.creditNotePrefix.toUpperCase()) {
      ctx.addIssue({ code: 'custom', path: ['creditNotePrefix'], message: messages.tax.prefixesEqual });
    }
  });
export type SellerTaxProfileBody = z.input<typeof sellerTaxProfileBodySchema>;
export type SellerTaxProfileFields = z.output<typeof sellerTaxProfileBodySchema>;

export const sellerTaxProfileSchema = z.object({
  legalName: z.string(),
  address: z.string(),
  stateCode: z.string(),
  gstin: z.string(),
  pan: z.string(),
  sac: z.string(),
  invoicePrefix: z.string(),
  creditNotePrefix: z.string(),
  signatory: z.string(),
  updatedAt: z.string(),
});
export type SellerTaxProfile = z.infer<typeof sellerTaxProfileSchema>;

/** The figures an invoice or credit note states, in paise. */
const taxFigures = {
  taxableValuePaise: z.number(),
  taxRateBp: z.number(),
  cgstPaise: z.number(),
  sgstPaise: z.number(),
  igstPaise: z.number(),
  totalPaise: z.number(),
};

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  financialYear: z.string(),
  issuedAt: z.string(),
  organizationId: z.string(),
  buyerName: z.string(),
  buyerGstin: z.string().nullable(),
  placeOfSupplyCode: z.string(),
  intraState: z.boolean(),
  paymentId: z.string(),
  quantity: z.number(),
  ...taxFigures,
  /** What credit notes have refunded so far. */
  refundedPaise: z.number(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const creditNoteSchema = z.object({
  id: z.string(),
  number: z.string(),
  financialYear: z.string(),
  issuedAt: z.string(),
  organizationId: z.string(),
  buyerName: z.string(),
  buyerGstin: z.string().nullable(),
  placeOfSupplyCode: z.string(),
  intraState: z.boolean(),
  invoiceId: z.string(),
  invoiceNumber: z.string(),
  paymentId: z.string(),
  refundId: z.string(),
  reason: z.string(),
  creditsTakenBack: z.number(),
  ...taxFigures,
});
export type CreditNote = z.infer<typeof creditNoteSchema>;

/** Newest first; a month (1–12) is read within the chosen financial year (2026 = April 2026 – March 2027). */
/** A query parameter left empty (`?month=`) counts as absent. */
const optionalNumber = (min: number, max: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).optional());

const invoiceFilterFields = {
  search: z.string().trim().max(200).optional(),
  financialYear: optionalNumber(2017, 2100),
  month: optionalNumber(1, 12),
  organizationId: z.uuid().optional(),
};
const monthNeedsYear: [
  (q: { month?: number | undefined; financialYear?: number | undefined }) => boolean,
  { path: string[]; message: string },
] = [
  (q) => q.month === undefined || q.financialYear !== undefined,
  { path: ['month'], message: messages.invoices.monthNeedsYear },
];

export const invoiceFilterSchema = z.object(invoiceFilterFields).refine(...monthNeedsYear);
export type InvoiceFilter = z.output<typeof invoiceFilterSchema>;
export const invoiceListQuerySchema = listQuerySchema
  .pick({ page: true, pageSize: true })
  .extend(invoiceFilterFields)
  .refine(...monthNeedsYear);
export type InvoiceListQuery = z.input<typeof invoiceListQuerySchema>;

/** POST /api/auth/payments/{id}/refunds; `Idempotency-Key` required. */
export const refundBodySchema = z.object({
  amountPaise: z
    .number({ error: messages.refunds.amountRequired })
    .int(messages.refunds.amountRequired)
    .min(1, messages.refunds.amountRequired)
    .max(2_147_483_647, messages.refunds.amountTooLarge),
  reason: required(messages.refunds.reasonRequired, 200),
});
export type RefundBody = z.input<typeof refundBodySchema>;

export const refundResultSchema = z.object({
  payment: paymentSchema,
  creditNote: creditNoteSchema,
  creditBalance: z.number(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;
