import type { LedgerEntry } from '@portal/shared';
import { ledgerEntryKindLabels } from '../labels';

export interface LedgerEntryKind {
  /** What the entry is: Onboarding, Manual payment, Payment, Renewal, Plan upgrade, Refund, Interview, Adjustment, Expired or Carried over. */
  label: string;
  /** The number the customer knows it by (the payment's or refund's id, their interview's), if any. */
  number?: string;
}

/**
 * A credit-history entry as the customer reads it. Its internal `reference` (`subscription:<id>`,
 * `demo:<id>`) only keeps each grant from being written twice, and never shows; the references that
 * are someone's number (the provider's payment and refund ids, the interview product's own) do.
 */
export function ledgerEntryKind(entry: LedgerEntry): LedgerEntryKind {
  const withNumber = (label: string) => (entry.reference ? { label, number: entry.reference } : { label });
  switch (entry.reason) {
    case 'subscription':
      // A month's renewal, or an upgrade's share of the period (their references name them).
      if (entry.reference?.startsWith('renewal:')) return { label: ledgerEntryKindLabels.renewal };
      if (entry.reference?.startsWith('upgrade:')) return { label: ledgerEntryKindLabels.upgrade };
      // Set up by the platform: with the manual payment recorded at onboarding, or without one.
      return {
        label: entry.paymentId ? ledgerEntryKindLabels.manualPayment : ledgerEntryKindLabels.onboarding,
      };
    case 'demo_trial':
      return { label: ledgerEntryKindLabels.onboarding };
    case 'purchase':
      return withNumber(ledgerEntryKindLabels.payment);
    case 'refund':
      return withNumber(ledgerEntryKindLabels.refund);
    case 'usage':
      return withNumber(ledgerEntryKindLabels.usage);
    case 'adjustment':
      return { label: ledgerEntryKindLabels.adjustment };
    case 'expiry':
      return { label: ledgerEntryKindLabels.expiry };
    case 'rollover':
      return { label: ledgerEntryKindLabels.rollover };
  }
}
