/**
 * The roles × routes × tenants matrix, extended to every signed-in /api route (tenancy.test.ts does
 * the users routes in depth). Actors: super_admin, an admin of tenant A (who owns the resources), an
 * admin of tenant B, and a member of tenant A whose custom role holds every scope of every feature
 * but the route's own (on a signedIn route, a member holding only Dashboard READ). Each case makes
 * what the route addresses in tenant A, sends a valid request, and asserts the status; a refusal
 * must leave every table as it was, and a list answered to tenant B must not show tenant A's row.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FEATURES,
  IDEMPOTENCY_HEADER,
  IMPORT_KIND_FEATURE,
  IMPORT_KINDS,
  SCOPES,
  type FeatureKey,
  type ImportKind,
  type Scope,
} from '@portal/shared';
import {
  billingPlans,
  creditLedger,
  emailOutbox,
  notifications,
  renewals,
  supportTickets,
  users,
} from '../src/db/schema/index.js';
import { onboardingBody, terms } from '../src/modules/billing/test-helpers.js';
import { systemActor } from '../src/core/actor.js';
import { storeFile } from '../src/modules/files/index.js';
import { isApiRoute } from '../src/plugins/access.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ADMIN_TOTP_SECRET,
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  enrolTwoFactor,
  forgetUsedCodes,
  roleIdByName,
  signIn,
  STRONG_PASSWORD,
  tableFingerprint,
  totpCode,
  type Session,
  type TestContext,
} from './harness.js';
import {
  addActivity,
  addCreditNote,
  addInvoicedPayment,
  addPayment,
  addSubscription,
  companyDetailsBody,
  createRole,
  createTenant,
} from './fixtures.js';
import { TEST_SELLER_PROFILE } from './test-database.js';
import { multipartBody, PNG_BYTES } from './upload-fixtures.js';

/** Refused actors first, so a success never changes what a later refusal is checked against. */
const ACTORS = ['member', 'adminB', 'adminA', 'super_admin'] as const;
type ActorName = (typeof ACTORS)[number];
type Expected = Record<ActorName, number>;

/** A tenant-A resource: member 403 (no scope), tenant B 404 (a foreign id does not exist). */
const owned = (ok: number): Expected => ({ member: 403, adminB: 404, adminA: ok, super_admin: ok });
/** A list: tenant B answers 200 with its own rows only. */
const listed: Expected = { member: 403, adminB: 200, adminA: 200, super_admin: 200 };
/** Granting credits or tenants needs Organization Management CREATE, which only the platform holds. */
const platformOnly = (ok: number): Expected => ({ member: 403, adminB: 403, adminA: 403, super_admin: ok });
/** One's own data: everybody succeeds. */
const own = (ok: number): Expected => ({ member: ok, adminB: ok, adminA: ok, super_admin: ok });

/** Stands for what the request addresses. */
interface Target {
  id: string;
  body?: Record<string, unknown>;
  /** How a list or export shows it, when not by id. */
  shownAs?: string;
}

interface RouteCase {
  /** Method and URL exactly as `app.routeAccess` lists them. */
  route: string;
  /** The member holds no scope of it; null for a signedIn route (the member holds dashboard READ). */
  feature: FeatureKey | null;
  expected: Expected;
  /** Makes the resource in tenant A (one's own for signedIn routes); fresh for every case. */
  setup?(actor: ActorName): Promise<Target>;
  send(s: Session, t: Target, actor: ActorName): Promise<LightMyRequestResponse>;
  /** A list: what it shows. Tenant B must not see the target; tenant A (and super_admin) must. */
  shown?(res: LightMyRequestResponse): string[];
  /** The list is of one's own organization even for super_admin (credits, API keys). */
  ownOrganizationOnly?: boolean;
}

let ctx: TestContext;
let orgA: string;
let orgB: string;
let adminRole: string;
let memberRoleA: string;
/** A fingerprint of every table, to prove a refused request changed nothing. */
let snapshot: () => Promise<string>;
const actors = {} as Record<Exclude<ActorName, 'member'>, Session>;
const members = {} as Record<FeatureKey | 'none', Session>;
const accounts = {} as Record<ActorName, { email: string; password: string; userId: string; org: string }>;

beforeAll(async () => {
  ctx = await createTestApp();
  adminRole = await roleIdByName(ctx);
  orgA = await createOrganizationDirect(ctx, 'Tenant A');
  orgB = await createOrganizationDirect(ctx, 'Tenant B');
  // Profile and company edits need an active subscription.
  await addSubscription(ctx, orgA);
  await addSubscription(ctx, orgB);
  memberRoleA = await createRole(ctx, orgA, 'Member', { dashboard: ['READ'] });
  const a = await createTenant(ctx, 'Admin A', { organizationId: orgA });
  const b = await createTenant(ctx, 'Admin B', { organizationId: orgB });
  actors.adminA = a.session;
  actors.adminB = b.session;
  actors.super_admin = await signIn(ctx.app);
  const [root] = await ctx.database.db.select().from(users).where(eq(users.id, ctx.adminId));
  accounts.super_admin = {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    userId: ctx.adminId,
    org: root!.organizationId,
  };
  accounts.adminA = { email: a.email, password: STRONG_PASSWORD, userId: a.userId, org: orgA };
  accounts.adminB = { email: b.email, password: STRONG_PASSWORD, userId: b.userId, org: orgB };
  // One member per feature, holding every scope of every other feature: only the route's own
  // feature is missing, so a 403 can come from nothing else.
  for (const feature of Object.keys(FEATURES) as FeatureKey[]) {
    const grants = Object.fromEntries(
      (Object.keys(FEATURES) as FeatureKey[])
        .filter((f) => f !== feature)
        .map((f) => [f, [...SCOPES] as Scope[]]),
    );
    const roleId = await createRole(ctx, orgA, `No ${feature}`, grants);
    members[feature] = (await createTenant(ctx, `No ${feature}`, { organizationId: orgA, roleId })).session;
  }
  const none = await createTenant(ctx, 'Member', { organizationId: orgA, roleId: memberRoleA });
  members.none = none.session;
  accounts.member = { email: none.email, password: STRONG_PASSWORD, userId: none.userId, org: orgA };
  snapshot = await tableFingerprint(ctx);
});
afterAll(() => ctx.close());

