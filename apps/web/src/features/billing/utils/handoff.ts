import { z } from 'zod';
import {
  computeAmounts,
  pendingUserDataSchema,
  storageKeys,
  subscriptionTermsSchema,
  type PendingUserData,
  type SubscriptionTerms,
} from '@portal/shared';

/**
 * Session-storage handoff between invite → subscription → manual payment (docs/product.md,
 * "Subscriptions and payments"). Reads answer 'missing' (nothing stored) or 'invalid' (stored but
 * unreadable) so each screen can show its own message for each.
 */
export type Read<T> = { status: 'ok'; data: T } | { status: 'missing' } | { status: 'invalid' };

export type PendingUser = PendingUserData;

/** What the subscription page hands to the manual payment page. */
const subscriptionDataSchema = z.object({
  organizationId: z.string().min(1),
  terms: subscriptionTermsSchema,
  /** As typed, for display. */
  pricePerCredit: z.number(),
  gstPercent: z.number(),
  /**
   * The onboarding request's `autoRenew`, as chosen on the subscription step. Data stored before the
   * choice existed reads as the API's own default (off).
   */
  autoRenew: z.boolean().default(false),
});
export type SubscriptionData = z.output<typeof subscriptionDataSchema>;

function read<T>(key: string, schema: z.ZodType<T>): Read<T> {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(key);
  } catch {
    return { status: 'invalid' };
  }
  if (raw === null || raw === '') return { status: 'missing' };
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? { status: 'ok', data: parsed.data } : { status: 'invalid' };
  } catch {
    return { status: 'invalid' };
  }
}

export function readPendingUser(): Read<PendingUser> {
  return read(storageKeys.pendingUserData, pendingUserDataSchema);
}

export function readSubscriptionData(): Read<SubscriptionData> {
  const result = read(storageKeys.subscriptionData, subscriptionDataSchema);
  if (result.status !== 'ok') return result;
  // Stored figures that no longer add up are as good as unreadable.
  const { terms } = result.data;
  const amounts = computeAmounts({
    credits: terms.totalInterviewCredits,
    pricePerCreditPaise: terms.interviewCreditsPricePaise,
    taxRateBp: terms.taxRateBp,
  });
  return amounts.grandTotalPaise === terms.grandTotalAmountPaise ? result : { status: 'invalid' };
}

export function writeSubscriptionData(data: {
  organizationId: string;
  terms: SubscriptionTerms;
  pricePerCredit: number;
  gstPercent: number;
  autoRenew: boolean;
}): void {
  sessionStorage.setItem(storageKeys.subscriptionData, JSON.stringify(data));
}

export function clearHandoff(): void {
  sessionStorage.removeItem(storageKeys.pendingUserData);
  sessionStorage.removeItem(storageKeys.subscriptionData);
}
