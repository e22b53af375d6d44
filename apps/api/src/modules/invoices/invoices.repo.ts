import { and, count, desc, eq, gte, ilike, inArray, lt, or, sql, sum, type SQL } from 'drizzle-orm';
import {
  financialYearLabel,
  istMonthStart,
  type InvoiceFilter,
  type SellerTaxProfileFields,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { offsetOf, type PageQuery } from '../../lib/paging.js';
import {
  companyDetails,
  creditNotes,
  documentCounters,
  invoices,
  organizations,
  sellerTaxProfile,
} from '../../db/schema/index.js';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceInsert = typeof invoices.$inferInsert;
export type CreditNoteRow = typeof creditNotes.$inferSelect;
export type CreditNoteInsert = typeof creditNotes.$inferInsert;
export type SellerTaxProfileRow = typeof sellerTaxProfile.$inferSelect;

export async function findSellerTaxProfile(db: Db): Promise<SellerTaxProfileRow | null> {
  const [row] = await db.select().from(sellerTaxProfile).limit(1);
  return row ?? null;
}

export async function saveSellerTaxProfile(
  db: Db,
  fields: SellerTaxProfileFields,
  updatedBy: string | null,
): Promise<SellerTaxProfileRow> {
  const values = { ...fields, updatedBy, updatedAt: new Date() };
  const [row] = await db
    .insert(sellerTaxProfile)
    .values({ id: 'seller', ...values })
    .onConflictDoUpdate({ target: sellerTaxProfile.id, set: values })
    .returning();
  return row!;
}

/**
 * The next number of a prefix's series in a financial year, counted on invoices and credit notes
 * together, so a prefix moved from one kind of document to the other never repeats a number
 * (docs/decisions/020). Counted in capitals: "ic" carries on from "IC". The counter row stays locked
 * until the caller's transaction ends, so concurrent issuers wait their turn and a rolled-back one
 * leaves no gap.
 */
export async function takeNextNumber(db: Db, prefix: string, financialYear: string): Promise<number> {
  const [row] = await db
    .insert(documentCounters)
    .values({ prefix: prefix.toUpperCase(), financialYear, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.prefix, documentCounters.financialYear],
      set: { lastNumber: sql`${documentCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentCounters.lastNumber });
  return row!.lastNumber;
}

export async function insertInvoice(db: Db, values: InvoiceInsert): Promise<InvoiceRow> {
  const [row] = await db.insert(invoices).values(values).returning();
  return row!;
}

export async function insertCreditNote(db: Db, values: CreditNoteInsert): Promise<CreditNoteRow> {
  const [row] = await db.insert(creditNotes).values(values).returning();
  return row!;
}

const inScope = (
  column: typeof invoices.organizationId | typeof creditNotes.organizationId,
  scope: string | null,
) => (scope === null ? undefined : eq(column, scope));

export async function findInvoice(db: Db, id: string, scope: string | null): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), inScope(invoices.organizationId, scope)));
  return row ?? null;
}

export async function findInvoiceByPayment(db: Db, paymentId: string): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.paymentId, paymentId));
  return row ?? null;
}

export async function findCreditNote(
  db: Db,
  id: string,
  scope: string | null,
): Promise<CreditNoteRow | null> {
  const [row] = await db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.id, id), inScope(creditNotes.organizationId, scope)));
  return row ?? null;
}

export async function findCreditNoteByRefund(db: Db, refundId: string): Promise<CreditNoteRow | null> {
  const [row] = await db.select().from(creditNotes).where(eq(creditNotes.refundId, refundId));
  return row ?? null;
}

/** Refunded so far against each invoice (the sum of its credit notes), and the credits taken back. */
export async function refundedSoFar(
  db: Db,
  invoiceIds: string[],
): Promise<Map<string, { paise: number; credits: number }>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .select({
      invoiceId: creditNotes.invoiceId,
      paise: sum(creditNotes.totalPaise).mapWith(Number),
      credits: sum(creditNotes.creditsTakenBack).mapWith(Number),
    })
    .from(creditNotes)
    .where(inArray(creditNotes.invoiceId, invoiceIds))
    .groupBy(creditNotes.invoiceId);
  return new Map(rows.map((r) => [r.invoiceId, { paise: r.paise, credits: r.credits }]));
}

/** What the invoice's credit notes have credited so far, figure by figure. */
export async function creditedSoFar(db: Db, invoiceId: string) {
  const [row] = await db
    .select({
      taxableValuePaise: sum(creditNotes.taxableValuePaise).mapWith(Number),
      cgstPaise: sum(creditNotes.cgstPaise).mapWith(Number),
      sgstPaise: sum(creditNotes.sgstPaise).mapWith(Number),
      igstPaise: sum(creditNotes.igstPaise).mapWith(Number),
      totalPaise: sum(creditNotes.totalPaise).mapWith(Number),
    })
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoiceId));
  return {
    taxableValuePaise: row?.taxableValuePaise ?? 0,
    cgstPaise: row?.cgstPaise ?? 0,
    sgstPaise: row?.sgstPaise ?? 0,
    igstPaise: row?.igstPaise ?? 0,
    totalPaise: row?.totalPaise ?? 0,
  };
}

type DocumentTable = typeof invoices | typeof creditNotes;

/** The list and export filters: scope, organization, number or buyer's name, financial year and month. */
function documentFilter(table: DocumentTable, filter: InvoiceFilter, scope: string | null): SQL | undefined {
  const conditions: (SQL | undefined)[] = [inScope(table.organizationId, scope)];
  if (filter.organizationId) conditions.push(eq(table.organizationId, filter.organizationId));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(table.number, pattern), ilike(sql`${table.buyer}->>'name'`, pattern)));
  }
  if (filter.financialYear !== undefined) {
    if (filter.month === undefined) {
      conditions.push(eq(table.financialYear, financialYearLabel(filter.financialYear)));
    } else {
      // April to December are in the year the financial year starts; January to March in the next.
      const year = filter.month >= 4 ? filter.financialYear : filter.financialYear + 1;
      const next = filter.month === 12 ? { year: year + 1, month: 1 } : { year, month: filter.month + 1 };
      conditions.push(
        gte(table.issuedAt, istMonthStart(year, filter.month)),
        lt(table.issuedAt, istMonthStart(next.year, next.month)),
      );
    }
  }
  return and(...conditions);
}

export async function listInvoiceRows(
  db: Db,
  filter: InvoiceFilter & PageQuery,
  scope: string | null,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  const where = documentFilter(invoices, filter, scope);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(desc(invoices.issuedAt), desc(invoices.sequence), desc(invoices.number))
      .limit(filter.pageSize)
      .offset(offsetOf(filter)),
    db.select({ total: count() }).from(invoices).where(where),
  ]);
  return { rows, total: counted!.total };
}

/** A credit note with the number and date of the invoice it adjusts, read in the same query. */
export type CreditNoteListed = CreditNoteRow & { invoiceNumber: string; invoiceIssuedAt: Date };

function selectCreditNotes(db: Db) {
  return db
    .select({ note: creditNotes, invoiceNumber: invoices.number, invoiceIssuedAt: invoices.issuedAt })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId));
}

const listedNote = (r: { note: CreditNoteRow; invoiceNumber: string; invoiceIssuedAt: Date }) => ({
  ...r.note,
  invoiceNumber: r.invoiceNumber,
  invoiceIssuedAt: r.invoiceIssuedAt,
});

export async function listCreditNoteRows(
  db: Db,
  filter: InvoiceFilter & PageQuery,
  scope: string | null,
): Promise<{ rows: CreditNoteListed[]; total: number }> {
  const where = documentFilter(creditNotes, filter, scope);
  const [rows, [counted]] = await Promise.all([
    selectCreditNotes(db)
      .where(where)
      .orderBy(desc(creditNotes.issuedAt), desc(creditNotes.sequence), desc(creditNotes.number))
      .limit(filter.pageSize)
      .offset(offsetOf(filter)),
    db.select({ total: count() }).from(creditNotes).where(where),
  ]);
  return { rows: rows.map(listedNote), total: counted!.total };
}

const EXPORT_BATCH = 500;

/** Every invoice the filter finds, oldest first, read in batches for the register. */
export async function* iterateInvoices(db: Db, filter: InvoiceFilter, scope: string | null) {
  const where = documentFilter(invoices, filter, scope);
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = await db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(invoices.financialYear, invoices.sequence, invoices.number)
      .limit(EXPORT_BATCH)
      .offset(offset);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
  }
}

export async function* iterateCreditNotes(db: Db, filter: InvoiceFilter, scope: string | null) {
  const where = documentFilter(creditNotes, filter, scope);
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = await selectCreditNotes(db)
      .where(where)
      .orderBy(creditNotes.financialYear, creditNotes.sequence, creditNotes.number)
      .limit(EXPORT_BATCH)
      .offset(offset);
    yield* rows.map(listedNote);
    if (rows.length < EXPORT_BATCH) return;
  }
}

/**
 * What an invoice states about the buyer: the company details, else the organization's name. The GST
 * state and GSTIN, one rule for both: a company that has saved Company Details is taken at its word
 * there, even where it left them empty (it may have deregistered); one that has not yet is taken at
 * the particulars given when it was onboarded (organizations, migration 0017).
 */
export async function findBuyerParticulars(db: Db, organizationId: string) {
  const hasDetails = sql`${companyDetails.organizationId} is not null`;
  const [row] = await db
    .select({
      organizationName: organizations.name,
      name: companyDetails.name,
      address: companyDetails.address,
      city: companyDetails.city,
      state: companyDetails.state,
      pincode: companyDetails.pincode,
      country: companyDetails.country,
      gstStateCode: sql<
        string | null
      >`case when ${hasDetails} then ${companyDetails.gstStateCode} else ${organizations.gstStateCode} end`,
      gstin: sql<
        string | null
      >`case when ${hasDetails} then ${companyDetails.gstin} else ${organizations.gstin} end`,
    })
    .from(organizations)
    .leftJoin(companyDetails, eq(companyDetails.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));
  return row ?? null;
}