const sessionOf = (actor: ActorName, feature: FeatureKey | null) =>
  actor === 'member' ? members[feature ?? 'none'] : actors[actor];

let serial = 0;
const next = () => ++serial;

/** A fresh member user of tenant A. */
async function userOfA(state: { active?: boolean; password?: boolean } = {}): Promise<Target> {
  const email = `every-user-${next()}@every-route.test`;
  const id = await createUserDirect(ctx, {
    email,
    username: email.split('@')[0]!,
    roleId: memberRoleA,
    organizationId: orgA,
    isActive: state.active ?? true,
  });
  if (state.password === false) {
    await ctx.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, id));
  }
  return { id, shownAs: email };
}

function newUserBody(roleId: string) {
  const n = next();
  return {
    username: `new${n}`,
    email: `new${n}@every-route.test`,
    mobileNo: '9876543210',
    client: 'Tenancy Co',
    organizationId: orgA,
    roleId,
  };
}

/** Tenant A's admin makes it through the API, so its shape is the product's own. */
async function madeByAdminA(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await actors.adminA.post(url, body);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return res.json().data as Record<string, unknown>;
}

const position = async (): Promise<Target> => {
  const title = `Engineer ${next()}`;
  const data = await madeByAdminA('/api/auth/positions', positionBody(title));
  return { id: data.id as string, body: { title } };
};
const positionBody = (title: string) => ({ title, department: 'R&D', location: 'Pune', openings: 2 });

async function role(): Promise<Target> {
  const name = `Role ${next()}`;
  const data = await madeByAdminA('/api/auth/roles', roleBody(name));
  return { id: data.id as string, body: { name } };
}
const roleBody = (name: string) => ({
  name,
  permissions: [{ featureId: 'dashboard', permissionScopes: ['READ'] }],
});

async function ticket(): Promise<Target> {
  const n = next();
  const message = `Ticket message #${n}#`;
  const [row] = await ctx.database.db
    .insert(supportTickets)
    .values({
      displayId: `TICKET-EVERY-${n}`,
      organizationId: orgA,
      createdBy: accounts.adminA.userId,
      type: 'feedback',
      message,
    })
    .returning({ id: supportTickets.id });
  return { id: row!.id, body: { message } };
}

async function apiKey(): Promise<Target> {
  const data = await madeByAdminA('/api/auth/api-keys', { name: `Key ${next()}` });
  return { id: data.id as string };
}

/** The organization's monthly plan (made once): 10 credits at ₹100 + GST, period 0 starting now. */
async function planOf(organizationId: string): Promise<string> {
  const now = new Date();
  await ctx.database.db
    .insert(billingPlans)
    .values({
      organizationId,
      creditsPerPeriod: 10,
      pricePerCreditPaise: 10_000,
      taxRateBp: 1_800,
      amountPaise: 118_000,
      anchorAt: now,
      nextPeriodStart: new Date(now.getTime() + 30 * 86_400_000),
    })
    .onConflictDoNothing();
  return organizationId;
}

/** A renewal of tenant A's plan in `status`, a period of its own. */
async function renewalOfA(status: (typeof renewals.$inferSelect)['status']): Promise<Target> {
  await planOf(orgA);
  const start = new Date(Date.now() + next() * 86_400_000);
  const [row] = await ctx.database.db
    .insert(renewals)
    .values({
      organizationId: orgA,
      period: next(),
      periodStart: start,
      periodEnd: new Date(start.getTime() + 30 * 86_400_000),
      credits: 10,
      pricePerCreditPaise: 10_000,
      taxRateBp: 1_800,
      amountPaise: 118_000,
      collection: 'manual',
      status,
    })
    .returning({ id: renewals.id });
  return { id: row!.id };
}

async function order(): Promise<Target> {
  const data = await madeByAdminA('/api/admin/payment/order', { credits: 3 });
  const providerOrderId = (data.order as { providerOrderId: string }).providerOrderId;
  return { id: (data.order as { id: string }).id, body: { razorpay_order_id: providerOrderId } };
}

/** A paid sandbox order of tenant A: what the checkout hands back to verify. */
async function paidOrder(): Promise<Target> {
  const o = await order();
  const paid = await actors.adminA.post('/api/admin/payment/sandbox/pay', o.body);
  expect(paid.statusCode, paid.body.slice(0, 300)).toBe(200);
  return { id: o.id, body: paid.json().data as Record<string, unknown> };
}

/** An unread notification of the actor, or of tenant A's admin for tenant B (a foreign one). */
async function notificationOf(actor: ActorName): Promise<Target> {
  const owner = accounts[actor === 'adminB' ? 'adminA' : actor];
  const [row] = await ctx.database.db
    .insert(notifications)
    .values({
      userId: owner.userId,
      organizationId: owner.org,
      kind: 'ticket_created',
      title: `Notice ${next()}`,
      body: 'A ticket was raised',
    })
    .returning({ id: notifications.id });
  return { id: row!.id };
}

