/**
 * The GST state and GSTIN of an imported organization (issue 34): stored on the organization when the
 * import onboards it, they are the buyer's particulars on its tax invoices until the company saves
 * Company Details, which then win, even left empty. An import's update changes them on the
 * organization while it has no Company Details. The seller is in Karnataka (29).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gstinCheckCharacter,
  ORGANIZATION_IMPORT_COLUMNS,
  type ImportDetail,
  type Invoice,
} from '@portal/shared';
import { companyDetailsBody } from '../../../test/fixtures.js';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import { TEST_SELLER_PROFILE } from '../../../test/test-database.js';
import { organizations, subscriptions } from '../../db/schema/index.js';
import { csvOf, uploadImportOf } from './test-files.js';

let ctx: TestContext;
let root: Session;

const HEADER = ORGANIZATION_IMPORT_COLUMNS.map((c) => c.label);
const gstinOf = (state: string, pan = 'AAACW1234C') => {
  const first14 = `${state}${pan}1Z`;
  return `${first14}${gstinCheckCharacter(first14)}`;
};
/** A row in the template's column order: 100 credits at ₹100 and 18 % GST, then the GST particulars. */
const row = (company: string, admin: string, gst: { state?: string; gstin?: string } = {}) => [
  company,
  admin,
  `${admin}@gst-orgs.test`,
  '9876543210',
  '100',
  '100',
  '18',
  '',
  gst.state ?? '',
  gst.gstin ?? '',
];

const detailOf = (res: { json(): { data: ImportDetail } }) => res.json().data;

/** Imports the rows (dry run, then commit through the job); the import's final detail. */
async function importRows(rows: string[][], onExisting: 'skip' | 'update' = 'skip') {
  const res = await uploadImportOf(
    'organizations',
    root,
    { name: 'gst.csv', data: csvOf([HEADER, ...rows]) },
    { onExisting },
  );
  expect(res.statusCode, res.body).toBe(201);
  const dry = detailOf(res);
  expect(dry.errors).toEqual([]);
  expect((await root.post(`/api/auth/imports/organizations/${dry.id}/commit`)).statusCode).toBe(202);
  await ctx.app.deps.jobs.settled();
  return { dry, done: detailOf(await root.get(`/api/auth/imports/organizations/${dry.id}`)) };
}

async function organizationNamed(name: string) {
  const [org] = await ctx.database.db.select().from(organizations).where(eq(organizations.name, name));
  return org!;
}

