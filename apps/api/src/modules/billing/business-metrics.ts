import type { BusinessMetrics } from '../../core/metrics/index.js';
import type { OrderRow } from './orders.repo.js';
import type { PaymentRow } from './payments.repo.js';

/**
 * Counts an online payment once the transaction that applied it committed (verify, or a webhook): the
 * money, and the credits it bought (a renewal's, when the order paid one).
 */
export function countOnlinePayment(
  metrics: BusinessMetrics,
  channel: 'checkout' | 'webhook',
  order: OrderRow,
) {
  metrics.paymentCaptured(channel, order.amountPaise);
  metrics.creditsSold(order.renewalId ? 'renewal' : 'online', order.credits);
}

/** Counts a manual payment once recorded: captured when the money was received (it has an invoice). */
export function countManualPayment(metrics: BusinessMetrics, payment: PaymentRow) {
  if (payment.paymentCapture) metrics.paymentCaptured('manual', payment.amountPaise);
}