/** A mail to tenant A's admin the portal gave up on. */
async function undeliveredMailOfA(): Promise<Target> {
  const [row] = await ctx.database.db
    .insert(emailOutbox)
    .values({
      kind: 'invitation',
      organizationId: orgA,
      toAddress: accounts.adminA.email,
      subject: `Undelivered ${next()}`,
      textBody: 'Set your password',
      status: 'undelivered',
      attempts: 1,
      lastError: '550 No such user',
      gaveUpAt: new Date(),
    })
    .returning({ id: emailOutbox.id });
  return { id: row!.id };
}

const company = () => companyDetailsBody(orgA, { name: `Tenant A Pvt Ltd ${next()}` });

const dataIds = (res: LightMyRequestResponse) => (res.json().data as { id: string }[]).map((r) => r.id);
/** A CSV export: its text, searched for the target. */
const csvText = (res: LightMyRequestResponse) => [res.body];
const NEW_PASSWORD = 'N3w-Passw0rd!';

/** A six-digit code that is not the super administrator's code of any step near now. */
function wrongCode(): string {
  const near = [-1, 0, 1].map((d) => totpCode(ADMIN_TOTP_SECRET, Date.now() + d * 30_000));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.includes(code)) return code;
  }
}

/** A one-row file of each kind, fresh names each time. */
function importFile(kind: ImportKind): { name: string; data: Buffer } {
  const n = next();
  const csv = {
    users: `Username,Email,Mobile,Role\nimp${n},imp${n}@every-route.test,9876543210,Member\n`,
    positions: `Title,Department,Location,Openings\nRole ${n},Engineering,Pune,2\n`,
    organizations: `Company,Admin username,Admin email,Admin mobile,Credits,Price per credit\nCompany ${n},org${n},org${n}@every-route.test,9876543210,10,150\n`,
  }[kind];
  return { name: `import-${n}.csv`, data: Buffer.from(csv) };
}

/**
 * A dry run of this kind in tenant A (one row to create), made by the platform operator (who may name
 * tenant A for users and positions; organizations belong to the platform's importer).
 */
function importOfA(kind: ImportKind): () => Promise<Target> {
  return async () => {
    const file = importFile(kind);
    const fields: Record<string, string> = kind === 'organizations' ? {} : { organizationId: orgA };
    const { payload, headers } = multipartBody(fields, file);
    const res = await actors.super_admin.post(`/api/auth/imports/${kind}`, payload, { headers });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    return { id: res.json().data.id as string, shownAs: file.name };
  };
}

function importUpload(kind: ImportKind, s: Session, path = '') {
  const { payload, headers } = multipartBody({}, importFile(kind));
  return s.post(`/api/auth/imports/${kind}${path}`, payload, { headers });
}

/** Admins import their own team and positions (ADMIN_ROLE_PERMISSIONS); organizations only the platform. */
const IMPORT_CASES: RouteCase[] = IMPORT_KINDS.flatMap((kind): RouteCase[] => {
  const feature = IMPORT_KIND_FEATURE[kind];
  const platform = kind === 'organizations';
  const anyHolder = (ok: number): Expected =>
    platform ? platformOnly(ok) : { member: 403, adminB: ok, adminA: ok, super_admin: ok };
  const ofA = (ok: number): Expected => (platform ? platformOnly(ok) : owned(ok));
  const base = `/api/auth/imports/${kind}`;
  return [
    {
      route: `GET ${base}/template`,
      feature,
      expected: anyHolder(200),
      send: (s) => s.get(`${base}/template?format=csv`),
    },
    {
      route: `POST ${base}/columns`,
      feature,
      expected: anyHolder(200),
      send: (s) => importUpload(kind, s, '/columns'),
    },
    { route: `POST ${base}`, feature, expected: anyHolder(201), send: (s) => importUpload(kind, s) },
    {
      route: `GET ${base}`,
      feature,
      expected: platform ? platformOnly(200) : listed,
      setup: importOfA(kind),
      send: (s) => s.get(`${base}?pageSize=100`),
      shown: (res) => (res.json().data as { fileName: string }[]).map((i) => i.fileName),
    },
    {
      route: `GET ${base}/:id`,
      feature,
      expected: ofA(200),
      setup: importOfA(kind),
      send: (s, t) => s.get(`${base}/${t.id}`),
    },
    {
      route: `GET ${base}/:id/errors`,
      feature,
      expected: ofA(200),
      setup: importOfA(kind),
      send: (s, t) => s.get(`${base}/${t.id}/errors?format=csv`),
    },
    {
      route: `POST ${base}/:id/commit`,
      feature,
      expected: ofA(202),
      setup: importOfA(kind),
      send: async (s, t) => {
        const res = await s.post(`${base}/${t.id}/commit`);
        // The commit's job writes after the answer: let it end before the next case's snapshot.
        await ctx.app.deps.jobs.settled();
        return res;
      },
    },
  ];
});

