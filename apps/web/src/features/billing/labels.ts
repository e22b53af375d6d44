import type { LedgerReason } from '@portal/shared';

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
} as const;

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
} as const satisfies Record<LedgerReason, string>;

/** What a credit-history entry is (LedgerTable), in the customer's words. */
export const ledgerEntryKindLabels = {
  onboarding: 'Onboarding',
  manualPayment: 'Manual payment',
  payment: 'Payment',
  refund: 'Refund',
  usage: 'Interview',
  adjustment: 'Adjustment',
} as const;

export function trialLabel(n: number): string {
  return `${n} ${n === 1 ? labels.trial : labels.trials}`;
}
