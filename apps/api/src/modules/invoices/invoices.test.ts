import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyDetailsBodySchema,
  gstinCheckCharacter,
  IDEMPOTENCY_HEADER,
  messages,
  rupeesInWords,
  type Invoice,
} from '@portal/shared';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import { companyDetailsBody } from '../../../test/fixtures.js';
import { TEST_SELLER_GSTIN, TEST_SELLER_PROFILE } from '../../../test/test-database.js';
import { documentCounters, invoices, payments, sellerTaxProfile } from '../../db/schema/index.js';
import { countRows, onboardingBody, tenantAdmin, terms } from '../billing/test-helpers.js';
import { upsertCompanyDetails } from '../companies/companies.repo.js';
import { systemActor } from '../../core/actor.js';
import { withDb } from '../../core/deps.js';
import { issueInvoice } from './invoices.service.js';

/** A valid GSTIN of a state for a made-up PAN. */
function gstinFor(stateCode: string, pan = 'AAACB1234C'): string {
  const first14 = `${stateCode}${pan}1Z`;
  return first14 + gstinCheckCharacter(first14);
}

let ctx: TestContext;
let root: Session;
let mailDir: string;

beforeAll(async () => {
  mailDir = mkdtempSync(join(tmpdir(), 'portal-invoice-mail-'));
  ctx = await createTestApp({}, { env: { SMTP_URL: `file://${mailDir}` } });
  root = await signIn(ctx.app);
});
afterAll(async () => {
  await ctx.close();
  rmSync(mailDir, { recursive: true, force: true });
});

/** Gives the organization company details with the given GST particulars. */
async function setBuyer(orgId: string, gst: { gstStateCode?: string | null; gstin?: string | null }) {
  const { organizationId: _, ...fields } = companyDetailsBodySchema.parse(
    companyDetailsBody(orgId, { name: 'Buyer Analytics Pvt Ltd', ...gst }),
  );
  await upsertCompanyDetails(ctx.database.db, orgId, fields, ctx.adminId);
}

/** A manual payment of `amountPaise` recorded by the super administrator: it issues the invoice. */
async function pay(orgId: string, amountPaise: number): Promise<Invoice> {
  const res = await root.post('/api/auth/payments', {
    organizationId: orgId,
    amountPaise,
    manualReferenceNumber: `UTR-${Math.random().toString(36).slice(2)}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  const list = await root.get(`/api/auth/invoices?organizationId=${orgId}&pageSize=100`);
  return (list.json().data as Invoice[]).find((i) => i.paymentId === res.json().data.id)!;
}

async function pdfText(url: string, session: Session = root): Promise<string> {
  const res = await session.get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const document = await getDocumentProxy(new Uint8Array(res.rawPayload));
  const { text } = await extractText(document, { mergePages: true });
  return text;
}

describe('numbering', () => {
  it('100 concurrent captured payments of 10 organizations get 100 consecutive numbers, no gap, no duplicate', async () => {
    const orgs = await Promise.all(Array.from({ length: 10 }, (_, i) => tenantAdmin(ctx, `Concurrent ${i}`)));
    const [counter] = await ctx.database.db.select().from(documentCounters);
    const start = counter?.lastNumber ?? 0;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        root.post('/api/auth/payments', {
          organizationId: orgs[i % 10]!.orgId,
          amountPaise: 11_800,
          manualReferenceNumber: `UTR-CONCURRENT-${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(100).fill(201));
    const rows = await ctx.database.db
      .select({ sequence: invoices.sequence, number: invoices.number, paymentId: invoices.paymentId })
      .from(invoices)
      .where(sql`${invoices.sequence} > ${start}`);
    expect(rows.map((r) => r.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => start + i + 1),
    );
    expect(new Set(rows.map((r) => r.paymentId)).size).toBe(100);
    for (const row of rows) {
      expect(row.number).toMatch(/^IC\/\d{2}-\d{2}\/\d{6}$/);
      expect(row.number.length).toBeLessThanOrEqual(16);
    }
  });

  it('31 March 23:59:59 IST and 1 April 00:00:00 IST fall in two financial years, each series from 000001', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Year End Co');
    const issue = (issuedAt: Date) =>
      ctx.database.db.transaction(async (tx) => {
        const [payment] = await tx
          .insert(payments)
          .values({ organizationId: orgId, amountPaise: 11_800, paymentDate: issuedAt })
          .returning();
        const issued = await issueInvoice(withDb(ctx.app.deps, tx), systemActor('test'), {
          payment: payment!,
          subscription: null,
          issuedAt,
        });
        return issued.invoice;
      });
    // 2031: years no other test reaches, so each series starts here.
    const lastMoment = await issue(new Date('2031-03-31T18:29:59.000Z'));
    const firstMoment = await issue(new Date('2031-03-31T18:30:00.000Z'));
    expect(lastMoment.number).toBe('IC/30-31/000001');
    expect(firstMoment.number).toBe('IC/31-32/000001');
    expect([lastMoment.financialYear, firstMoment.financialYear]).toEqual(['30-31', '31-32']);
  });

  it('an issued invoice cannot be changed or deleted, even in SQL', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Immutable Co');
    const invoice = await pay(orgId, 11_800);
    await expect(
      ctx.database.db.update(invoices).set({ totalPaise: 1 }).where(eq(invoices.id, invoice.id)),
    ).rejects.toThrow();
    await expect(ctx.database.db.delete(invoices).where(eq(invoices.id, invoice.id))).rejects.toThrow();
    const [row] = await ctx.database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row!.totalPaise).toBe(11_800);
  });
});

