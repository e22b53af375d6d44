import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, messages } from '@portal/shared';
import { activityEntries, companyDetails, storedFiles, users } from '../../db/schema/index.js';
import {
  createTestApp,
  signIn,
  tableFingerprint,
  type Session,
  type TestContext,
} from '../../../test/harness.js';
import {
  JPEG_BYTES,
  multipartBody,
  PDF_BYTES,
  PNG_BYTES,
  type FilePart,
} from '../../../test/upload-fixtures.js';
import {
  addSubscription,
  companyDetailsBody,
  createRole,
  createTenant,
  type TestTenant,
} from '../../../test/fixtures.js';

let ctx: TestContext;
let root: Session;
let acme: TestTenant;
let globex: TestTenant;
/** No subscription at all, one run out, one not ACTIVE. */
let unsubscribed: TestTenant[];

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  acme = await createTenant(ctx, 'Acme', { subscribed: true });
  globex = await createTenant(ctx, 'Globex', { subscribed: true });
  const none = await createTenant(ctx, 'Lapsed None', { subscribed: false });
  const expired = await createTenant(ctx, 'Lapsed Expired', { subscribed: false });
  await addSubscription(ctx, expired.organizationId, { validUntil: new Date(Date.now() - 1000) });
  const cancelled = await createTenant(ctx, 'Lapsed Cancelled', { subscribed: false });
  await addSubscription(ctx, cancelled.organizationId, { status: 'CANCELLED' });
  unsubscribed = [none, expired, cancelled];
});
afterAll(() => ctx.close());

const PROFILE = '/api/auth/profile';
const IMAGE = '/api/auth/profile/image';
const COMPANIES = '/api/auth/companies';

function uploadImage(session: Session, file?: FilePart) {
  const { payload, headers } = multipartBody({}, file);
  return session.put(IMAGE, payload, { headers });
}

async function userRow(id: string) {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('profile', () => {
  it("reads the signed-in user's own record", async () => {
    const res = await acme.session.get(PROFILE);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: acme.userId, email: acme.email, isSubscription: true });
  });

  it('saves full name, contact number and username, with an activity entry', async () => {
    const res = await acme.session.put(PROFILE, {
      fullName: 'Asha Rao',
      email: acme.email.toUpperCase(),
      mobileNo: '9876543210',
      username: 'asha.rao',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: messages.profile.updated,
      data: { fullName: 'Asha Rao', mobileNo: '9876543210', username: 'asha.rao' },
    });
    expect(await userRow(acme.userId)).toMatchObject({ fullName: 'Asha Rao', username: 'asha.rao' });
    const log = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, acme.userId), eq(activityEntries.entityType, 'user')));
    expect(log.map((e) => e.message)).toContain('Updated the profile');
  });

  it('keeps the email read-only and checks each field', async () => {
    const taken = globex.username;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ fullName: 'A', email: 'new@example.com', mobileNo: '9876543210' }, 400, messages.users.emailLocked],
      [{ fullName: ' ', mobileNo: '9876543210' }, 400, messages.profile.fullNameRequired],
      [{ mobileNo: '9876543210' }, 400, messages.profile.fullNameRequired],
      [{ fullName: 'A', mobileNo: '' }, 400, messages.profile.contactRequired],
      [{ fullName: 'A', mobileNo: '98765' }, 400, messages.users.invalidMobile],
      [{ fullName: 'A', mobileNo: '9876543210', username: 'x' }, 400, messages.users.invalidUsername],
      [{ fullName: 'A', mobileNo: '9876543210', username: taken }, 409, messages.users.duplicate],
    ];
    for (const [body, status, message] of cases) {
      const res = await acme.session.put(PROFILE, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(await userRow(acme.userId)).toMatchObject({ fullName: 'Asha Rao', email: acme.email });
  });

  it('refuses profile changes without an active subscription (403), but never for super_admin', async () => {
    for (const tenant of unsubscribed) {
      expect((await tenant.session.get(PROFILE)).json().data.isSubscription).toBe(false);
      const res = await tenant.session.put(PROFILE, { fullName: 'Changed', mobileNo: '9876543210' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.profile.subscriptionExpired);
      expect((await userRow(tenant.userId)).fullName).toBeNull();
    }
    const res = await root.put(PROFILE, { fullName: 'Root Admin', mobileNo: '9000000000' });
    expect(res.statusCode).toBe(200);
  });
});

