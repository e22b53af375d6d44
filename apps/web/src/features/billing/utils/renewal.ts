import { formatDate, type BillingPlan, type Renewal, type RenewalStatus } from '@portal/shared';
import { labels } from '../labels';

/*
 * Which actions the API allows on a renewal in each status (docs/product.md "Renewals"; the API's
 * renewals service answers 409 otherwise). The shared package names only the open statuses, so the
 * lists the buttons follow are here.
 */

/** `POST /auth/renewals/:id/skip`: a renewal not yet charged or paid. */
export const SKIPPABLE_STATUSES: readonly RenewalStatus[] = [
  'scheduled',
  'notified',
  'awaiting_authentication',
  'awaiting_payment',
];

/** `POST /auth/renewals/:id/order`: the customer pays online (approval needed, declined, lapsed). */
export const ORDERABLE_STATUSES: readonly RenewalStatus[] = ['awaiting_authentication', 'failed', 'lapsed'];

/** `POST /auth/renewals/:id/payments`: the operator records a payment received. */
export const RECORDABLE_STATUSES: readonly RenewalStatus[] = [
  'awaiting_payment',
  'awaiting_authentication',
  'failed',
  'lapsed',
];

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