describe('tax split by place of supply', () => {
  it('a buyer registered in the seller’s state (Karnataka): CGST and SGST at 9 % each', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Intra Co');
    await setBuyer(orgId, { gstStateCode: '29', gstin: gstinFor('29') });
    const invoice = await pay(orgId, 118_000);
    expect(invoice).toMatchObject({
      intraState: true,
      placeOfSupplyCode: '29',
      buyerGstin: gstinFor('29'),
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      igstPaise: 0,
      totalPaise: 118_000,
    });
  });

  it('a buyer registered in Maharashtra: IGST at 18 %', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Inter Co');
    await setBuyer(orgId, { gstStateCode: '27', gstin: gstinFor('27') });
    const invoice = await pay(orgId, 118_000);
    expect(invoice).toMatchObject({
      intraState: false,
      placeOfSupplyCode: '27',
      taxableValuePaise: 100_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 18_000,
    });
  });

  it('an unregistered buyer: still a tax invoice, its place of supply the state on record, else the seller’s', async () => {
    const elsewhere = await tenantAdmin(ctx, 'Unregistered Kerala');
    await setBuyer(elsewhere.orgId, { gstStateCode: '32', gstin: null });
    expect(await pay(elsewhere.orgId, 118_000)).toMatchObject({
      buyerGstin: null,
      placeOfSupplyCode: '32',
      intraState: false,
      igstPaise: 18_000,
    });
    const unknown = await tenantAdmin(ctx, 'Unregistered Nowhere');
    expect(await pay(unknown.orgId, 118_000)).toMatchObject({
      buyerGstin: null,
      placeOfSupplyCode: '29',
      intraState: true,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
    });
  });

  it('a tax of an odd number of paise: the odd paisa goes to SGST, and taxable + taxes = paid', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Odd Paise Co');
    // ₹1,000.02 at 18 %: taxable 84,747.45… → 84,747; tax 15,255 = 7,627 + 7,628.
    const invoice = await pay(orgId, 100_002);
    expect(invoice).toMatchObject({ taxableValuePaise: 84_747, cgstPaise: 7_627, sgstPaise: 7_628 });
    expect(invoice.taxableValuePaise + invoice.cgstPaise + invoice.sgstPaise + invoice.igstPaise).toBe(
      100_002,
    );
  });

  it('a subscription paid in full states its agreed taxable value, credits and price per credit', async () => {
    // ₹143 × 7 = ₹1,001; GST 18 % = ₹180.18, charged as ₹180: the agreed taxable value is ₹1,001.
    const body = { ...onboardingBody({ withPayment: true }), subscription: terms(7, 14_300, 1_800, 0) };
    expect(body.subscription.grandTotalAmountPaise).toBe(118_100);
    const res = await root.post('/api/auth/onboarding', body, {
      headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const orgId = res.json().data.user.organizationId as string;
    const list = await root.get(`/api/auth/invoices?organizationId=${orgId}`);
    expect(list.json().data[0]).toMatchObject({
      quantity: 7,
      taxableValuePaise: 100_100,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      totalPaise: 118_100,
    });
  });
});

