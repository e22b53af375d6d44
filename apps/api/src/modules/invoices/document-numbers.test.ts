import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, type CreditNote, type Invoice } from '@portal/shared';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import { createPostgresDatabase, TEST_SELLER_PROFILE, usePostgres } from '../../../test/test-database.js';
import { migrationsFolder, openDatabase } from '../../db/client.js';
import { creditNotes, documentCounters, invoices } from '../../db/schema/index.js';
import { tenantAdmin } from '../billing/test-helpers.js';
import { takeNextNumber } from './invoices.repo.js';

/**
 * Document numbers stay unique within a financial year however the prefixes change (GST Rule 46:
 * "a consecutive serial number ... unique for a financial year"; review issue 29 item 3). This file
 * has a database of its own, so the prefixes it sets change no other suite's numbers.
 */

let ctx: TestContext;
let root: Session;
let orgId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  orgId = (await tenantAdmin(ctx, 'Prefix Swap Co')).orgId;
});
afterAll(() => ctx.close());

async function setPrefixes(invoicePrefix: string, creditNotePrefix: string) {
  const res = await root.put('/api/auth/tax-profile', {
    ...TEST_SELLER_PROFILE,
    invoicePrefix,
    creditNotePrefix,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A manual payment of ₹1,180 marked received: its invoice. */
async function pay(): Promise<Invoice> {
  const res = await root.post('/api/auth/payments', {
    organizationId: orgId,
    amountPaise: 118_000,
    manualReferenceNumber: `UTR-${randomUUID()}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  const [invoice] = await ctx.database.db
    .select()
    .from(invoices)
    .where(eq(invoices.paymentId, res.json().data.id));
  return { ...invoice!, issuedAt: invoice!.issuedAt.toISOString() } as unknown as Invoice;
}

/** A refund of ₹118 of the invoice's payment: its credit note. */
async function refund(invoice: Invoice): Promise<CreditNote> {
  const res = await root.post(
    `/api/auth/payments/${invoice.paymentId}/refunds`,
    { amountPaise: 11_800, reason: 'Customer asked' },
    { headers: { [IDEMPOTENCY_HEADER]: randomUUID() } },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.creditNote as CreditNote;
}

/** Every number issued so far, invoices and credit notes together. */
async function allNumbers(): Promise<string[]> {
  const rows = await ctx.database.db.execute<{ number: string }>(
    sql`select ${invoices.number} as number from ${invoices} union all select ${creditNotes.number} from ${creditNotes}`,
  );
  return (rows as unknown as { rows: { number: string }[] }).rows.map((r) => r.number);
}

const serial = (number: string) => number.split('/')[2];
const duplicates = (numbers: string[]) =>
  numbers.filter((n, i) => numbers.findIndex((m) => m.toUpperCase() === n.toUpperCase()) !== i);

describe('document numbers when the prefixes change mid-year', () => {
  it('swapping the invoice and credit-note prefixes, then swapping back, never repeats a number', async () => {
    const first = await pay();
    const second = await pay();
    const note = await refund(first);
    expect([first.number, second.number, note.number].map((n) => n.split('/')[0])).toEqual([
      'IC',
      'IC',
      'CN',
    ]);

    // The swap the review reported: a credit note numbered like an issued invoice.
    await setPrefixes('CN', 'IC');
    const third = await pay();
    const swappedNote = await refund(second);
    expect(third.number.startsWith('CN/')).toBe(true);
    expect(swappedNote.number.startsWith('IC/')).toBe(true);
    expect(duplicates(await allNumbers())).toEqual([]);

    // Each prefix is a series of its own: the next number after the last one it carried.
    expect(serial(third.number)).toBe(String(Number(serial(note.number)) + 1).padStart(6, '0'));
    expect(serial(swappedNote.number)).toBe(String(Number(serial(second.number)) + 1).padStart(6, '0'));

    // Back to IC and CN, and a prefix differing only in case: still nothing repeats.
    await setPrefixes('IC', 'CN');
    await refund(third);
    await pay();
    await setPrefixes('ic', 'X');
    await pay();
    await refund(first);
    expect(duplicates(await allNumbers())).toEqual([]);
  });

  it('a prefix change racing payments and refunds: every prefix’s serials run 1, 2, 3… with no repeat', async () => {
    await setPrefixes('IC', 'CN');
    const paid: Invoice[] = [];
    for (let i = 0; i < 8; i++) paid.push(await pay());
    const swaps: [string, string][] = [
      ['CN', 'IC'],
      ['IC', 'CN'],
      ['R', 'CN'],
      ['CN', 'R'],
      ['IC', 'CN'],
    ];
    await Promise.all([
      ...paid.map((invoice) => refund(invoice)),
      ...paid.map(() => pay()),
      ...swaps.map(([invoicePrefix, creditNotePrefix]) => setPrefixes(invoicePrefix, creditNotePrefix)),
    ]);
    const numbers = await allNumbers();
    expect(duplicates(numbers)).toEqual([]);
    const series = new Map<string, number[]>();
    for (const number of numbers) {
      const [prefix, year] = number.split('/');
      const key = `${prefix!.toUpperCase()}/${year}`;
      series.set(key, [...(series.get(key) ?? []), Number(serial(number))]);
    }
    for (const [key, serials] of series) {
      expect(
        serials.sort((a, b) => a - b),
        key,
      ).toEqual(Array.from({ length: serials.length }, (_, i) => i + 1));
    }
  });

  it('the database refuses a number already issued, on the other kind of document and in any case', async () => {
    const [invoice] = await ctx.database.db.select().from(invoices).limit(1);
    const [note] = await ctx.database.db.select().from(creditNotes).limit(1);
    for (const number of [invoice!.number, invoice!.number.toLowerCase()]) {
      await expect(
        ctx.database.db
          .insert(creditNotes)
          .values({ ...note!, id: randomUUID(), refundId: `rfnd_${randomUUID()}`, number }),
      ).rejects.toThrow();
    }
    await expect(
      ctx.database.db.insert(invoices).values({ ...invoice!, id: randomUUID(), number: note!.number }),
    ).rejects.toThrow();
    // The register of issued numbers is as immutable as the documents.
    await expect(ctx.database.db.execute(sql`delete from tax_document_numbers`)).rejects.toThrow();
  });
});

describe('migration 0011 on documents issued before it', () => {
  it('counts each prefix on from its highest serial on either kind, and keeps a duplicate already issued', async () => {
    const older = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    const scratch = usePostgres ? await createPostgresDatabase() : null;
    const database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { dataDir: 'memory://' });
    try {
      cpSync(migrationsFolder, older, { recursive: true });
      const journalPath = join(older, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < '0011');
      writeFileSync(journalPath, JSON.stringify(journal));
      await database.migrate(older);

      // Raw statements: the schema in code no longer has the old counters' series column.
      const db = database.db;
      const {
        rows: [org],
      } = await db.execute<{ id: string }>(
        sql`insert into organizations (name) values ('Old Co') returning id`,
      );
      const document = async (
        table: 'invoices' | 'credit_notes',
        number: string,
        sequence: number,
        extra = sql``,
      ) => {
        const {
          rows: [payment],
        } = await db.execute<{ id: string }>(
          sql`insert into payments (organization_id, amount_paise) values (${org!.id}, 118000) returning id`,
        );
        return db.execute<{ id: string }>(sql`
          insert into ${sql.identifier(table)} (number, financial_year, sequence, issued_at, organization_id,
            payment_id, seller, buyer, place_of_supply_code, intra_state, sac, description, quantity,
            unit_rate_paise, taxable_value_paise, tax_rate_bp, cgst_paise, sgst_paise, igst_paise, total_paise
            ${extra.queryChunks.length ? sql`, invoice_id, refund_id, reason, credits_taken_back` : sql``})
          values (${number}, '26-27', ${sequence}, now(), ${org!.id}, ${payment!.id}, '{}', '{}', '29', true,
            '998314', 'AI interview credits', 1, 100000, 100000, 1800, 9000, 9000, 0, 118000 ${extra})
          returning id`);
      };
      const {
        rows: [invoice],
      } = await document('invoices', 'IC/26-27/000001', 1);
      await document('invoices', 'IC/26-27/000002', 2);
      const note = (number: string, sequence: number) =>
        document('credit_notes', number, sequence, sql`, ${invoice!.id}, ${randomUUID()}, 'Refund', 0`);
      await note('CN/26-27/000001', 1);
      // What the swap did before this migration: a credit note with an invoice's number.
      await note('IC/26-27/000002', 2);
      await db.execute(
        sql`insert into document_counters (series, financial_year, last_number) values ('invoice', '26-27', 2), ('credit_note', '26-27', 2)`,
      );

      await database.migrate();
      const counters = await db.select().from(documentCounters).orderBy(documentCounters.prefix);
      expect(counters.map((c) => [c.prefix, c.financialYear, c.lastNumber])).toEqual([
        ['CN', '26-27', 1],
        ['IC', '26-27', 2],
      ]);
      const registered = await db.execute<{ number: string; kind: string }>(
        sql`select number, kind from tax_document_numbers order by number, kind`,
      );
      expect(registered.rows).toEqual([
        { number: 'CN/26-27/000001', kind: 'credit_note' },
        { number: 'IC/26-27/000001', kind: 'invoice' },
        { number: 'IC/26-27/000002', kind: 'invoice' },
      ]);
      expect(await db.transaction((tx) => takeNextNumber(tx, 'ic', '26-27'))).toBe(3);
      expect(await db.transaction((tx) => takeNextNumber(tx, 'CN', '26-27'))).toBe(2);
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(older, { recursive: true, force: true });
    }
  });
});