/** Pays the organization's subscription in full by hand: the payment issues its tax invoice. */
async function payItsSubscription(orgId: string): Promise<Invoice> {
  const [subscription] = await ctx.database.db
    .select({ id: subscriptions.id, grandTotal: subscriptions.grandTotalAmountPaise })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, orgId));
  const res = await root.post('/api/auth/payments', {
    organizationId: orgId,
    subscriptionId: subscription!.id,
    amountPaise: subscription!.grandTotal,
    manualReferenceNumber: `UTR-${Math.random().toString(36).slice(2)}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  const list = await root.get(`/api/auth/invoices?organizationId=${orgId}&pageSize=100`);
  return (list.json().data as Invoice[]).find((i) => i.paymentId === res.json().data.id)!;
}

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
});
afterAll(() => ctx.close());

describe('an imported organization’s GST particulars', () => {
  it('a GSTIN of another state than the seller’s: its first invoice names it and is inter-state (IGST)', async () => {
    expect(TEST_SELLER_PROFILE.stateCode).toBe('29');
    const gstin = gstinOf('27');
    const { done } = await importRows([row('Mumbai Hiring', 'mumbai.admin', { state: '27', gstin })]);
    expect(done.results).toMatchObject({ created: 1, failed: 0 });
    const org = await organizationNamed('Mumbai Hiring');
    expect({ state: org.gstStateCode, gstin: org.gstin }).toEqual({ state: '27', gstin });

    // 100 × ₹100 + 18 %.
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: gstin,
      placeOfSupplyCode: '27',
      intraState: false,
      taxableValuePaise: 1_000_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 180_000,
      totalPaise: 1_180_000,
    });
  });

  it('a GSTIN alone: its state is the place of supply', async () => {
    const gstin = gstinOf('07');
    await importRows([row('Delhi Hiring', 'delhi.admin', { gstin })]);
    const org = await organizationNamed('Delhi Hiring');
    expect({ state: org.gstStateCode, gstin: org.gstin }).toEqual({ state: null, gstin });
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: gstin,
      placeOfSupplyCode: '07',
      intraState: false,
    });
  });

  it('a state without a GSTIN: an unregistered buyer whose place of supply is that state', async () => {
    await importRows([row('Kochi Hiring', 'kochi.admin', { state: '32' })]);
    const org = await organizationNamed('Kochi Hiring');
    expect({ state: org.gstStateCode, gstin: org.gstin }).toEqual({ state: '32', gstin: null });
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: null,
      placeOfSupplyCode: '32',
      intraState: false,
      igstPaise: 180_000,
    });
  });

  it('none given: nothing stored, and the place of supply is the seller’s (CGST and SGST)', async () => {
    await importRows([row('Plain Hiring', 'plain.admin')]);
    const org = await organizationNamed('Plain Hiring');
    expect({ state: org.gstStateCode, gstin: org.gstin }).toEqual({ state: null, gstin: null });
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: null,
      placeOfSupplyCode: '29',
      intraState: true,
      cgstPaise: 90_000,
      sgstPaise: 90_000,
    });
  });

  it('Company Details start from them while none are saved; once saved, theirs win, even left empty', async () => {
    const org = await organizationNamed('Mumbai Hiring');
    const before = await root.get(`/api/auth/companies/${org.id}`);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual({
      success: true,
      data: null,
      onboarding: { gstStateCode: '27', gstin: gstinOf('27') },
    });
    const plain = await root.get(`/api/auth/companies/${(await organizationNamed('Plain Hiring')).id}`);
    expect(plain.json()).toEqual({ success: true, data: null, onboarding: null });

    const own = gstinOf('29', 'AAACM5555M');
    const saved = await root.post(
      '/api/auth/companies',
      companyDetailsBody(org.id, { gstStateCode: '29', gstin: own }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const read = (await root.get(`/api/auth/companies/${org.id}`)).json();
    expect(read.data).toMatchObject({ gstStateCode: '29', gstin: own });
    expect(read.onboarding).toBeNull();
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: own,
      placeOfSupplyCode: '29',
      intraState: true,
      igstPaise: 0,
    });

    // Saved without GST particulars: an unregistered buyer, not the onboarding's GSTIN.
    const cleared = await root.post('/api/auth/companies', companyDetailsBody(org.id));
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: null,
      placeOfSupplyCode: '29',
      intraState: true,
    });
    // The onboarding's particulars stay as they were given.
    const after = await organizationNamed('Mumbai Hiring');
    expect({ state: after.gstStateCode, gstin: after.gstin }).toEqual({ state: '27', gstin: gstinOf('27') });
  });
});

describe('an import’s update of an organization already onboarded', () => {
  it('changes the particulars on the organization while it has no Company Details, and not after', async () => {
    const changed = [row('Kochi Hiring', 'kochi.admin', { state: '33', gstin: gstinOf('33') })];
    const { dry, done } = await importRows(changed, 'update');
    expect(dry.counts).toMatchObject({ toUpdate: 1, unchanged: 0, toCreate: 0 });
    expect(done.results).toMatchObject({ updated: 1, failed: 0 });
    const org = await organizationNamed('Kochi Hiring');
    expect({ state: org.gstStateCode, gstin: org.gstin }).toEqual({ state: '33', gstin: gstinOf('33') });
    expect(await payItsSubscription(org.id)).toMatchObject({
      buyerGstin: gstinOf('33'),
      placeOfSupplyCode: '33',
      intraState: false,
    });

    // The same file again: nothing differs now.
    const again = await uploadImportOf(
      'organizations',
      root,
      { name: 'gst.csv', data: csvOf([HEADER, ...changed]) },
      { onExisting: 'update' },
    );
    expect(detailOf(again).counts).toMatchObject({ unchanged: 1, toUpdate: 0 });

    // Once it has Company Details, an update goes there (organization-import's updateOnboarded).
    expect((await root.post('/api/auth/companies', companyDetailsBody(org.id))).statusCode).toBe(200);
    await importRows([row('Kochi Hiring', 'kochi.admin', { state: '32' })], 'update');
    const kept = await organizationNamed('Kochi Hiring');
    expect({ state: kept.gstStateCode, gstin: kept.gstin }).toEqual({ state: '33', gstin: gstinOf('33') });
    const details = (await root.get(`/api/auth/companies/${org.id}`)).json().data;
    expect({ state: details.gstStateCode, gstin: details.gstin }).toEqual({ state: '32', gstin: null });
  });
});