describe('the PDF', () => {
  it('carries every Rule 46 particular, as a text extractor reads it', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Pdf Co');
    const buyerGstin = gstinFor('29', 'AAACP4321Q');
    await setBuyer(orgId, { gstStateCode: '29', gstin: buyerGstin });
    const invoice = await pay(orgId, 295_000);
    const text = await pdfText(`/api/auth/invoices/${invoice.id}/pdf`);
    const issued = new Date(invoice.issuedAt);
    const ist = new Date(issued.getTime() + 330 * 60_000);
    const date = `${String(ist.getUTCDate()).padStart(2, '0')}/${String(ist.getUTCMonth() + 1).padStart(2, '0')}/${ist.getUTCFullYear()}`;
    for (const particular of [
      'Tax Invoice',
      TEST_SELLER_PROFILE.legalName,
      '12 MG Road',
      TEST_SELLER_GSTIN,
      TEST_SELLER_PROFILE.pan,
      invoice.number,
      date,
      'Buyer Analytics Pvt Ltd',
      buyerGstin,
      'Place of Supply: Karnataka (29)',
      '998314',
      'AI interview credits',
      '2,500.00',
      'CGST @ 9%',
      'SGST @ 9%',
      '225.00',
      '2,950.00',
      rupeesInWords(295_000),
      'Tax payable on reverse charge: No',
      TEST_SELLER_PROFILE.signatory,
    ]) {
      expect(text, particular).toContain(particular);
    }
  });

  it('another organization’s invoice is not found, as if it did not exist', async () => {
    const a = await tenantAdmin(ctx, 'Owner Co');
    const b = await tenantAdmin(ctx, 'Stranger Co');
    const invoice = await pay(a.orgId, 11_800);
    expect((await b.session.get(`/api/auth/invoices/${invoice.id}/pdf`)).statusCode).toBe(404);
    expect((await a.session.get(`/api/auth/invoices/${invoice.id}/pdf`)).statusCode).toBe(200);
  });
});

describe('the receipt', () => {
  it('mails the tenant admins the invoice PDF through the outbox, and notifies them', async () => {
    const tenant = await tenantAdmin(ctx, 'Receipt Co');
    const invoice = await pay(tenant.orgId, 59_000);
    await ctx.app.deps.jobs.settled();
    const mails = readdirSync(mailDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(mailDir, f), 'utf8')))
      .filter((m) => String(m.subject).includes(invoice.number));
    expect(mails).toHaveLength(1);
    const [attachment] = mails[0].attachments;
    expect(attachment.filename).toBe(`${invoice.number.replaceAll('/', '-')}.pdf`);
    const pdf = readFileSync(attachment.path);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;
    expect(text).toContain(invoice.number);
    const bell = await tenant.session.get('/api/auth/notifications');
    expect(JSON.stringify(bell.json())).toContain(invoice.number);
  });
});

describe('listing and the register', () => {
  it('pages, searches by number or buyer, filters by financial year and month; a tenant sees its own', async () => {
    const a = await tenantAdmin(ctx, 'Lister Alpha');
    const b = await tenantAdmin(ctx, 'Lister Beta');
    const mine = await pay(a.orgId, 11_800);
    await pay(a.orgId, 23_600);
    await pay(b.orgId, 11_800);

    const own = (await a.session.get('/api/auth/invoices?pageSize=1')).json();
    expect(own.meta.total).toBe(2);
    expect(own.data).toHaveLength(1);
    const other = (await a.session.get(`/api/auth/invoices?organizationId=${b.orgId}`)).json();
    expect(other.data).toEqual([]);

    const byNumber = (await root.get(`/api/auth/invoices?search=${encodeURIComponent(mine.number)}`)).json();
    expect(byNumber.data.map((i: Invoice) => i.id)).toEqual([mine.id]);
    const byName = (await root.get('/api/auth/invoices?search=Lister%20Beta')).json();
    expect(byName.data.every((i: Invoice) => i.organizationId === b.orgId)).toBe(true);

    const issued = new Date(mine.issuedAt);
    const ist = new Date(issued.getTime() + 330 * 60_000);
    const month = ist.getUTCMonth() + 1;
    const fy = month >= 4 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
    const inMonth = (await a.session.get(`/api/auth/invoices?financialYear=${fy}&month=${month}`)).json();
    expect(inMonth.meta.total).toBe(2);
    const otherMonth = month === 12 ? 11 : month + 1;
    expect(
      (await a.session.get(`/api/auth/invoices?financialYear=${fy}&month=${otherMonth}`)).json().meta.total,
    ).toBe(0);
    expect((await a.session.get(`/api/auth/invoices?financialYear=${fy - 1}`)).json().meta.total).toBe(0);
    const monthAlone = await a.session.get(`/api/auth/invoices?month=${month}`);
    expect(monthAlone.statusCode).toBe(400);
  });

  it('exports the GSTR-1 register: B2B with the GSTIN, B2CS by place of supply, only the caller’s organization', async () => {
    const a = await tenantAdmin(ctx, 'Register Alpha');
    const b = await tenantAdmin(ctx, 'Register Beta');
    await setBuyer(a.orgId, { gstStateCode: '27', gstin: gstinFor('27', 'AAACR5555R') });
    const registered = await pay(a.orgId, 118_000);
    const foreign = await pay(b.orgId, 11_800);

    const res = await a.session.get('/api/auth/invoices/export');
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['B2B', 'B2CL', 'B2CS', 'Credit Notes']);
    const b2b = workbook.getWorksheet('B2B')!;
    const header = b2b.getRow(1).values as unknown[];
    expect(header).toContain('GSTIN/UIN of Recipient');
    const rows = b2b.getSheetValues().slice(2) as unknown[][];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(registered.number);
    expect(rows[0]).toContain('27-Maharashtra');
    expect(rows[0]).toContain(1000);
    expect(JSON.stringify(workbook.worksheets.map((s) => s.getSheetValues()))).not.toContain(foreign.number);

    const all = new ExcelJS.Workbook();
    await all.xlsx.load((await root.get('/api/auth/invoices/export')).rawPayload as unknown as ArrayBuffer);
    const b2cs = all.getWorksheet('B2CS')!.getSheetValues().slice(2) as unknown[][];
    expect(b2cs.some((r) => r.includes('29-Karnataka'))).toBe(true);
  });
});

