import {
  formatDate,
  ORDERABLE_RENEWAL_STATUSES,
  PAYABLE_RENEWAL_STATUSES,
  SKIPPABLE_RENEWAL_STATUSES,
  type BillingPlan,
  type Renewal,
  type RenewalStatus,
} from '@portal/shared';
import { labels } from '../labels';

/** Which actions the API allows on a renewal in each status (docs/product.md "Renewals"). */
export const SKIPPABLE_STATUSES: readonly RenewalStatus[] = SKIPPABLE_RENEWAL_STATUSES;
export const ORDERABLE_STATUSES: readonly RenewalStatus[] = ORDERABLE_RENEWAL_STATUSES;
export const RECORDABLE_STATUSES: readonly RenewalStatus[] = PAYABLE_RENEWAL_STATUSES;

/** `1 Nov 2026 – 1 Dec 2026` */
export function renewalPeriod(renewal: Pick<Renewal, 'periodStart' | 'periodEnd'>): string {
  return `${formatDate(renewal.periodStart)} – ${formatDate(renewal.periodEnd)}`;
}

/** How the plan's renewals are paid, in the customer's words. */
export function collectionText(plan: Pick<BillingPlan, 'collection' | 'mandateStatus'>): string {
  if (plan.collection === 'mandate' && plan.mandateStatus === 'authorized') return labels.mandateAuthorized;
  if (plan.mandateStatus === 'cancelled') return labels.mandateCancelled;
  return labels.paidManually;
}
