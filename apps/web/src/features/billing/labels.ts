import {
  formatRupees,
  MANDATE_SILENT_LIMIT_PAISE,
  RENEWAL_GRACE_DAYS,
  RENEWALS_DUE_WITHIN_DAYS,
  type LedgerReason,
  type PlanStatus,
  type RenewalStatus,
  type RenewalView,
} from '@portal/shared';

/**
 * Field labels and small texts used only by the billing screens (texts named in docs/product.md are
 * in packages/shared messages.ts).
 */
export const labels = {
  credits: 'Credits',
  pricePerCredit: 'Price per credit (₹)',
  gstPercent: 'GST percentage',
  amount: 'Amount',
  gstAmount: 'GST amount',
  total: 'Total',
  computedAmounts: 'Calculated amounts',
  computedAmountsHint: 'Credits × price per credit, plus GST at the percentage above. Updated as you type.',
  paymentDateHint: 'Day first, such as 27 Nov 2026',
  paymentDateInvalid: 'Enter a date such as 27 Nov 2026',
  chooseDate: 'Choose the payment date',
  /** What a credit-history entry is, in place of the internal reference it carries. */
  entry: 'Entry',
  demoCredits: 'Demo credits',
  trial: 'trial',
  trials: 'trials',
  backToInvite: 'Back to Invite User',
  subscriptionDetails: 'Subscription details',
  paymentCalculation: 'Payment calculation',
  userInformation: 'User information',
  paymentDetails: 'Payment details',
  username: 'Username',
  email: 'Email',
  mobileNumber: 'Mobile number',
  companyName: 'Company name',
  transactionId: 'Transaction ID',
  paymentMethod: 'Payment method',
  paymentDate: 'Payment date',
  remarks: 'Remarks',
  cancel: 'Cancel',
  /** Header of the row-actions column (read by screen readers only). */
  actions: 'Actions',
  back: 'Back',
  creditsInvalid: 'Credits must be a whole number of at least 1',
  priceInvalid: 'Price per credit must be at least ₹1 (up to 2 decimals)',
  billingTitle: 'Billing',
  billingSubtitle: 'Your subscription, interview credits and API keys',
  creditBalance: 'Credit balance',
  currentSubscription: 'Current subscription',
  noSubscription: 'No active subscription',
  period: 'Period',
  upcoming: 'Upcoming (paid ahead)',
  buyCredits: 'Buy credits',
  creditsToBuy: 'Credits to buy',
  pricePerCreditNote: 'per credit, plus GST',
  pay: 'Pay',
  ledger: 'Credit history',
  ledgerEmpty: 'No credit movements yet.',
  date: 'Date',
  description: 'Description',
  change: 'Credits',
  apiKeys: 'API keys',
  apiKeysHint: 'The interview product uses an API key to spend this organization’s credits.',
  apiKeyName: 'Key name',
  createKey: 'Create key',
  revoke: 'Revoke',
  revokeTitle: 'Revoke API key',
  revokeMessage: 'The interview product will no longer be able to use this key. This cannot be undone.',
  keyCreatedTitle: 'Your new API key',
  keyCreatedHint: 'Copy it now: it is shown only once.',
  copy: 'Copy',
  copied: 'Copied',
  done: 'Done',
  noKeys: 'No API keys yet.',
  prefix: 'Key',
  created: 'Created',
  lastUsed: 'Last used',
  status: 'Status',
  active: 'Active',
  revoked: 'Revoked',
  never: 'Never',
  sandboxTitle: 'Test checkout',
  sandboxHint: 'Sandbox payments: no money moves. Card 4000 0000 0000 0002 is declined.',
  cardNumber: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvv: 'CVV',
  cardName: 'Name on card',
  autoRenewField: 'Renew automatically each month',
  autoRenewFieldHint:
    'A new period with these terms opens each month; the organization can turn this off on its Billing page.',
  renewsAutomatically: 'Renews automatically',
  yes: 'Yes',
  no: 'No',
  // The plan and its renewals (Billing page).
  planTitle: 'Plan and renewals',
  creditsPerMonth: 'Credits a month',
  planPricePerCredit: 'Price per credit',
  gst: 'GST',
  amountPerMonth: 'Amount a month (GST included)',
  currentPeriod: 'Current period',
  nextRenewal: 'Next renewal',
  /** The next renewal when automatic renewal is off. */
  endsOn: (day: string) => `None: the plan ends on ${day}`,
  paidBy: 'How it is paid',
  planStatus: 'Plan status',
  owed: 'Owed',
  pastDueBody: (owed: string, since: string) =>
    `${owed} is owed since ${since}. Pay the renewal waiting below: after ${RENEWAL_GRACE_DAYS} days unpaid the plan is suspended.`,
  suspendedBody: (owed: string) => `${owed} is owed. No new period is renewed until it is paid.`,
  paidManually: 'Manual payment',
  mandateAuthorized: 'Card mandate, authorized',
  mandateCancelled: 'Manual payment (the card mandate was cancelled)',
  autoRenew: 'Automatic renewal',
  on: 'On',
  off: 'Off',
  renewalNoticeOnly: 'Renewals are paid through the renewal notice.',
  setUpMandate: 'Set up card mandate',
  mandateTitle: 'Set up a card mandate',
  mandateExplanation: (amountPaise: number) =>
    `The mandate lets the portal debit this card each month, for up to ${formatRupees(amountPaise)} (the plan’s amount with GST). A debit above ${formatRupees(MANDATE_SILENT_LIMIT_PAISE)} needs your approval each time.`,
  mandateSandboxHint: (declined: string, failing: string) =>
    `Sandbox mandate: no money moves. Card ${declined} is declined; card ${failing} is authorized but its debits fail.`,
  authorizeMandate: 'Authorize mandate',
  mandateDone: 'Card mandate authorized. Renewals are debited from this card.',
  latestRenewals: 'Latest renewals',
  noRenewals: 'No renewals yet.',
  renewalPeriod: 'Period',
  noticeSent: 'Notice sent',
  attempts: 'Attempts',
  lastError: 'Last error',
  none: '—',
  renewalActionsFor: (period: string) => `Actions for ${period}`,
  skipDebit: 'Skip this debit',
  skipTitle: 'Skip this debit?',
  skipMessage: (amount: string, period: string) =>
    `${amount} for ${period} will not be charged. The plan stays in place and renews again next month.`,
  payNow: 'Pay now',
  // The operator's Renewals page.
  renewalsTitle: 'Renewals',
  renewalsSubtitle:
    'Every organization’s monthly renewals: what is due, waiting for the customer, declined or lapsed.',
  renewalsView: 'Renewals to show',
  renewalsEmpty: 'No renewals in this view.',
  renewalsLoadFailed: 'The renewals could not be loaded.',
  organization: 'Organization',
  nextStep: 'Next attempt or notice',
  nextAttempt: (when: string) => `Next attempt ${when}`,
  noticeSentOn: (day: string) => `Notice sent ${day}`,
  recordPayment: 'Record payment',
  recordPaymentTitle: 'Record a payment for this renewal',
  recordPaymentHint:
    'The period’s tax invoice is issued and its credits are granted when the payment is recorded.',
  paymentRecorded: 'Payment recorded: the period’s invoice is issued and its credits granted.',
  recordFailed: 'The payment could not be recorded.',
} as const;