describe('without the seller’s tax profile', () => {
  it('no payment is taken or recorded, and the answer says where to set it up', async () => {
    const { orgId, session } = await tenantAdmin(ctx, 'No Profile Co');
    const [saved] = await ctx.database.db.select().from(sellerTaxProfile);
    await ctx.database.db.delete(sellerTaxProfile);
    try {
      const before = await countRows(ctx);
      const manual = await root.post('/api/auth/payments', {
        organizationId: orgId,
        amountPaise: 11_800,
        manualReferenceNumber: 'UTR-NO-PROFILE',
      });
      expect(manual.statusCode).toBe(409);
      expect(manual.json().message).toBe(messages.tax.profileMissing);
      const order = await session.post('/api/admin/payment/order', { credits: 1 });
      expect(order.statusCode).toBe(409);
      expect(await countRows(ctx)).toEqual(before);
    } finally {
      await ctx.database.db.insert(sellerTaxProfile).values(saved!);
    }
  });
});

describe('the tax profile and the buyer’s GSTIN are checked', () => {
  it('refuses a mistyped GSTIN, a PAN that is not the GSTIN’s, and a state that is not its own', async () => {
    const last = TEST_SELLER_GSTIN.at(-1)!;
    const mistyped = TEST_SELLER_GSTIN.slice(0, 14) + (last === 'A' ? 'B' : 'A');
    const put = (body: Record<string, unknown>) =>
      root.put('/api/auth/tax-profile', { ...TEST_SELLER_PROFILE, ...body });
    const bad = await put({ gstin: mistyped });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(messages.tax.gstinCheck);
    expect(JSON.stringify((await put({ pan: 'ZZZZZ9999Z' })).json())).toContain(
      messages.tax.panGstinMismatch,
    );
    expect(JSON.stringify((await put({ stateCode: '27' })).json())).toContain(
      messages.tax.gstinStateMismatch,
    );
    const ok = await put({ signatory: 'Ravi Kumar' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.signatory).toBe('Ravi Kumar');
    expect((await root.get('/api/auth/tax-profile')).json().data.signatory).toBe('Ravi Kumar');
  });

  it('company details refuse a mistyped buyer GSTIN and keep a valid one with its state', async () => {
    const { orgId } = await tenantAdmin(ctx, 'Gstin Co');
    await root.post('/api/auth/subscriptions', {
      organizationId: orgId,
      subscribedProducts: ['AI Interview Bot'],
      totalInterviewCredits: 1,
      interviewCreditsPricePaise: 10_000,
      taxRateBp: 1_800,
      subTotalPaise: 10_000,
      totalAmountPaise: 10_000,
      taxAmountPaise: 1_800,
      grandTotalAmountPaise: 11_800,
      demoTrials: 0,
    });
    const valid = gstinFor('33', 'AAACG7777G');
    const mistyped = valid.slice(0, 14) + (valid.at(-1) === 'A' ? 'B' : 'A');
    const bad = await root.post(
      '/api/auth/companies',
      companyDetailsBody(orgId, { gstStateCode: '33', gstin: mistyped }),
    );
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(messages.tax.gstinCheck);
    const good = await root.post(
      '/api/auth/companies',
      companyDetailsBody(orgId, { gstStateCode: '33', gstin: valid.toLowerCase() }),
    );
    expect(good.statusCode, good.body).toBeLessThan(300);
    expect(good.json().data).toMatchObject({ gstStateCode: '33', gstin: valid });
  });
});
