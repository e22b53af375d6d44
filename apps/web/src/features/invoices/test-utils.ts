import { creditNoteSchema, invoiceSchema, type CreditNote, type Invoice } from '@portal/shared';

export const ORG_ID = '33333333-3333-4333-8333-333333333333';

/** An invoice of ₹1,180.00 (₹1,000 + 18 % GST within Karnataka) as the API lists it. */
export function makeInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return invoiceSchema.parse({
    id: 'inv-1',
    number: 'IC/26-27/000001',
    financialYear: '26-27',
    // 10 April 2026, 00:30 in India: still 9 April in UTC.
    issuedAt: '2026-04-09T19:00:00.000Z',
    organizationId: ORG_ID,
    buyerName: 'Acme Hiring',
    buyerGstin: '29AAACI1234H1ZU',
    placeOfSupplyCode: '29',
    intraState: true,
    paymentId: 'pay-1',
    quantity: 10,
    taxableValuePaise: 100_000,
    taxRateBp: 1800,
    cgstPaise: 9_000,
    sgstPaise: 9_000,
    igstPaise: 0,
    totalPaise: 118_000,
    refundedPaise: 0,
    ...overrides,
  } satisfies Invoice);
}

export function makeCreditNote(overrides: Partial<CreditNote> = {}): CreditNote {
  return creditNoteSchema.parse({
    id: 'cn-1',
    number: 'CN/26-27/000001',
    financialYear: '26-27',
    issuedAt: '2026-05-02T06:00:00.000Z',
    organizationId: ORG_ID,
    buyerName: 'Acme Hiring',
    buyerGstin: null,
    placeOfSupplyCode: '29',
    intraState: true,
    invoiceId: 'inv-1',
    invoiceNumber: 'IC/26-27/000001',
    paymentId: 'pay-1',
    refundId: 'rfnd_1',
    reason: 'Bought twice by mistake',
    creditsTakenBack: 5,
    taxableValuePaise: 50_000,
    taxRateBp: 1800,
    cgstPaise: 4_500,
    sgstPaise: 4_500,
    igstPaise: 0,
    totalPaise: 59_000,
    ...overrides,
  } satisfies CreditNote);
}