/** A plan's status, as the card reads it. */
export const planStatusLabels = {
  active: 'Active',
  past_due: 'Payment overdue',
  suspended: 'Suspended',
} as const satisfies Record<PlanStatus, string>;

/** A renewal's status, as its chip reads. */
export const renewalStatusLabels = {
  scheduled: 'Scheduled',
  notified: 'Debit announced',
  skipped: 'Skipped',
  awaiting_authentication: 'Waiting for approval',
  awaiting_payment: 'Waiting for payment',
  charging: 'Charging',
  charged: 'Charged',
  paid: 'Paid',
  failed: 'Declined',
  lapsed: 'Lapsed',
} as const satisfies Record<RenewalStatus, string>;

/** The operator's views of the renewals, as its tabs read. */
export const renewalViewLabels = {
  due: `Due in ${RENEWALS_DUE_WITHIN_DAYS} days`,
  pending: 'Waiting for the customer',
  failed: 'Declined',
  lapsed: 'Lapsed',
  all: 'All',
} as const satisfies Record<RenewalView, string>;

export const paymentMethodLabels = {
  bank_transfer: 'Bank Transfer',
  cash: 'Cash',
  check: 'Check',
  upi: 'UPI',
  other: 'Other',
} as const;

export const ledgerReasonLabels = {
  subscription: 'Subscription credits',
  demo_trial: 'Demo trials',
  purchase: 'Credits bought online',
  usage: 'Used by the interview product',
  adjustment: 'Adjustment',
  refund: 'Credits taken back by a refund',
  expiry: 'Unused credits expired at a renewal',
  rollover: 'Unused credits carried over',
} as const satisfies Record<LedgerReason, string>;

/** What a credit-history entry is (LedgerTable), in the customer's words. */
export const ledgerEntryKindLabels = {
  onboarding: 'Onboarding',
  manualPayment: 'Manual payment',
  payment: 'Payment',
  refund: 'Refund',
  usage: 'Interview',
  adjustment: 'Adjustment',
  renewal: 'Renewal',
  upgrade: 'Plan upgrade',
  expiry: 'Expired',
  rollover: 'Carried over',
} as const;

export function trialLabel(n: number): string {
  return `${n} ${n === 1 ? labels.trial : labels.trials}`;
}
