import { paymentSchema, type Payment } from '@portal/shared';
import { ORG_ID } from './users';

/** A payment record as the API answers one: ₹1,180 received by hand unless told otherwise. */
export function aPayment(fields: Partial<Payment> = {}): Payment {
  return paymentSchema.parse({
    id: 'p1',
    organizationId: ORG_ID,
    subscriptionId: 's1',
    amountPaise: 118_000,
    providerPaymentId: null,
    providerOrderId: null,
    paymentStatus: 'CREATED',
    paymentMethod: 'MANUAL',
    paymentCapture: true,
    manualReferenceNumber: null,
    receivedBy: 'admin',
    paymentNotes: null,
    paymentProofReference: null,
    paymentDate: null,
    refundAmountPaise: 0,
    refundDate: null,
    refundId: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  } satisfies Payment);
}