const ROUTES: RouteCase[] = [
  // Roles
  {
    route: 'GET /api/auth/roles',
    feature: 'roles',
    expected: listed,
    setup: role,
    send: (s, t) => s.get(`/api/auth/roles?search=${encodeURIComponent(t.body!.name as string)}`),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/roles/:id',
    feature: 'roles',
    expected: owned(200),
    setup: role,
    send: (s, t) => s.get(`/api/auth/roles/${t.id}`),
  },
  {
    route: 'POST /api/auth/roles',
    feature: 'roles',
    expected: owned(201),
    send: (s) => s.post('/api/auth/roles', { ...roleBody(`Made ${next()}`), organizationId: orgA }),
  },
  {
    route: 'PUT /api/auth/roles/:id',
    feature: 'roles',
    expected: owned(200),
    setup: role,
    send: (s, t) => s.put(`/api/auth/roles/${t.id}`, roleBody(`Renamed ${next()}`)),
  },
  {
    route: 'DELETE /api/auth/roles/:id',
    feature: 'roles',
    expected: owned(200),
    setup: role,
    send: (s, t) => s.delete(`/api/auth/roles/${t.id}`),
  },
  // Users
  {
    route: 'GET /api/auth/users',
    feature: 'users',
    expected: listed,
    setup: () => userOfA(),
    send: (s, t) => s.get(`/api/auth/users?search=${encodeURIComponent(t.shownAs!)}`),
    shown: (res) => dataIds(res).concat((res.json().data as { email: string }[]).map((u) => u.email)),
  },
  {
    // signedIn: reading another user needs User Management READ (the route checks it).
    route: 'GET /api/auth/users/:id',
    feature: 'users',
    expected: owned(200),
    setup: () => userOfA(),
    send: (s, t) => s.get(`/api/auth/users/${t.id}`),
  },
  {
    // signedIn: changing another user needs User Management UPDATE (the service checks it).
    route: 'PUT /api/auth/users/:id',
    feature: 'users',
    expected: owned(200),
    setup: () => userOfA(),
    send: (s, t) => s.put(`/api/auth/users/${t.id}`, { mobileNo: '9000000009' }),
  },
  {
    route: 'PUT /api/auth/users/:id/activate',
    feature: 'users',
    expected: owned(200),
    setup: () => userOfA({ active: false }),
    send: (s, t) => s.put(`/api/auth/users/${t.id}/activate`),
  },
  {
    route: 'PUT /api/auth/users/:id/deactivate',
    feature: 'users',
    expected: owned(200),
    setup: () => userOfA(),
    send: (s, t) => s.put(`/api/auth/users/${t.id}/deactivate`),
  },
  {
    route: 'POST /api/auth/users/:id/resend-invite',
    feature: 'users',
    expected: owned(200),
    setup: () => userOfA({ password: false }),
    send: (s, t) => s.post(`/api/auth/users/${t.id}/resend-invite`),
  },
  {
    route: 'GET /api/auth/users/export',
    feature: 'users',
    expected: listed,
    setup: () => userOfA(),
    send: (s) => s.get('/api/auth/users/export?format=csv'),
    shown: csvText,
  },
  ...IMPORT_CASES,
  {
    route: 'POST /api/auth/users/as/admin',
    feature: 'users',
    expected: owned(201),
    send: (s) => s.post('/api/auth/users/as/admin', newUserBody(adminRole)),
  },
  {
    route: 'POST /api/auth/auth-session/register',
    feature: 'users',
    expected: owned(201),
    send: (s) => s.post('/api/auth/auth-session/register', newUserBody(memberRoleA)),
  },
  // Organizations and company details
  {
    route: 'GET /api/auth/organizations',
    feature: 'organizations',
    expected: listed,
    setup: async () => ({ id: orgA }),
    send: (s) => s.get('/api/auth/organizations?search=Tenant%20A'),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/companies/:organizationId',
    feature: 'organizations',
    expected: owned(200),
    send: (s) => s.get(`/api/auth/companies/${orgA}`),
  },
  {
    route: 'POST /api/auth/companies',
    feature: 'organizations',
    expected: owned(200),
    send: (s) => s.post('/api/auth/companies', company()),
  },
  // Subscriptions, payments, credits, API keys, online orders, onboarding
  {
    route: 'GET /api/auth/subscriptions',
    feature: 'subscriptions',
    expected: listed,
    setup: async () => ({ id: await addSubscription(ctx, orgA) }),
    send: (s) => s.get('/api/auth/subscriptions?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/subscriptions/:id',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({ id: await addSubscription(ctx, orgA) }),
    send: (s, t) => s.get(`/api/auth/subscriptions/${t.id}`),
  },
  {
    route: 'POST /api/auth/subscriptions',
    feature: 'subscriptions',
    expected: platformOnly(201),
    send: (s) => s.post('/api/auth/subscriptions', { organizationId: orgA, ...terms(10) }),
  },
  {
    // The admin role holds no Subscription Management UPDATE: the scope refuses tenant B first.
    route: 'PUT /api/auth/subscriptions/:id',
    feature: 'subscriptions',
    expected: platformOnly(200),
    setup: async () => ({ id: await addSubscription(ctx, orgA) }),
    send: (s, t) => s.put(`/api/auth/subscriptions/${t.id}`, { status: 'CANCELLED' }),
  },
  {
    route: 'GET /api/auth/payments',
    feature: 'subscriptions',
    expected: listed,
    setup: async () => ({ id: await addPayment(ctx, orgA, { amountPaise: 10_000 }) }),
    send: (s) => s.get('/api/auth/payments?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/payments/:id',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({ id: await addPayment(ctx, orgA, { amountPaise: 10_000 }) }),
    send: (s, t) => s.get(`/api/auth/payments/${t.id}`),
  },
  {
    route: 'POST /api/auth/payments',
    feature: 'subscriptions',
    expected: platformOnly(201),
    send: (s) =>
      s.post('/api/auth/payments', {
        organizationId: orgA,
        amountPaise: 10_000,
        manualReferenceNumber: `UTR-${next()}`,
      }),
  },
  {
    route: 'GET /api/auth/credits',
    feature: 'subscriptions',
    expected: listed,
    ownOrganizationOnly: true,
    setup: async () => ({ id: orgA }),
    send: (s) => s.get('/api/auth/credits'),
    shown: (res) => [res.json().data.organizationId as string],
  },
  {
    route: 'GET /api/auth/credits/ledger',
    feature: 'subscriptions',
    expected: listed,
    ownOrganizationOnly: true,
    setup: async () => {
      const [row] = await ctx.database.db
        .insert(creditLedger)
        .values({ organizationId: orgA, delta: 7, reason: 'adjustment' })
        .returning({ id: creditLedger.id });
      return { id: row!.id };
    },
    send: (s) => s.get('/api/auth/credits/ledger?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/api-keys',
    feature: 'subscriptions',
    expected: listed,
    ownOrganizationOnly: true,
    setup: apiKey,
    send: (s) => s.get('/api/auth/api-keys?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'POST /api/auth/api-keys',
    feature: 'subscriptions',
    expected: owned(201),
    send: (s) => s.post('/api/auth/api-keys', { name: `Key ${next()}`, organizationId: orgA }),
  },
  {
    route: 'DELETE /api/auth/api-keys/:id',
    feature: 'subscriptions',
    expected: owned(200),
    setup: apiKey,
    send: (s, t) => s.delete(`/api/auth/api-keys/${t.id}`),
  },
  {
    route: 'POST /api/admin/payment/order',
    feature: 'subscriptions',
    expected: owned(201),
    send: (s) => s.post('/api/admin/payment/order', { credits: 3, organizationId: orgA }),
  },
  {
    route: 'POST /api/admin/payment/sandbox/pay',
    feature: 'subscriptions',
    expected: owned(200),
    setup: order,
    send: (s, t) => s.post('/api/admin/payment/sandbox/pay', t.body),
  },
  {
    route: 'POST /api/admin/payment/verify',
    feature: 'subscriptions',
    expected: owned(200),
    setup: paidOrder,
    send: (s, t) => s.post('/api/admin/payment/verify', t.body),
  },
  // Tax invoices, credit notes, refunds and the seller's tax profile
  {
    route: 'GET /api/auth/tax-profile',
    feature: 'subscriptions',
    expected: platformOnly(200),
    send: (s) => s.get('/api/auth/tax-profile'),
  },
  {
    route: 'PUT /api/auth/tax-profile',
    feature: 'subscriptions',
    expected: platformOnly(200),
    send: (s) => s.put('/api/auth/tax-profile', { ...TEST_SELLER_PROFILE }),
  },
  {
    route: 'GET /api/auth/invoices',
    feature: 'subscriptions',
    expected: listed,
    setup: async () => ({ id: (await addInvoicedPayment(ctx, orgA)).invoiceId }),
    send: (s) => s.get('/api/auth/invoices?pageSize=100'),
    shown: dataIds,
  },
  {
    // What each organization's register holds is checked in invoices.test.ts (an .xlsx to unpack).
    route: 'GET /api/auth/invoices/export',
    feature: 'subscriptions',
    expected: listed,
    send: (s) => s.get('/api/auth/invoices/export'),
  },
  {
    route: 'GET /api/auth/invoices/:id/pdf',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({ id: (await addInvoicedPayment(ctx, orgA)).invoiceId }),
    send: (s, t) => s.get(`/api/auth/invoices/${t.id}/pdf`),
  },
  {
    route: 'GET /api/auth/credit-notes',
    feature: 'subscriptions',
    expected: listed,
    setup: async () => ({
      id: (await addCreditNote(ctx, (await addInvoicedPayment(ctx, orgA)).paymentId)).creditNoteId,
    }),
    send: (s) => s.get('/api/auth/credit-notes?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/credit-notes/:id/pdf',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({
      id: (await addCreditNote(ctx, (await addInvoicedPayment(ctx, orgA)).paymentId)).creditNoteId,
    }),
    send: (s, t) => s.get(`/api/auth/credit-notes/${t.id}/pdf`),
  },
  {
    // Money back and credits taken away: the platform operator's act.
    route: 'POST /api/auth/payments/:id/refunds',
    feature: 'subscriptions',
    expected: platformOnly(201),
    setup: async () => ({ id: (await addInvoicedPayment(ctx, orgA)).paymentId }),
    send: (s, t) =>
      s.post(
        `/api/auth/payments/${t.id}/refunds`,
        { amountPaise: 5_000, reason: 'Goodwill' },
        { headers: { [IDEMPOTENCY_HEADER]: randomUUID() } },
      ),
  },
  {
    // Makes a new tenant: nobody but the platform may.
    route: 'POST /api/auth/onboarding',
    feature: 'users',
    expected: platformOnly(201),
    send: (s) =>
      s.post('/api/auth/onboarding', onboardingBody(), {
        headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
      }),
  },
  // Positions
  {
    route: 'GET /api/auth/positions',
    feature: 'positions',
    expected: listed,
    setup: position,
    send: (s, t) => s.get(`/api/auth/positions?search=${encodeURIComponent(t.body!.title as string)}`),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/positions/:id',
    feature: 'positions',
    expected: owned(200),
    setup: position,
    send: (s, t) => s.get(`/api/auth/positions/${t.id}`),
  },
  {
    route: 'POST /api/auth/positions',
    feature: 'positions',
    expected: owned(201),
    send: (s) => s.post('/api/auth/positions', { ...positionBody(`Made ${next()}`), organizationId: orgA }),
  },
  {
    route: 'PUT /api/auth/positions/:id',
    feature: 'positions',
    expected: owned(200),
    setup: position,
    send: (s, t) => s.put(`/api/auth/positions/${t.id}`, positionBody(`Edited ${next()}`)),
  },
  {
    route: 'PUT /api/auth/positions/:id/close',
    feature: 'positions',
    expected: owned(200),
    setup: position,
    send: (s, t) => s.put(`/api/auth/positions/${t.id}/close`),
  },
  {
    route: 'PUT /api/auth/positions/:id/reopen',
    feature: 'positions',
    expected: owned(200),
    setup: async () => {
      const p = await position();
      expect((await actors.adminA.put(`/api/auth/positions/${p.id}/close`)).statusCode).toBe(200);
      return p;
    },
    send: (s, t) => s.put(`/api/auth/positions/${t.id}/reopen`),
  },
  // Support
  {
    route: 'GET /api/auth/support/tickets',
    feature: 'support',
    expected: listed,
    setup: ticket,
    send: (s, t) =>
      s.get(`/api/auth/support/tickets?search=${encodeURIComponent(t.body!.message as string)}`),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/support/tickets/:id',
    feature: 'support',
    expected: owned(200),
    setup: ticket,
    send: (s, t) => s.get(`/api/auth/support/tickets/${t.id}`),
  },
  {
    // No organization to name: every admin raises a ticket in its own tenant.
    route: 'POST /api/auth/support/tickets',
    feature: 'support',
    expected: { member: 403, adminB: 201, adminA: 201, super_admin: 201 },
    send: (s) => s.post('/api/auth/support/tickets', { message: `Help ${next()}`, type: 'feedback' }),
  },
  {
    route: 'PUT /api/auth/support/tickets/:id/status',
    feature: 'support',
    expected: owned(200),
    setup: ticket,
    send: (s, t) => s.put(`/api/auth/support/tickets/${t.id}/status`, { status: 'Inactive' }),
  },
  {
    route: 'DELETE /api/auth/support/tickets/:id',
    feature: 'support',
    expected: owned(200),
    setup: ticket,
    send: (s, t) => s.delete(`/api/auth/support/tickets/${t.id}`),
  },
  {
    route: 'GET /api/auth/support/tickets/export',
    feature: 'support',
    expected: listed,
    // The CSV shows the message, not the id.
    setup: async () => {
      const t = await ticket();
      return { ...t, shownAs: t.body!.message as string };
    },
    send: (s, t) =>
      s.get(
        `/api/auth/support/tickets/export?format=csv&search=${encodeURIComponent(t.body!.message as string)}`,
      ),
    shown: csvText,
  },
  // Dashboard and activity feed
  {
    route: 'GET /api/auth/dashboard',
    feature: 'dashboard',
    expected: listed,
    send: (s) => s.get('/api/auth/dashboard'),
  },
  {
    route: 'GET /api/auth/activities',
    feature: 'dashboard',
    expected: listed,
    setup: async () => {
      const entityType = `every-route-${next()}`;
      await addActivity(ctx, orgA, { entityType });
      return { id: entityType };
    },
    send: (s, t) => s.get(`/api/auth/activities?entityType=${t.id}`),
    shown: (res) => (res.json().data as { entityType: string }[]).map((e) => e.entityType),
  },
  // One's own account: every actor acts on its own data; an id of someone else answers 404 or 403.
  {
    route: 'GET /api/auth/features',
    feature: null,
    expected: own(200),
    send: (s) => s.get('/api/auth/features'),
  },
  {
    route: 'GET /api/auth/auth-session/me',
    feature: null,
    expected: own(200),
    send: (s) => s.get('/api/auth/auth-session/me'),
  },
  {
    route: 'GET /api/auth/profile',
    feature: null,
    expected: own(200),
    send: (s) => s.get('/api/auth/profile'),
  },
  {
    route: 'PUT /api/auth/profile',
    feature: null,
    expected: own(200),
    send: (s) => s.put('/api/auth/profile', { fullName: `Name ${next()}`, mobileNo: '9123456789' }),
  },
  {
    route: 'PUT /api/auth/profile/image',
    feature: null,
    expected: own(200),
    send: (s) => {
      const { payload, headers } = multipartBody({}, { name: 'me.png', data: PNG_BYTES });
      return s.put('/api/auth/profile/image', payload, { headers });
    },
  },
  {
    // Tenant A's profile image: readable inside tenant A, absent for tenant B.
    route: 'GET /api/files/:id',
    feature: null,
    expected: { member: 200, adminB: 404, adminA: 200, super_admin: 200 },
    setup: async () => ({
      id: await storeFile(ctx.app.deps, systemActor('test'), {
        organizationId: orgA,
        ownerUserId: accounts.adminA.userId,
        fileName: 'a.png',
        mimeType: 'image/png',
        data: PNG_BYTES,
      }),
    }),
    send: (s, t) => s.get(`/api/files/${t.id}`),
  },
  {
    route: 'GET /api/auth/notifications',
    feature: null,
    expected: own(200),
    setup: notificationOf,
    send: (s) => s.get('/api/auth/notifications?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'GET /api/auth/notifications/unread-count',
    feature: null,
    expected: own(200),
    send: (s) => s.get('/api/auth/notifications/unread-count'),
  },
  {
    route: 'PUT /api/auth/notifications/:id/read',
    feature: null,
    expected: { member: 200, adminB: 404, adminA: 200, super_admin: 200 },
    setup: notificationOf,
    send: (s, t) => s.put(`/api/auth/notifications/${t.id}/read`),
  },
  {
    route: 'PUT /api/auth/notifications/read-all',
    feature: null,
    expected: own(200),
    setup: notificationOf,
    send: (s) => s.put('/api/auth/notifications/read-all'),
  },
  // Two-factor sign-in: one's own. The super administrator has it on; the others have not.
  {
    route: 'GET /api/auth/two-factor',
    feature: null,
    expected: own(200),
    send: (s) => s.get('/api/auth/two-factor'),
  },
  {
    route: 'POST /api/auth/two-factor/setup',
    feature: null,
    expected: { member: 200, adminB: 200, adminA: 200, super_admin: 409 },
    send: (s) => s.post('/api/auth/two-factor/setup'),
  },
  {
    // A code that matches no step (the clock is never at 999999's step twice in a row).
    route: 'POST /api/auth/two-factor/enable',
    feature: null,
    expected: { member: 400, adminB: 400, adminA: 400, super_admin: 409 },
    send: (s) => s.post('/api/auth/two-factor/enable', { code: wrongCode() }),
  },
  {
    route: 'POST /api/auth/two-factor/disable',
    feature: null,
    expected: { member: 409, adminB: 409, adminA: 409, super_admin: 400 },
    send: (s, _t, actor) =>
      s.post('/api/auth/two-factor/disable', { password: accounts[actor].password, code: wrongCode() }),
  },
  {
    route: 'POST /api/auth/two-factor/recovery-codes',
    feature: null,
    expected: { member: 409, adminB: 409, adminA: 409, super_admin: 200 },
    setup: async () => {
      await forgetUsedCodes(ctx.app, ADMIN_EMAIL);
      return { id: '' };
    },
    send: (s, _t, actor) =>
      s.post('/api/auth/two-factor/recovery-codes', {
        password: accounts[actor].password,
        code: totpCode(ADMIN_TOTP_SECRET),
      }),
  },
  {
    // A wrong code: nobody's authenticator is replaced here (two-factor.test.ts replaces one).
    route: 'POST /api/auth/two-factor/replace',
    feature: null,
    expected: { member: 409, adminB: 409, adminA: 409, super_admin: 400 },
    send: (s, _t, actor) =>
      s.post('/api/auth/two-factor/replace', { password: accounts[actor].password, code: wrongCode() }),
  },
  {
    route: 'POST /api/auth/users/:id/two-factor/reset',
    feature: 'users',
    expected: platformOnly(200),
    setup: async () => {
      const target = await userOfA();
      await enrolTwoFactor(await signIn(ctx.app, target.shownAs!, STRONG_PASSWORD));
      return target;
    },
    send: (s, t) => s.post(`/api/auth/users/${t.id}/two-factor/reset`),
  },
  // The monthly plan and its renewals
  {
    route: 'GET /api/auth/billing-plan',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) => s.get(`/api/auth/billing-plan?organizationId=${orgA}`),
  },
  {
    route: 'PUT /api/auth/billing-plan',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) => s.put(`/api/auth/billing-plan?organizationId=${orgA}`, { autoRenew: next() % 2 === 0 }),
  },
  {
    route: 'PUT /api/auth/billing-plan/terms',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) =>
      s.put(`/api/auth/billing-plan/terms?organizationId=${orgA}`, { creditsPerPeriod: 10 + next() }),
  },
  {
    route: 'POST /api/auth/billing-plan/upgrade',
    feature: 'subscriptions',
    expected: owned(201),
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) => s.post(`/api/auth/billing-plan/upgrade?organizationId=${orgA}`, { creditsPerPeriod: 1_000 }),
  },
  {
    route: 'POST /api/auth/billing-plan/mandate/cancel',
    feature: 'subscriptions',
    expected: owned(200),
    setup: async () => {
      await planOf(orgA);
      await ctx.database.db
        .update(billingPlans)
        .set({ collection: 'mandate', mandateStatus: 'authorized', mandateToken: 'token_tenancy' })
        .where(eq(billingPlans.organizationId, orgA));
      return { id: orgA };
    },
    send: (s) => s.post(`/api/auth/billing-plan/mandate/cancel?organizationId=${orgA}`),
  },
  {
    route: 'POST /api/auth/billing-plan/cancel-now',
    feature: 'subscriptions',
    expected: platformOnly(200),
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) =>
      s.post(`/api/auth/billing-plan/cancel-now?organizationId=${orgA}`, undefined, {
        headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
      }),
  },
  {
    route: 'GET /api/auth/renewals',
    feature: 'subscriptions',
    expected: listed,
    setup: () => renewalOfA('scheduled'),
    send: (s) => s.get('/api/auth/renewals?pageSize=100'),
    shown: dataIds,
  },
  {
    route: 'POST /api/auth/renewals/:id/order',
    feature: 'subscriptions',
    expected: owned(201),
    setup: () => renewalOfA('awaiting_authentication'),
    send: (s, t) => s.post(`/api/auth/renewals/${t.id}/order`),
  },
  {
    route: 'POST /api/auth/renewals/:id/skip',
    feature: 'subscriptions',
    expected: owned(200),
    setup: () => renewalOfA('notified'),
    send: (s, t) => s.post(`/api/auth/renewals/${t.id}/skip`),
  },
  {
    route: 'POST /api/auth/renewals/:id/payments',
    feature: 'subscriptions',
    expected: platformOnly(201),
    setup: () => renewalOfA('awaiting_payment'),
    send: (s, t) =>
      s.post(`/api/auth/renewals/${t.id}/payments`, {
        transactionId: `UTR-${next()}`,
        paymentMethod: 'upi',
        paymentDate: '2026-01-10',
      }),
  },
  {
    // The caller's own organization's mandate; the platform's own organization has no plan.
    route: 'POST /api/admin/payment/sandbox/mandate',
    feature: 'subscriptions',
    expected: { member: 403, adminB: 200, adminA: 200, super_admin: 404 },
    setup: async () => {
      await planOf(orgB);
      return { id: await planOf(orgA) };
    },
    send: (s) => s.post('/api/admin/payment/sandbox/mandate', { cardNumber: '4111111111111111' }),
  },
  // Razorpay's mandate checkout: the sandbox has its own form, so here every caller allowed in finds
  // nothing; src/modules/billing/razorpay-mandates.test.ts runs both against Razorpay, tenants included.
  {
    route: 'POST /api/auth/billing-plan/mandate/order',
    feature: 'subscriptions',
    expected: { member: 403, adminB: 404, adminA: 404, super_admin: 404 },
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) => s.post('/api/auth/billing-plan/mandate/order'),
  },
  {
    route: 'POST /api/auth/billing-plan/mandate/verify',
    feature: 'subscriptions',
    expected: { member: 403, adminB: 404, adminA: 404, super_admin: 404 },
    setup: async () => ({ id: await planOf(orgA) }),
    send: (s) =>
      s.post('/api/auth/billing-plan/mandate/verify', {
        razorpay_order_id: 'order_tenancy',
        razorpay_payment_id: 'pay_tenancy',
        razorpay_signature: 'signature',
      }),
  },
  // Undelivered mail: the platform's to watch and resend, whoever it was to.
  {
    route: 'GET /api/auth/mail/undelivered',
    feature: null,
    expected: platformOnly(200),
    setup: undeliveredMailOfA,
    send: (s) => s.get('/api/auth/mail/undelivered'),
  },
  {
    route: 'GET /api/auth/mail/:id/attempts',
    feature: null,
    expected: platformOnly(200),
    setup: undeliveredMailOfA,
    send: (s, t) => s.get(`/api/auth/mail/${t.id}/attempts`),
  },
  {
    route: 'POST /api/auth/mail/:id/resend',
    feature: null,
    expected: platformOnly(200),
    setup: undeliveredMailOfA,
    send: (s, t) => s.post(`/api/auth/mail/${t.id}/resend`, {}),
  },
  // Sessions: one's own; another user's only through the platform operator's end-sessions.
  {
    route: 'GET /api/auth/sessions',
    feature: null,
    expected: own(200),
    send: (s) => s.get('/api/auth/sessions'),
  },
  {
    // A new session of tenant A's admin: only that admin may end it.
    route: 'DELETE /api/auth/sessions/:id',
    feature: null,
    expected: { member: 404, adminB: 404, adminA: 200, super_admin: 404 },
    setup: async () => {
      const other = await signIn(ctx.app, accounts.adminA.email, accounts.adminA.password);
      const listed = (await other.get('/api/auth/sessions')).json().data as {
        id: string;
        current: boolean;
      }[];
      return { id: listed.find((x) => x.current)!.id };
    },
    send: (s, t) => s.delete(`/api/auth/sessions/${t.id}`),
  },
  {
    route: 'POST /api/auth/sessions/end-others',
    feature: null,
    expected: own(200),
    send: (s) => s.post('/api/auth/sessions/end-others'),
  },
  {
    route: 'POST /api/auth/users/:id/end-sessions',
    feature: 'users',
    expected: platformOnly(200),
    setup: () => userOfA(),
    send: (s, t) => s.post(`/api/auth/users/${t.id}/end-sessions`),
  },
  {
    route: 'PUT /api/auth/roles/:id/two-factor',
    feature: 'roles',
    expected: platformOnly(200),
    setup: role,
    send: (s, t) => s.put(`/api/auth/roles/${t.id}/two-factor`, { required: false }),
  },
  {
    // A session of its own, so the actor's main session stays signed in.
    route: 'POST /api/auth/auth-session/logout',
    feature: null,
    expected: own(200),
    send: async (_s, _t, actor) =>
      (await signIn(ctx.app, accounts[actor].email, accounts[actor].password)).post(
        '/api/auth/auth-session/logout',
      ),
  },
  {
    // Last: it changes the actor's password. Tenant B names tenant A's admin: 403.
    route: 'PUT /api/auth/users/password',
    feature: null,
    expected: { member: 200, adminB: 403, adminA: 200, super_admin: 200 },
    send: (s, _t, actor) =>
      s.put('/api/auth/users/password', {
        userId: accounts[actor === 'adminB' ? 'adminA' : actor].userId,
        currentPassword: accounts[actor].password,
        newPassword: NEW_PASSWORD,
      }),
  },
];

