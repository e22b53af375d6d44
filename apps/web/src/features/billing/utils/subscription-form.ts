import { z } from 'zod';
import {
  computeAmounts,
  DEFAULT_GST_PERCENT,
  DEMO_TRIAL_OPTIONS,
  MAX_CREDITS,
  MAX_PRICE_PER_CREDIT_PAISE,
  parseGstPercent,
  percentToBasisPoints,
  rupeesToPaise,
  type Amounts,
  type SubscriptionTerms,
} from '@portal/shared';
import { labels } from '../labels';

/** The subscription form: inputs kept as typed, checked here, turned into paise on submit. */
export const subscriptionFormSchema = z.object({
  credits: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_CREDITS, labels.creditsInvalid),
  pricePerCredit: z
    .string()
    .trim()
    .refine(
      (v) => /^\d+(\.\d{1,2})?$/.test(v) && Number(v) >= 1 && Number(v) * 100 <= MAX_PRICE_PER_CREDIT_PAISE,
      labels.priceInvalid,
    ),
  /** 0 to 100, step 0.01; anything else counts as 0. */
  gstPercent: z.string(),
  demoTrials: z.string().refine((v) => (DEMO_TRIAL_OPTIONS as readonly number[]).includes(Number(v))),
  /** The plan renews each month on its own (the onboarding request's `autoRenew`). */
  autoRenew: z.boolean(),
});
export type SubscriptionFormValues = z.infer<typeof subscriptionFormSchema>;

export const defaultSubscriptionForm: SubscriptionFormValues = {
  credits: '1',
  pricePerCredit: '1',
  gstPercent: String(DEFAULT_GST_PERCENT),
  demoTrials: String(DEMO_TRIAL_OPTIONS[0]),
  autoRenew: true,
};

const ZERO: Amounts = {
  subTotalPaise: 0,
  discountAmountPaise: 0,
  totalAmountPaise: 0,
  taxAmountPaise: 0,
  grandTotalPaise: 0,
};

/** The read-only Amount, GST amount and Total, live; zero while an input is not a valid number. */
export function liveAmounts(values: Partial<SubscriptionFormValues>): Amounts {
  const credits = Number(values.credits);
  const pricePaise = rupeesToPaise(Number(values.pricePerCredit));
  const taxRateBp = percentToBasisPoints(parseGstPercent(values.gstPercent ?? ''));
  try {
    return computeAmounts({ credits, pricePerCreditPaise: pricePaise, taxRateBp });
  } catch {
    return ZERO;
  }
}

/** The subscription terms of the API (integer paise, basis points), from checked form values. */
export function termsFromForm(values: SubscriptionFormValues): SubscriptionTerms {
  const credits = Number(values.credits);
  const pricePaise = rupeesToPaise(Number(values.pricePerCredit));
  const taxRateBp = percentToBasisPoints(parseGstPercent(values.gstPercent));
  const a = computeAmounts({ credits, pricePerCreditPaise: pricePaise, taxRateBp });
  return {
    totalInterviewCredits: credits,
    interviewCreditsPricePaise: pricePaise,
    taxRateBp,
    subTotalPaise: a.subTotalPaise,
    discountAmountPaise: a.discountAmountPaise,
    totalAmountPaise: a.totalAmountPaise,
    taxAmountPaise: a.taxAmountPaise,
    grandTotalAmountPaise: a.grandTotalPaise,
    demoTrials: Number(values.demoTrials),
  };
}
