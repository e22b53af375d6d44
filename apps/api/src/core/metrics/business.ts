import { Counter, type Registry } from 'prom-client';

export type SignInOutcome = 'succeeded' | 'refused' | 'locked' | 'throttled';
export type SecondFactorStep = 'sign_in' | 'settings';
/** How a payment was captured: the checkout's verify, the provider's webhook, recorded by hand, a renewal's debit. */
export type PaymentChannel = 'checkout' | 'webhook' | 'manual' | 'renewal';
/** How credits were sold: bought online, a subscription the operator set up, a renewal. */
export type CreditChannel = 'online' | 'subscription' | 'renewal';
export type RenewalFailure = 'declined' | 'error';

/**
 * What the business did, counted by this process (Prometheus sums the processes). Services call these
 * once their transaction committed, so a rolled-back change, a replayed idempotent request or a
 * repeated webhook counts nothing.
 */
export interface BusinessMetrics {
  signIn(outcome: SignInOutcome): void;
  /** A failed sign-in that reached the lock threshold: the account is now locked from that address. */
  accountLocked(): void;
  secondFactorFailed(step: SecondFactorStep): void;
  paymentCaptured(channel: PaymentChannel, amountPaise: number): void;
  creditsSold(channel: CreditChannel, credits: number): void;
  creditsUsed(credits: number): void;
  refunded(amountPaise: number): void;
  /** A renewal debited at the provider: a captured payment (channel `renewal`) and its credits sold. */
  renewalCharged(input: { amountPaise: number; credits: number }): void;
  renewalFailed(reason: RenewalFailure): void;
}

/** Every label value a counter can take, so each series exists at 0 from the start (rate() sees the first). */
const LABELS = {
  outcome: ['succeeded', 'refused', 'locked', 'throttled'],
  step: ['sign_in', 'settings'],
  paymentChannel: ['checkout', 'webhook', 'manual', 'renewal'],
  creditChannel: ['online', 'subscription', 'renewal'],
  reason: ['declined', 'error'],
} as const;

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  label?: { name: L; values: readonly string[] },
): Counter<L> {
  const created = new Counter<L>({
    name,
    help,
    labelNames: label ? [label.name] : [],
    registers: [registry],
  });
  for (const value of label?.values ?? []) created.inc({ [label!.name]: value } as Record<L, string>, 0);
  return created;
}

export function createBusinessMetrics(registry: Registry): BusinessMetrics {
  const signIns = counter(registry, 'portal_sign_ins_total', 'Sign-in attempts by outcome', {
    name: 'outcome',
    values: LABELS.outcome,
  });
  const locks = counter(
    registry,
    'portal_sign_in_locks_total',
    'Accounts locked from an address by failed sign-ins',
  );
  const secondFactor = counter(
    registry,
    'portal_second_factor_failures_total',
    'Wrong second-factor codes, at sign-in or in the account settings',
    { name: 'step', values: LABELS.step },
  );
  const paymentChannel = { name: 'channel', values: LABELS.paymentChannel } as const;
  const payments = counter(registry, 'portal_payments_captured_total', 'Payments captured', paymentChannel);
  const paymentPaise = counter(
    registry,
    'portal_payments_captured_paise_total',
    'Amount of the payments captured, in paise (GST included)',
    paymentChannel,
  );
  const sold = counter(registry, 'portal_credits_sold_total', 'Interview credits sold', {
    name: 'channel',
    values: LABELS.creditChannel,
  });
  const used = counter(registry, 'portal_credits_used_total', 'Interview credits used through API keys');
  const refunds = counter(registry, 'portal_refunds_total', 'Refunds recorded');
  const refundPaise = counter(registry, 'portal_refunds_paise_total', 'Amount refunded, in paise');
  const charged = counter(registry, 'portal_renewals_charged_total', 'Renewals debited at the provider');
  const failed = counter(registry, 'portal_renewals_failed_total', 'Renewal debits that failed', {
    name: 'reason',
    values: LABELS.reason,
  });

  const business: BusinessMetrics = {
    signIn: (outcome) => signIns.inc({ outcome }),
    accountLocked: () => locks.inc(),
    secondFactorFailed: (step) => secondFactor.inc({ step }),
    paymentCaptured(channel, amountPaise) {
      payments.inc({ channel });
      paymentPaise.inc({ channel }, amountPaise);
    },
    creditsSold: (channel, credits) => sold.inc({ channel }, credits),
    creditsUsed: (credits) => used.inc(credits),
    refunded(amountPaise) {
      refunds.inc();
      refundPaise.inc(amountPaise);
    },
    renewalCharged({ amountPaise, credits }) {
      charged.inc();
      business.paymentCaptured('renewal', amountPaise);
      business.creditsSold('renewal', credits);
    },
    renewalFailed: (reason) => failed.inc({ reason }),
  };
  return business;
}