const CASES = ROUTES.flatMap((r) => ACTORS.map((actor) => ({ r, actor, status: r.expected[actor] })));

describe(`every-route tenancy matrix (${ROUTES.length} routes, ${CASES.length} cases)`, () => {
  it.each(CASES.map((c) => [c.r.route, c.actor, c.status, c] as const))(
    '%s as %s → %i',
    async (_route, actor, status, c) => {
      const t = (await c.r.setup?.(actor)) ?? { id: '' };
      const before = await snapshot();
      const res = await c.r.send(sessionOf(actor, c.r.feature), t, actor);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
      if (status >= 400) {
        expect(await snapshot(), 'a refused request changed data').toBe(before);
        return;
      }
      if (!c.r.shown) return;
      const target = t.shownAs ?? t.id;
      const seen = c.r.shown(res).some((s) => s === target || (c.r.shown === csvText && s.includes(target)));
      if (actor === 'adminB') expect(seen, "tenant B sees tenant A's row").toBe(false);
      else if (actor !== 'super_admin' || !c.r.ownOrganizationOnly) expect(seen).toBe(true);
    },
  );

  it('has a case for every signed-in /api route', () => {
    const routes = ctx.app.routeAccess
      .filter((r) => isApiRoute(r.url) && r.method !== 'HEAD')
      .filter((r) => r.access?.kind !== 'public' && r.access?.kind !== 'apiKey')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(ROUTES.map((r) => r.route).sort()).toEqual(routes);
    expect(CASES.length).toBe(routes.length * ACTORS.length);
  });
});
