import { formatCount, formatDate, formatRupees, messages } from '@portal/shared';
import type { RenewalRow } from './renewals.repo.js';

const MERCHANT = 'Interview Credits Portal';

/**
 * A renewal's notice. For a mandate debit it is the pre-debit notice the RBI's e-mandate rules ask
 * for: merchant, amount, date, reference and purpose, and how to skip the debit or stop renewing.
 * `summary` is the portal notification's text.
 */
export function renewalNoticeMail(input: { renewal: RenewalRow; chargeAt: Date; billingLink: string }) {
  const { renewal, chargeAt, billingLink } = input;
  const amount = formatRupees(renewal.amountPaise);
  const purpose = `${formatCount(renewal.credits)} interview credits for ${formatDate(renewal.periodStart)} to ${formatDate(renewal.periodEnd)}`;
  const details = [
    `Merchant: ${MERCHANT}`,
    `Amount: ${amount} (GST included)`,
    `Purpose: ${purpose}`,
    `Reference: ${renewal.id}`,
  ];
  if (renewal.status === 'notified') {
    return {
      kind: 'renewal_notice' as const,
      subject: messages.renewals.preDebitTitle,
      summary: `${amount} will be debited from your card mandate on ${formatDate(chargeAt)} for ${purpose}.`,
      text: [
        `${amount} will be debited from your card mandate on ${formatDate(chargeAt)}.`,
        '',
        ...details,
        `Debit date: ${formatDate(chargeAt)}`,
        '',
        `To skip this debit or turn automatic renewal off, open Billing before that date: ${billingLink}`,
      ].join('\n'),
    };
  }
  if (renewal.status === 'awaiting_authentication') {
    return {
      kind: 'renewal_notice' as const,
      subject: messages.renewals.authenticationTitle,
      summary: `Your renewal of ${amount} is above ₹15,000, so your bank needs your approval: pay it on Billing.`,
      text: [
        `Your renewal of ${amount} is above ₹15,000, so it cannot be debited without your approval each time.`,
        '',
        ...details,
        '',
        `Approve and pay it on Billing: ${billingLink}`,
      ].join('\n'),
    };
  }
  return {
    kind: 'renewal_notice' as const,
    subject: messages.renewals.manualTitle,
    summary: `${amount} is due by ${formatDate(renewal.periodStart)} for ${purpose}.`,
    text: [
      `Your subscription renews on ${formatDate(renewal.periodStart)}. Amount due: ${amount}.`,
      '',
      ...details,
      '',
      `Pay by bank transfer, UPI or cheque and send us the transaction reference; your administrator records it and the period's credits are added. Billing: ${billingLink}`,
    ].join('\n'),
  };
}
