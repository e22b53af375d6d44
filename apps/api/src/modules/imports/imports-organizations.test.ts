/**
 * The organizations import (the super administrator's): each row an onboarding as the Invite Admin
 * and Subscription screens make it. The template, every kind of row error with its row, column and
 * the shared message, the errors file's round trip, the commit through the job (organization, admin
 * invited, subscription awaiting payment, credits, plan, activity), matching an organization already
 * onboarded (skip or update), IMPORT enforced and the import's tenancy.
 */
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeAmounts,
  gstinCheckCharacter,
  importDuplicateInFile,
  messages,
  ORGANIZATION_IMPORT_COLUMNS,
  SCOPES,
  SYSTEM_ROLES,
  type ImportDetail,
} from '@portal/shared';
import { createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';
import {
  ADMIN_EMAIL,
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  signIn,
  tableFingerprint,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import {
  activityEntries,
  billingPlans,
  companyDetails,
  creditLedger,
  emailOutbox,
  importRows,
  imports,
  notifications,
  organizations,
  subscriptions,
  users,
} from '../../db/schema/index.js';
import {
  csvOf,
  everyScopeButImport,
  importRouteStatuses,
  sheetRows,
  uploadImportOf,
  xlsxOf,
} from './test-files.js';

let ctx: TestContext;
let root: Session;
let rootUserId: string;
let platformId: string;
const elsewhere = { email: 'taken@elsewhere.test', username: 'taken.elsewhere' };

const HEADER = ORGANIZATION_IMPORT_COLUMNS.map((c) => c.label);
/** A GSTIN of the state with this code, its check character computed. */
const gstinOf = (state: string, pan = 'ABCDE1234F') => {
  const first14 = `${state}${pan}1Z`;
  return `${first14}${gstinCheckCharacter(first14)}`;
};
/** A row in the template's column order: Company, admin username, email, mobile, credits, price, then the optional ones. */
const row = (
  company: string,
  username: string,
  email: string,
  more: Partial<Record<string, string>> = {},
) => [
  company,
  username,
  email,
  more.mobile ?? '9876543210',
  more.credits ?? '100',
  more.price ?? '150',
  more.gst ?? '',
  more.renew ?? '',
  more.state ?? '',
  more.gstin ?? '',
];

const detailOf = (res: { json(): { data: ImportDetail } }) => res.json().data;
const upload = (session: Session, name: string, data: Buffer, fields: Record<string, string> = {}) =>
  uploadImportOf('organizations', session, { name, data }, fields);
const commit = (session: Session, id: string) => session.post(`/api/auth/imports/organizations/${id}/commit`);

/** A number column's rule: what a value out of the subscription's range is told (it names the range). */
function ruleOf(key: 'credits' | 'pricePerCredit'): string {
  return ORGANIZATION_IMPORT_COLUMNS.find((c) => c.key === key)!.rule;
}

async function organizationNamed(name: string) {
  const [org] = await ctx.database.db.select().from(organizations).where(eq(organizations.name, name));
  return org;
}

async function countOf(table: typeof organizations | typeof users | typeof emailOutbox) {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)` }).from(table);
  return Number(row!.n);
}

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  const [me] = await ctx.database.db
    .select({ id: users.id, organizationId: users.organizationId })
    .from(users)
    .where(eq(users.email, ADMIN_EMAIL));
  rootUserId = me!.id;
  platformId = me!.organizationId;
  const orgB = await createOrganizationDirect(ctx, 'Elsewhere Co');
  const memberB = await createRole(ctx, orgB, 'Member', { dashboard: ['READ'] });
  await createUserDirect(ctx, { ...elsewhere, roleId: memberB, organizationId: orgB });
});
afterAll(() => ctx.close());

describe('template', () => {
  it('is the columns and an example row; the .xlsx adds each column’s rule on a second sheet', async () => {
    const xlsx = await root.get('/api/auth/imports/organizations/template?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(await sheetRows(xlsx.rawPayload)).toEqual([
      HEADER,
      ORGANIZATION_IMPORT_COLUMNS.map((c) => c.example),
    ]);
    expect(await sheetRows(xlsx.rawPayload, 2)).toEqual([
      ['Column', 'Rule'],
      ...ORGANIZATION_IMPORT_COLUMNS.map((c) => [c.label, 'optional' in c ? `Optional. ${c.rule}` : c.rule]),
    ]);
    const csv = await root.get('/api/auth/imports/organizations/template?format=csv');
    expect(csv.body).toBe(
      `\ufeff${HEADER.join(',')}\r\n${ORGANIZATION_IMPORT_COLUMNS.map((c) => c.example).join(',')}\r\n`,
    );
  });

  it('imports as it is downloaded (the example row is valid), into nothing: the import is the importer’s', async () => {
    const template = await root.get('/api/auth/imports/organizations/template?format=xlsx');
    const res = await upload(root, 'template.xlsx', template.rawPayload);
    expect(res.statusCode, res.body).toBe(201);
    const detail = detailOf(res);
    expect(detail.errors).toEqual([]);
    expect(detail.counts).toMatchObject({ total: 1, toCreate: 1 });
    expect(detail.organizationId).toBe(platformId);
    expect(detail.matchBy).toBe('email');
    // Organizations are not imported into an organization: the generic options refuse one.
    const into = await upload(root, 'template.xlsx', template.rawPayload, { organizationId: platformId });
    expect(into.statusCode).toBe(400);
    expect(into.json().message).toBe(messages.imports.invalidOptions);
  });
});

describe('dry run', () => {
  /** Twenty-odd kinds of error, one row each (the first row is valid), with what each must say. */
  const cases: { cells: string[]; column: string; message: string }[] = [
    { cells: row('', 'e.one', 'e1@orgs.test'), column: 'Company', message: messages.users.companyRequired },
    {
      cells: row('E2 Co', 'ab', 'e2@orgs.test'),
      column: 'Admin username',
      message: messages.users.invalidUsername,
    },
    {
      cells: row('E3 Co', 'e.three', 'not-an-email'),
      column: 'Admin email',
      message: messages.users.invalidEmail,
    },
    {
      cells: row('E4 Co', 'e.four', 'e4@orgs.test', { mobile: '12345' }),
      column: 'Admin mobile',
      message: messages.users.invalidMobile,
    },
    {
      cells: row('E5 Co', 'e.five', 'e5@orgs.test', { credits: 'ten' }),
      column: 'Credits',
      message: ORGANIZATION_IMPORT_COLUMNS[4].rule,
    },
    {
      cells: row('E6 Co', 'e.six', 'e6@orgs.test', { credits: '1.5' }),
      column: 'Credits',
      message: ORGANIZATION_IMPORT_COLUMNS[4].rule,
    },
    {
      cells: row('E7 Co', 'e.seven', 'e7@orgs.test', { credits: '0' }),
      column: 'Credits',
      message: ruleOf('credits'),
    },
    {
      cells: row('E8 Co', 'e.eight', 'e8@orgs.test', { credits: '2000000' }),
      column: 'Credits',
      message: ruleOf('credits'),
    },
    {
      cells: row('E9 Co', 'e.nine', 'e9@orgs.test', { price: '12.345' }),
      column: 'Price per credit',
      message: ORGANIZATION_IMPORT_COLUMNS[5].rule,
    },
    {
      cells: row('E10 Co', 'e.ten', 'e10@orgs.test', { price: '0.50' }),
      column: 'Price per credit',
      message: ruleOf('pricePerCredit'),
    },
    {
      cells: row('E11 Co', 'e.eleven', 'e11@orgs.test', { gst: '120' }),
      column: 'GST %',
      message: ORGANIZATION_IMPORT_COLUMNS[6].rule,
    },
    {
      cells: row('E12 Co', 'e.twelve', 'e12@orgs.test', { renew: 'maybe' }),
      column: 'Auto-renewal',
      message: ORGANIZATION_IMPORT_COLUMNS[7].rule,
    },
    {
      cells: row('E13 Co', 'e.thirteen', 'e13@orgs.test', { state: '99' }),
      column: 'GST state',
      message: messages.tax.stateRequired,
    },
    {
      cells: row('E14 Co', 'e.fourteen', 'e14@orgs.test', { gstin: 'ABC' }),
      column: 'GSTIN',
      message: messages.tax.gstinFormat,
    },
    {
      cells: row('E15 Co', 'e.fifteen', 'e15@orgs.test', { gstin: '29ABCDE1234F1Z5' }),
      column: 'GSTIN',
      message: messages.tax.gstinCheck,
    },
    {
      cells: row('E16 Co', 'e.sixteen', 'e16@orgs.test', { state: '27', gstin: gstinOf('29') }),
      column: 'GSTIN',
      message: messages.tax.gstinStateMismatch,
    },
    {
      cells: row('E17 Co', 'e.seventeen', 'valid@orgs.test'),
      column: 'Admin email',
      message: importDuplicateInFile('Admin email', 2),
    },
    {
      cells: row('E18 Co', 'valid.admin', 'e18@orgs.test'),
      column: 'Admin username',
      message: importDuplicateInFile('Admin username', 2),
    },
    {
      cells: row('E19 Co', 'e.nineteen', elsewhere.email),
      column: 'Admin email',
      message: messages.users.duplicate,
    },
    {
      cells: row('E20 Co', elsewhere.username, 'e20@orgs.test'),
      column: 'Admin username',
      message: messages.users.duplicate,
    },
    // The platform's own user: no tenant's admin, so it is held by someone else.
    {
      cells: row('E21 Co', 'e.twentyone', ADMIN_EMAIL),
      column: 'Admin email',
      message: messages.users.duplicate,
    },
    {
      cells: row('E22\u0000Co', 'e.twentytwo', 'e22@orgs.test'),
      column: 'Company',
      message: messages.http.unstorableText,
    },
    {
      cells: row('E23 Co', 'e.twenty\u0001three', 'e23@orgs.test'),
      column: 'Admin username',
      message: messages.users.invalidUsername,
    },
    // An organization of that name already onboarded, but its admins have other emails.
    {
      cells: row('Elsewhere Co', 'e.twentyfour', 'e24@orgs.test'),
      column: 'Admin email',
      message: messages.users.emailLocked,
    },
  ];

  it('reports every error with its row, column and the shared message, and creates nothing', async () => {
    const before = {
      organizations: await countOf(organizations),
      users: await countOf(users),
      outbox: await countOf(emailOutbox),
    };
    const valid = row('Valid Co', 'valid.admin', 'valid@orgs.test', {
      gst: '18 %',
      renew: 'yes',
      state: '29',
    });
    const data = csvOf([HEADER, valid, ...cases.map((c) => c.cells)]);
    // Matched by company, so the existing organization's name is a match, not a new one.
    const res = await upload(root, 'many-errors.xlsx', data, { matchBy: 'company' });
    expect(res.statusCode, res.body).toBe(201);
    const detail = detailOf(res);
    expect(detail.errors).toEqual(
      cases.map((c, i) => ({ row: i + 3, column: c.column, message: c.message })),
    );
    expect(detail.counts).toEqual({
      total: cases.length + 1,
      toCreate: 1,
      toUpdate: 0,
      unchanged: 0,
      errors: cases.length,
    });
    expect({
      organizations: await countOf(organizations),
      users: await countOf(users),
      outbox: await countOf(emailOutbox),
    }).toEqual(before);
  });

  it('reads numbers as a spreadsheet stores them (7 is the state code 07) and headers by other names', async () => {
    const data = await xlsxOf([
      [
        'Organisation',
        'Username',
        'E-mail',
        'Phone',
        'Interview credits',
        'Price',
        'GST',
        'Auto renew',
        'State code',
        'GST No',
      ],
      ['Numbers Co', 'numbers.admin', 'numbers@orgs.test', 9876543210, 25, 99.5, 5, 'No', 7, gstinOf('07')],
    ]);
    const res = await upload(root, 'numbers.xlsx', data);
    expect(res.statusCode, res.body).toBe(201);
    expect(detailOf(res).errors).toEqual([]);
    expect(detailOf(res).counts).toMatchObject({ toCreate: 1 });
  });

  it('refuses an importer who may not onboard organizations (403), though they hold IMPORT', async () => {
    const roleId = await createRole(ctx, platformId, 'Importer only', { organizations: ['READ', 'IMPORT'] });
    const importer = await createTenant(ctx, 'Importer only', { organizationId: platformId, roleId });
    const res = await upload(
      importer.session,
      'x.csv',
      csvOf([HEADER, row('X Co', 'x.admin', 'x@orgs.test')]),
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('commit', () => {
  it('onboards each row as the screens do: organization, admin invited, subscription awaiting payment, credits, plan', async () => {
    const data = csvOf([
      HEADER,
      row('Acme Hiring', 'acme.admin', 'admin@acme.test', {
        price: '150.50',
        gst: '12.5',
        renew: 'Yes',
        state: '29',
        gstin: gstinOf('29'),
      }),
      row('Beta Labs', 'beta.admin', 'admin@beta.test', { credits: '40', mobile: '9123456789' }),
      row('Broken Co', 'x', 'broken@orgs.test'),
    ]);
    const dry = detailOf(await upload(root, 'tenants.csv', data));
    expect(dry.counts).toMatchObject({ toCreate: 2, errors: 1 });
    const res = await commit(root, dry.id);
    expect(res.statusCode, res.body).toBe(202);
    await ctx.app.deps.jobs.settled();

    const done = detailOf(await root.get(`/api/auth/imports/organizations/${dry.id}`));
    expect(done.status).toBe('done');
    expect(done.results).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });
    expect(done.progress).toEqual({ done: 2, total: 2 });

    const acme = (await organizationNamed('Acme Hiring'))!;
    const beta = (await organizationNamed('Beta Labs'))!;
    expect(acme.isPlatform).toBe(false);
    const stored = await ctx.database.db
      .select({ rowNumber: importRows.rowNumber, recordId: importRows.recordId, result: importRows.result })
      .from(importRows)
      .where(eq(importRows.importId, dry.id))
      .orderBy(importRows.rowNumber);
    expect(stored).toEqual([
      { rowNumber: 2, recordId: acme.id, result: 'created' },
      { rowNumber: 3, recordId: beta.id, result: 'created' },
      { rowNumber: 4, recordId: null, result: null },
    ]);

    const [admin] = await ctx.database.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    expect(admin).toMatchObject({
      organizationId: acme.id,
      roleId: await roleIdByName(ctx, SYSTEM_ROLES.admin),
      username: 'acme.admin',
      mobileNo: '9876543210',
      client: 'Acme Hiring',
      isAdmin: true,
      isActive: true,
      passwordHash: null,
      createdBy: rootUserId,
    });
    const mails = await ctx.database.db
      .select({ to: emailOutbox.toAddress, kind: emailOutbox.kind })
      .from(emailOutbox)
      .where(inArray(emailOutbox.toAddress, ['admin@acme.test', 'admin@beta.test']));
    expect(mails.map((m) => `${m.kind} ${m.to}`).sort()).toEqual([
      'invitation admin@acme.test',
      'invitation admin@beta.test',
    ]);

    // The amounts are the server's (computeAmounts), never the file's: 100 × ₹150.50 at 12.5 %.
    const amounts = computeAmounts({ credits: 100, pricePerCreditPaise: 15_050, taxRateBp: 1_250 });
    const [subscription] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, acme.id));
    expect(subscription).toMatchObject({
      totalInterviewCredits: 100,
      interviewCreditsPricePaise: 15_050,
      taxRateBp: 1_250,
      subTotalPaise: amounts.subTotalPaise,
      taxAmountPaise: amounts.taxAmountPaise,
      grandTotalAmountPaise: amounts.grandTotalPaise,
      billingCycle: 'MONTHLY',
      status: 'ACTIVE',
      paymentId: null,
      subscription: false,
      demoTrials: 0,
      createdBy: rootUserId,
    });
    const [betaSubscription] = await ctx.database.db
      .select({ taxRateBp: subscriptions.taxRateBp, credits: subscriptions.totalInterviewCredits })
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, beta.id));
    expect(betaSubscription).toEqual({ taxRateBp: 1_800, credits: 40 });
    const ledger = await ctx.database.db
      .select({ delta: creditLedger.delta, reason: creditLedger.reason })
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, acme.id));
    expect(ledger).toEqual([{ delta: 100, reason: 'subscription' }]);
    const plans = await ctx.database.db
      .select({
        organizationId: billingPlans.organizationId,
        autoRenew: billingPlans.autoRenew,
        credits: billingPlans.creditsPerPeriod,
      })
      .from(billingPlans)
      .where(inArray(billingPlans.organizationId, [acme.id, beta.id]));
    expect(plans.sort((a, b) => a.credits - b.credits)).toEqual([
      { organizationId: beta.id, autoRenew: false, credits: 40 },
      { organizationId: acme.id, autoRenew: true, credits: 100 },
    ]);

    const activity = await ctx.database.db
      .select({
        entityType: activityEntries.entityType,
        message: activityEntries.message,
        actor: activityEntries.actorUserId,
      })
      .from(activityEntries)
      .where(eq(activityEntries.organizationId, acme.id));
    expect(activity.map((a) => a.entityType).sort()).toEqual(['organization', 'subscription', 'user']);
    expect(activity.every((a) => a.actor === rootUserId)).toBe(true);
    expect(activity.find((a) => a.entityType === 'organization')!.message).toBe(
      'Created organization Acme Hiring',
    );
    const [entry] = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityType, 'import'), eq(activityEntries.entityId, dry.id)));
    expect(entry!.message).toBe('Imported organizations from tenants.csv: 2 created, 0 updated, 0 failed.');
    expect(entry!.organizationId).toBe(platformId);
    const notices = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rootUserId), eq(notifications.kind, 'import_finished')));
    expect(notices.map((n) => n.link)).toContain(`/dashboard/imports/organizations/${dry.id}`);

    // A re-run of the same file creates nothing twice, matched by email or by company name.
    const again = detailOf(await upload(root, 'tenants.csv', data));
    expect(again.counts).toMatchObject({ toCreate: 0, unchanged: 2, errors: 1 });
    const byName = csvOf([HEADER, row('ACME hiring ', 'acme.admin', 'admin@acme.test')]);
    const named = detailOf(await upload(root, 'by-name.csv', byName, { matchBy: 'company' }));
    expect(named.counts).toMatchObject({ toCreate: 0, unchanged: 1, errors: 0 });
    const nothing = await commit(root, again.id);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe(messages.imports.nothingToCommit);
  });

  it('makes a row taken meanwhile its failed result, with the screen’s message, and commits the others', async () => {
    const data = csvOf([
      HEADER,
      row('Race One', 'race.one', 'race1@orgs.test'),
      row('Race Two', 'race.two', 'race2@orgs.test'),
    ]);
    const dry = detailOf(await upload(root, 'race.csv', data));
    expect(dry.counts.toCreate).toBe(2);
    const orgB = await createOrganizationDirect(ctx, 'Quick Co');
    await createUserDirect(ctx, {
      email: 'race2@orgs.test',
      roleId: await roleIdByName(ctx),
      organizationId: orgB,
    });
    await commit(root, dry.id);
    await ctx.app.deps.jobs.settled();
    const done = detailOf(await root.get(`/api/auth/imports/organizations/${dry.id}`));
    expect(done.results).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 1 });
    const [failed] = await ctx.database.db
      .select({ result: importRows.result, error: importRows.resultError })
      .from(importRows)
      .where(and(eq(importRows.importId, dry.id), eq(importRows.rowNumber, 3)));
    expect(failed).toEqual({ result: 'failed', error: messages.users.duplicate });
    // Nothing of the refused row stayed: no organization, subscription or invitation.
    expect(await organizationNamed('Race Two')).toBeUndefined();
    expect(await organizationNamed('Race One')).toBeDefined();
  });
});

describe('an organization already onboarded', () => {
  it('is unchanged when skipped, and updated as the screens edit it when asked: admin and GST particulars', async () => {
    const first = csvOf([HEADER, row('Gamma Works', 'gamma.admin', 'admin@gamma.test', { state: '29' })]);
    const made = detailOf(await upload(root, 'gamma.csv', first));
    await commit(root, made.id);
    await ctx.app.deps.jobs.settled();
    const gamma = (await organizationNamed('Gamma Works'))!;
    // The company has since saved its Company Details (the screen needs every field).
    await ctx.database.db.insert(companyDetails).values({
      organizationId: gamma.id,
      name: 'Gamma Works',
      email: 'office@gamma.test',
      address: '1 MG Road',
      country: 'India',
      state: 'Karnataka',
      city: 'Bengaluru',
      pincode: '560001',
      industryType: 'Software',
      foundedIn: 2015,
      websiteUrl: 'https://gamma.test',
      gstStateCode: '29',
      gstin: null,
    });

    const changed = csvOf([
      HEADER,
      row('Gamma Works', 'gamma.boss', 'ADMIN@gamma.test', {
        mobile: '9000000001',
        state: '27',
        gstin: gstinOf('27'),
      }),
    ]);
    const skip = detailOf(await upload(root, 'gamma.csv', changed));
    expect(skip.counts).toMatchObject({ unchanged: 1, toUpdate: 0, errors: 0 });
    const update = detailOf(await upload(root, 'gamma.csv', changed, { onExisting: 'update' }));
    expect(update.counts).toMatchObject({ unchanged: 0, toUpdate: 1, errors: 0 });
    expect((await commit(root, update.id)).statusCode).toBe(202);
    await ctx.app.deps.jobs.settled();
    expect(detailOf(await root.get(`/api/auth/imports/organizations/${update.id}`)).results).toEqual({
      created: 0,
      updated: 1,
      unchanged: 0,
      failed: 0,
    });

    const [admin] = await ctx.database.db.select().from(users).where(eq(users.email, 'admin@gamma.test'));
    expect({ username: admin!.username, mobileNo: admin!.mobileNo }).toEqual({
      username: 'gamma.boss',
      mobileNo: '9000000001',
    });
    const [details] = await ctx.database.db
      .select()
      .from(companyDetails)
      .where(eq(companyDetails.organizationId, gamma.id));
    expect({ state: details!.gstStateCode, gstin: details!.gstin, city: details!.city }).toEqual({
      state: '27',
      gstin: gstinOf('27'),
      city: 'Bengaluru',
    });
    const entries = await ctx.database.db
      .select({ entityType: activityEntries.entityType, message: activityEntries.message })
      .from(activityEntries)
      .where(and(eq(activityEntries.organizationId, gamma.id), eq(activityEntries.action, 'updated')));
    expect(entries.map((e) => e.entityType).sort()).toEqual(['company', 'user']);
    // Nothing else was made: one organization of the name, one subscription.
    const subs = await ctx.database.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, gamma.id));
    expect(subs).toHaveLength(1);

    // The same file again: nothing differs now.
    const again = detailOf(await upload(root, 'gamma.csv', changed, { onExisting: 'update' }));
    expect(again.counts).toMatchObject({ unchanged: 1, toUpdate: 0 });
  });

  it('refuses an admin email of another company: held by someone else', async () => {
    const data = csvOf([HEADER, row('Not Gamma', 'not.gamma', 'admin@gamma.test')]);
    const detail = detailOf(await upload(root, 'other.csv', data, { onExisting: 'update' }));
    expect(detail.errors).toEqual([{ row: 2, column: 'Admin email', message: messages.users.duplicate }]);
  });
});

describe('errors file', () => {
  it('round-trips: fixed and uploaded again, it imports the rest, and a re-run creates nothing twice', async () => {
    const data = await xlsxOf([
      HEADER,
      row('Round One', 'round.one', 'round1@orgs.test'),
      row('Round Two', 'round.two', 'round2@orgs.test', { price: 'free' }),
      row('=1+1', 'round.three', 'round3@orgs.test'),
    ]);
    const first = detailOf(await upload(root, 'round.xlsx', data));
    expect(first.counts).toMatchObject({ toCreate: 2, errors: 1 });
    await commit(root, first.id);
    await ctx.app.deps.jobs.settled();
    // A formula's text is a company's name like any other: text, never evaluated.
    expect(await organizationNamed('=1+1')).toBeDefined();

    const xlsx = await root.get(`/api/auth/imports/organizations/${first.id}/errors?format=xlsx`);
    const rows = await sheetRows(xlsx.rawPayload);
    expect(rows[0]).toEqual([...HEADER, 'Error']);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([['Round Two', 'round.two', 'round2@orgs.test']]);
    expect(rows[1]![HEADER.length]).toBe(`Price per credit: ${ORGANIZATION_IMPORT_COLUMNS[5].rule}`);

    const fixedRow = [...rows[1]!];
    fixedRow[5] = '200';
    const fixed = await xlsxOf([
      rows[0]!,
      [...row('Round One', 'round.one', 'round1@orgs.test'), ''],
      fixedRow,
    ]);
    const second = detailOf(await upload(root, 'round-fixed.xlsx', fixed));
    expect(second.counts).toMatchObject({ toCreate: 1, unchanged: 1, errors: 0 });
    await commit(root, second.id);
    await ctx.app.deps.jobs.settled();
    const made = await ctx.database.db
      .select({ name: organizations.name })
      .from(organizations)
      .where(like(organizations.name, 'Round %'));
    expect(made.map((o) => o.name).sort()).toEqual(['Round One', 'Round Two']);
    const again = detailOf(await upload(root, 'round-fixed.xlsx', fixed));
    expect(again.counts).toMatchObject({ toCreate: 0, unchanged: 2, errors: 0 });
  });
});

describe('IMPORT and tenancy', () => {
  it('refuses a member holding every other scope with 403 on every route, and changes nothing', async () => {
    const grants = everyScopeButImport('organizations');
    const roleId = await createRole(ctx, platformId, 'No org import', grants);
    const member = await createTenant(ctx, 'No org import', { organizationId: platformId, roleId });
    const mine = detailOf(
      await upload(root, 'mine.csv', csvOf([HEADER, row('Mine Co', 'mine.admin', 'mine@orgs.test')])),
    );
    const snapshot = await tableFingerprint(ctx);
    const before = await snapshot();
    expect(
      await importRouteStatuses('organizations', member.session, mine.id, {
        name: 'x.csv',
        data: csvOf([HEADER, row('X Co', 'x.admin', 'x@orgs.test')]),
      }),
    ).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await snapshot()).toBe(before);
  });

  it('answers another organization’s import 404, and leaves it out of the history', async () => {
    const mine = detailOf(
      await upload(root, 'mine.csv', csvOf([HEADER, row('Mine Co', 'mine.admin', 'mine@orgs.test')])),
    );
    const orgT = await createOrganizationDirect(ctx, 'Tenant T');
    const roleId = await createRole(ctx, orgT, 'Onboarder', {
      organizations: [...SCOPES],
      users: ['READ', 'CREATE'],
      subscriptions: ['READ', 'CREATE'],
    });
    const tenant: TestTenant = await createTenant(ctx, 'Onboarder', { organizationId: orgT, roleId });
    const answers = [
      await tenant.session.get(`/api/auth/imports/organizations/${mine.id}`),
      await tenant.session.get(`/api/auth/imports/organizations/${mine.id}/errors`),
      await tenant.session.post(`/api/auth/imports/organizations/${mine.id}/commit`),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404]);
    const list = await tenant.session.get('/api/auth/imports/organizations');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([]);
    const [record] = await ctx.database.db
      .select({ status: imports.status })
      .from(imports)
      .where(eq(imports.id, mine.id));
    expect(record!.status).toBe('dry_run');
  });
});
