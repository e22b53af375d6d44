import { z } from 'zod';
import {
  basisPointsToPercent,
  formatCount,
  MAX_CREDITS,
  paiseToRupees,
  parseGstPercent,
  percentToBasisPoints,
  rupeesToPaise,
  type BillingPlan,
  type PlanTermsBody,
} from '@portal/shared';
import { labels } from '../labels';
import { subscriptionFormSchema } from './subscription-form';

/** Credits and price per credit are typed and checked as in the subscription form. */
const creditsField = subscriptionFormSchema.shape.credits;
const priceField = subscriptionFormSchema.shape.pricePerCredit;

export const CHANGE_WHEN = ['now', 'next'] as const;
export type ChangeWhen = (typeof CHANGE_WHEN)[number];

/**
 * The admin's Change plan: the credits a month, and whether the change is an upgrade paid now (more
 * credits than today's) or applies from the next renewal (any other number).
 */
export function changePlanFormSchema(currentCredits: number) {
  return z.object({ credits: creditsField, when: z.enum(CHANGE_WHEN) }).superRefine((form, ctx) => {
    const credits = Number(form.credits);
    if (!creditsField.safeParse(form.credits).success) return;
    if (form.when === 'now' && credits <= currentCredits) {
      ctx.addIssue({
        code: 'custom',
        path: ['credits'],
        message: labels.upgradeNeedsMore(formatCount(currentCredits)),
      });
    } else if (form.when === 'next' && credits === currentCredits) {
      ctx.addIssue({
        code: 'custom',
        path: ['credits'],
        message: labels.sameCredits(formatCount(currentCredits)),
      });
    }
  });
}
export type ChangePlanFormValues = z.infer<ReturnType<typeof changePlanFormSchema>>;

/** The operator's Edit plan: inputs kept as typed, checked here, turned into paise and basis points. */
export const planTermsFormSchema = z.object({
  credits: creditsField,
  pricePerCredit: priceField,
  gstPercent: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d{1,2})?$/.test(v) && Number(v) <= 100, labels.gstInvalid),
  /** Empty: unused credits never expire. */
  rolloverCap: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) <= MAX_CREDITS), labels.rolloverCapInvalid),
});
export type PlanTermsFormValues = z.infer<typeof planTermsFormSchema>;

/** The form's fields filled with the plan's terms today. */
export function planTermsFormFromPlan(plan: BillingPlan): PlanTermsFormValues {
  return {
    credits: String(plan.creditsPerPeriod),
    pricePerCredit: String(paiseToRupees(plan.pricePerCreditPaise)),
    gstPercent: String(basisPointsToPercent(plan.taxRateBp)),
    rolloverCap: plan.rolloverCap === null ? '' : String(plan.rolloverCap),
  };
}

/** PUT /auth/billing-plan/terms' body: integer paise, basis points, and null for no rollover cap. */
export function planTermsFromForm(form: PlanTermsFormValues): PlanTermsBody {
  const cap = form.rolloverCap.trim();
  return {
    creditsPerPeriod: Number(form.credits),
    pricePerCreditPaise: rupeesToPaise(Number(form.pricePerCredit)),
    taxRateBp: percentToBasisPoints(parseGstPercent(form.gstPercent)),
    rolloverCap: cap === '' ? null : Number(cap),
  };
}

/** The form's field each term of the request is typed in: where the server's objection to it shows. */
export const PLAN_TERMS_FIELDS = {
  creditsPerPeriod: 'credits',
  pricePerCreditPaise: 'pricePerCredit',
  taxRateBp: 'gstPercent',
  rolloverCap: 'rolloverCap',
} as const satisfies Record<keyof PlanTermsBody, keyof PlanTermsFormValues>;