describe('profile image', () => {
  let firstUrl: string;

  it('stores a PNG and serves it inline with its type', async () => {
    const res = await uploadImage(acme.session, {
      name: 'me.png',
      data: PNG_BYTES,
      contentType: 'image/png',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.profile.imageUpdated);
    firstUrl = res.json().data.profileImage;
    expect(firstUrl).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const image = await acme.session.get(firstUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toMatch(/^inline; filename="me.png"/);
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    // Personal data: no cache keeps it.
    expect(image.headers['cache-control']).toBe('no-store');
    expect(image.rawPayload.equals(PNG_BYTES)).toBe(true);
  });

  it('replaces it and deletes the old file', async () => {
    const res = await uploadImage(acme.session, { name: 'me.jpg', data: JPEG_BYTES });
    expect(res.statusCode).toBe(200);
    const url = res.json().data.profileImage;
    expect(url).not.toBe(firstUrl);
    expect((await acme.session.get(url)).headers['content-type']).toBe('image/jpeg');
    expect((await acme.session.get(firstUrl)).statusCode).toBe(404);
    const oldId = firstUrl.split('/').pop()!;
    expect(await ctx.database.db.select().from(storedFiles).where(eq(storedFiles.id, oldId))).toHaveLength(0);
  });

  it('is visible to its own organization and super_admin only', async () => {
    const url = (await acme.session.get(PROFILE)).json().data.profileImage;
    expect((await root.get(url)).statusCode).toBe(200);
    expect((await globex.session.get(url)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('refuses a file that is not an image by content, an oversize one and a missing one', async () => {
    const before = (await userRow(acme.userId)).profileImageFileId;
    const pdf = await uploadImage(acme.session, {
      name: 'me.png',
      data: PDF_BYTES,
      contentType: 'image/png',
    });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe(messages.profile.imageTypeRejected);
    const big = await uploadImage(acme.session, {
      name: 'big.png',
      data: Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_UPLOAD_BYTES)]),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe(messages.profile.imageTooLarge);
    const none = await uploadImage(acme.session);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(messages.profile.imageRequired);
    const json = await acme.session.put(IMAGE, { profileImage: 'x' });
    expect(json.statusCode).toBe(400);
    expect((await userRow(acme.userId)).profileImageFileId).toBe(before);
  });

  it('refuses a new image without an active subscription (403, image variant)', async () => {
    for (const tenant of unsubscribed) {
      const res = await uploadImage(tenant.session, { name: 'me.png', data: PNG_BYTES });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.profile.subscriptionExpiredImage);
      expect((await userRow(tenant.userId)).profileImageFileId).toBeNull();
    }
  });
  // Only the modules with uploads read multipart (plugins/multipart.ts acceptUploads); others refuse it.
  it('refuses a multipart form on a route of a module without uploads: 415 in the error shape, nothing changed', async () => {
    const fingerprint = await tableFingerprint(ctx);
    const before = await fingerprint();
    const fields = Object.entries(companyDetailsBody(acme.organizationId)).map(([k, v]) => [k, String(v)]);
    const { payload, headers } = multipartBody(Object.fromEntries(fields));
    const res = await acme.session.post(COMPANIES, payload, { headers });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, errors: {} });
    expect(res.json().message).toEqual(expect.any(String));
    expect(await fingerprint()).toBe(before);
  });
});

describe('company details', () => {
  it('answers null before anything is saved, then saves and reads them back', async () => {
    const empty = await acme.session.get(`${COMPANIES}/${acme.organizationId}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data).toBeNull();

    const saved = await acme.session.post(COMPANIES, companyDetailsBody(acme.organizationId));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe(messages.profile.companySaved);
    expect(saved.json().data).toMatchObject({
      organizationId: acme.organizationId,
      foundedIn: 2010,
      instagramUrl: null,
      facebookUrl: null,
    });
    const updated = await acme.session.post(
      COMPANIES,
      companyDetailsBody(acme.organizationId, { city: 'Mysuru' }),
    );
    expect(updated.json().data.city).toBe('Mysuru');
    const read = await acme.session.get(`${COMPANIES}/${acme.organizationId}`);
    expect(read.json().data).toMatchObject({ name: 'Acme Pvt Ltd', city: 'Mysuru', pincode: '560001' });

    const log = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(
        and(eq(activityEntries.entityId, acme.organizationId), eq(activityEntries.entityType, 'company')),
      );
    expect(log.map((e) => e.action).sort()).toEqual(['created', 'updated']);
  });

  it("requires the organization id: 'Organization ID is required'", async () => {
    const { organizationId: _omit, ...body } = companyDetailsBody(acme.organizationId);
    const res = await acme.session.post(COMPANIES, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.profile.organizationIdRequired);
  });

  it('checks each field with its message', async () => {
    const year = new Date().getFullYear();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, messages.company.nameRequired],
      [{ email: 'not-an-email' }, messages.users.invalidEmail],
      [{ address: ' ' }, messages.company.addressRequired],
      [{ country: '' }, messages.company.countryRequired],
      [{ state: '' }, messages.company.stateRequired],
      [{ city: '' }, messages.company.cityRequired],
      [{ pincode: '012345' }, messages.company.pincodeInvalid],
      [{ pincode: '56001' }, messages.company.pincodeInvalid],
      [{ industryType: '' }, messages.company.industryRequired],
      [{ foundedIn: 1799 }, messages.company.foundedInInvalid],
      [{ foundedIn: year + 1 }, messages.company.foundedInInvalid],
      [{ websiteUrl: 'acme.example' }, messages.company.websiteInvalid],
      [{ websiteUrl: 'javascript:alert(1)' }, messages.company.websiteInvalid],
      [{ linkedinUrl: 'https://evil.example/acme' }, messages.company.linkedinInvalid],
      [{ instagramUrl: 'ftp://instagram.com/acme' }, messages.company.instagramInvalid],
      [{ facebookUrl: 'https://facebook.com.evil.example/x' }, messages.company.facebookInvalid],
      [{ aboutUs: 'x'.repeat(2001) }, messages.company.aboutUsTooLong],
    ];
    for (const [patch, message] of cases) {
      const res = await acme.session.post(COMPANIES, companyDetailsBody(acme.organizationId, patch));
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const ok = await acme.session.post(
      COMPANIES,
      companyDetailsBody(acme.organizationId, { foundedIn: String(year) }),
    );
    expect(ok.statusCode).toBe(200);
  });

  it("answers 404 for another organization's details and saves nothing there", async () => {
    expect((await globex.session.get(`${COMPANIES}/${acme.organizationId}`)).statusCode).toBe(404);
    const res = await globex.session.post(
      COMPANIES,
      companyDetailsBody(acme.organizationId, { name: 'Hijacked' }),
    );
    expect(res.statusCode).toBe(404);
    const [row] = await ctx.database.db
      .select()
      .from(companyDetails)
      .where(eq(companyDetails.organizationId, acme.organizationId));
    expect(row?.name).toBe('Acme Pvt Ltd');
  });

  it('lets super_admin read and save any organization, and 404s an unknown one', async () => {
    expect((await root.get(`${COMPANIES}/${acme.organizationId}`)).json().data.name).toBe('Acme Pvt Ltd');
    const res = await root.post(
      COMPANIES,
      companyDetailsBody(globex.organizationId, { name: 'Globex Corp' }),
    );
    expect(res.statusCode).toBe(200);
    expect((await globex.session.get(`${COMPANIES}/${globex.organizationId}`)).json().data.name).toBe(
      'Globex Corp',
    );
    const unknown = await root.post(COMPANIES, companyDetailsBody('00000000-0000-4000-8000-000000000000'));
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses company changes without an active subscription (403, company variant)', async () => {
    for (const tenant of unsubscribed) {
      const res = await tenant.session.post(COMPANIES, companyDetailsBody(tenant.organizationId));
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.profile.subscriptionExpiredCompany);
      const rows = await ctx.database.db
        .select()
        .from(companyDetails)
        .where(eq(companyDetails.organizationId, tenant.organizationId));
      expect(rows).toHaveLength(0);
    }
  });

  it('needs Organization Management READ to read and UPDATE to save (403)', async () => {
    const readOnly = await createRole(ctx, acme.organizationId, 'Org reader', {
      organizations: ['READ'],
    });
    const none = await createRole(ctx, acme.organizationId, 'No org', { support: ['READ'] });
    const reader = await createTenant(ctx, 'Acme Org Reader', {
      organizationId: acme.organizationId,
      roleId: readOnly,
      subscribed: false,
    });
    const stranger = await createTenant(ctx, 'Acme Org Stranger', {
      organizationId: acme.organizationId,
      roleId: none,
      subscribed: false,
    });
    expect((await reader.session.get(`${COMPANIES}/${acme.organizationId}`)).statusCode).toBe(200);
    expect((await reader.session.post(COMPANIES, companyDetailsBody(acme.organizationId))).statusCode).toBe(
      403,
    );
    expect((await stranger.session.get(`${COMPANIES}/${acme.organizationId}`)).statusCode).toBe(403);
  });
});
