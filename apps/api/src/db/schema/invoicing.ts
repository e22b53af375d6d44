import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { payments } from './billing.js';
import { createdAt, id, timestampTz, updatedAt } from './columns.js';
import { organizations } from './tenancy.js';

/**
 * Tax invoices and credit notes (docs/product.md, "Tax invoices"). Both are immutable once issued:
 * migration 0007 adds a trigger that refuses UPDATE and DELETE on them. Money is integer paise.
 */

/** The seller's particulars; one row (id 'seller'), kept by the platform operator in Settings. */
export const sellerTaxProfile = pgTable('seller_tax_profile', {
  id: text('id').primaryKey().default('seller'),
  legalName: text('legal_name').notNull(),
  address: text('address').notNull(),
  stateCode: text('state_code').notNull(),
  gstin: text('gstin').notNull(),
  pan: text('pan').notNull(),
  sac: text('sac').notNull(),
  invoicePrefix: text('invoice_prefix').notNull(),
  creditNotePrefix: text('credit_note_prefix').notNull(),
  signatory: text('signatory').notNull(),
  updatedBy: uuid('updated_by'),
  updatedAt: updatedAt(),
});

/**
 * The last number given with each prefix (in capitals) in each financial year, on invoices and credit
 * notes together: a prefix is a series, whichever kind of document carries it (migration 0011,
 * docs/decisions/020). Taking the next one updates this row, which stays locked until the issuing
 * transaction ends: numbers are consecutive with no gap.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    prefix: text('prefix').notNull(),
    financialYear: text('financial_year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.prefix, t.financialYear] })],
);

/**
 * Every number issued, invoices and credit notes together, whatever their case: a trigger on both
 * tables (migration 0011) adds each document's number, so the database refuses a number given twice.
 */
export const taxDocumentNumbers = pgTable(
  'tax_document_numbers',
  {
    documentId: uuid('document_id').primaryKey(),
    kind: text('kind', { enum: ['invoice', 'credit_note'] }).notNull(),
    number: text('number').notNull(),
    financialYear: text('financial_year').notNull(),
  },
  (t) => [uniqueIndex('tax_document_numbers_number').on(sql`upper(${t.number})`)],
);

/** A party as the document states it, copied at issue so a later edit never changes it. */
export interface PartySnapshot {
  name: string;
  address: string;
  gstin: string | null;
  stateCode: string;
}
export interface SellerSnapshot extends PartySnapshot {
  gstin: string;
  pan: string;
  signatory: string;
}

/** The columns an invoice and a credit note share. */
const taxDocumentColumns = () => ({
  id: id(),
  number: text('number').notNull().unique(),
  financialYear: text('financial_year').notNull(),
  /** The serial within its prefix's series: two prefixes each count from 1 (see documentCounters). */
  sequence: integer('sequence').notNull(),
  issuedAt: timestampTz('issued_at').notNull(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id),
  paymentId: uuid('payment_id')
    .notNull()
    .references(() => payments.id),
  seller: jsonb('seller').$type<SellerSnapshot>().notNull(),
  buyer: jsonb('buyer').$type<PartySnapshot>().notNull(),
  placeOfSupplyCode: text('place_of_supply_code').notNull(),
  intraState: boolean('intra_state').notNull(),
  sac: text('sac').notNull(),
  description: text('description').notNull(),
  quantity: integer('quantity').notNull(),
  unitRatePaise: integer('unit_rate_paise').notNull(),
  taxableValuePaise: integer('taxable_value_paise').notNull(),
  taxRateBp: integer('tax_rate_bp').notNull(),
  cgstPaise: integer('cgst_paise').notNull(),
  sgstPaise: integer('sgst_paise').notNull(),
  igstPaise: integer('igst_paise').notNull(),
  totalPaise: integer('total_paise').notNull(),
  createdAt: createdAt(),
});

export const invoices = pgTable('invoices', taxDocumentColumns(), (t) => [
  unique('invoices_payment').on(t.paymentId),
  index('invoices_org_issued').on(t.organizationId, t.issuedAt),
  index('invoices_issued').on(t.issuedAt),
]);

export const creditNotes = pgTable(
  'credit_notes',
  {
    ...taxDocumentColumns(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    /** The provider's refund id (or the portal's, for a payment received outside it). */
    refundId: text('refund_id').notNull().unique(),
    reason: text('reason').notNull(),
    creditsTakenBack: integer('credits_taken_back').notNull(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    index('credit_notes_invoice').on(t.invoiceId),
    index('credit_notes_org_issued').on(t.organizationId, t.issuedAt),
    index('credit_notes_issued').on(t.issuedAt),
  ],
);
