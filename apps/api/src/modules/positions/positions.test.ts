import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { activityEntries, positions } from '../../db/schema/index.js';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import { createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';

let ctx: TestContext;
let root: Session;
let alpha: TestTenant;
let beta: TestTenant;

const valid = { title: 'Backend Engineer', department: 'Engineering', location: 'Pune', openings: 2 };

async function positionCount(organizationId?: string) {
  const rows = await ctx.database.db
    .select({ id: positions.id })
    .from(positions)
    .where(organizationId ? eq(positions.organizationId, organizationId) : undefined);
  return rows.length;
}

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  alpha = await createTenant(ctx, 'Alpha Pos');
  beta = await createTenant(ctx, 'Beta Pos');
});
afterAll(() => ctx.close());

describe('POST /api/auth/positions', () => {
  it("creates a position in the caller's organization with an activity entry", async () => {
    const res = await alpha.session.post('/api/auth/positions', valid);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      ...valid,
      status: 'Open',
      closedAt: null,
      organizationId: alpha.organizationId,
    });
    const [row] = await ctx.database.db.select().from(positions).where(eq(positions.id, data.id));
    expect(row).toMatchObject({ ...valid, organizationId: alpha.organizationId, createdBy: alpha.userId });
    const entries = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityType, 'position'), eq(activityEntries.entityId, data.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'created',
      organizationId: alpha.organizationId,
      actorUserId: alpha.userId,
    });
    expect(entries[0]!.message).toContain('Backend Engineer');
  });

  it('trims the texts', async () => {
    const res = await alpha.session.post('/api/auth/positions', {
      ...valid,
      title: '  Designer  ',
      location: ' Remote ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ title: 'Designer', location: 'Remote' });
  });

  it.each([
    [{ ...valid, title: '   ' }, messages.positions.titleRequired],
    [{ department: 'x', location: 'y', openings: 1 }, messages.positions.titleRequired],
    [{ ...valid, department: '' }, messages.positions.departmentRequired],
    [{ ...valid, location: '' }, messages.positions.locationRequired],
    [{ ...valid, openings: 0 }, messages.positions.openingsInvalid],
    [{ ...valid, openings: 1.5 }, messages.positions.openingsInvalid],
    [{ ...valid, openings: '3' }, messages.positions.openingsInvalid],
    [{ title: 'a', department: 'b', location: 'c' }, messages.positions.openingsInvalid],
    [{ ...valid, openings: 1001 }, messages.positions.openingsTooMany],
    [{ ...valid, title: 'x'.repeat(121) }, messages.positions.tooLong],
  ])('rejects %j with its message and creates nothing', async (body, message) => {
    const before = await positionCount();
    const res = await alpha.session.post('/api/auth/positions', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    expect(await positionCount()).toBe(before);
  });

  it("answers 404 when a tenant names another tenant's organization, and creates nothing", async () => {
    const before = await positionCount(beta.organizationId);
    const res = await alpha.session.post('/api/auth/positions', {
      ...valid,
      organizationId: beta.organizationId,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(messages.positions.organizationNotFound);
    expect(await positionCount(beta.organizationId)).toBe(before);
  });

  it('lets super_admin create for any organization, and 404s an unknown one', async () => {
    const res = await root.post('/api/auth/positions', {
      ...valid,
      title: 'QA Lead',
      organizationId: beta.organizationId,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.organizationId).toBe(beta.organizationId);
    const unknown = await root.post('/api/auth/positions', {
      ...valid,
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /api/auth/positions', () => {
  let scoped: TestTenant;
  beforeAll(async () => {
    scoped = await createTenant(ctx, 'Gamma Pos');
    const rows = [
      { title: 'Data Analyst', department: 'Finance', location: 'Mumbai', openings: 1 },
      { title: 'Sales Lead', department: 'Sales', location: 'Delhi', openings: 3 },
      { title: 'Support Agent', department: 'Customer Care', location: 'Mumbai', openings: 5 },
      { title: '50%_Remote', department: 'Ops', location: 'Chennai', openings: 1 },
    ];
    for (const r of rows) expect((await scoped.session.post('/api/auth/positions', r)).statusCode).toBe(201);
  });

  it("lists only the caller's organization, newest first, with the total", async () => {
    const res = await scoped.session.get('/api/auth/positions');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ page: 1, pageSize: 10, total: 4 });
    expect(body.data.map((p: { title: string }) => p.title)).toEqual([
      '50%_Remote',
      'Support Agent',
      'Sales Lead',
      'Data Analyst',
    ]);
    expect(new Set(body.data.map((p: { organizationId: string }) => p.organizationId))).toEqual(
      new Set([scoped.organizationId]),
    );
  });

  it('searches title, department and location, with LIKE wildcards taken literally', async () => {
    const titles = async (search: string) =>
      (await scoped.session.get('/api/auth/positions', { query: { search } }))
        .json()
        .data.map((p: { title: string }) => p.title)
        .sort();
    expect(await titles('mumbai')).toEqual(['Data Analyst', 'Support Agent']);
    expect(await titles('SALES')).toEqual(['Sales Lead']);
    expect(await titles('care')).toEqual(['Support Agent']);
    expect(await titles('%_')).toEqual(['50%_Remote']);
  });

  it('filters by status, pages and sorts', async () => {
    const list = (await scoped.session.get('/api/auth/positions')).json().data;
    const sales = list.find((p: { title: string }) => p.title === 'Sales Lead');
    expect((await scoped.session.put(`/api/auth/positions/${sales.id}/close`)).statusCode).toBe(200);

    const closed = (await scoped.session.get('/api/auth/positions', { query: { status: 'Closed' } })).json();
    expect(closed.meta.total).toBe(1);
    expect(closed.data[0].title).toBe('Sales Lead');
    const open = (await scoped.session.get('/api/auth/positions', { query: { status: 'Open' } })).json();
    expect(open.meta.total).toBe(3);

    const page2 = (
      await scoped.session.get('/api/auth/positions', {
        query: { page: '2', pageSize: '3', sort: 'title', order: 'asc' },
      })
    ).json();
    expect(page2.meta).toEqual({ page: 2, pageSize: 3, total: 4 });
    expect(page2.data.map((p: { title: string }) => p.title)).toEqual(['Support Agent']);

    const byOpenings = (
      await scoped.session.get('/api/auth/positions', {
        query: { sort: 'openings', order: 'desc', pageSize: '1' },
      })
    ).json();
    expect(byOpenings.data[0].title).toBe('Support Agent');
  });

  it('lets super_admin see every organization or narrow to one', async () => {
    const all = (await root.get('/api/auth/positions', { query: { pageSize: '100' } })).json();
    const orgs = new Set(all.data.map((p: { organizationId: string }) => p.organizationId));
    expect(
      orgs.has(alpha.organizationId) && orgs.has(beta.organizationId) && orgs.has(scoped.organizationId),
    ).toBe(true);
    const one = (
      await root.get('/api/auth/positions', { query: { organizationId: scoped.organizationId } })
    ).json();
    expect(one.meta.total).toBe(4);
  });

  it("answers 404 when a tenant filters on another tenant's organization", async () => {
    const res = await alpha.session.get('/api/auth/positions', {
      query: { organizationId: beta.organizationId },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('PUT /api/auth/positions/:id, close and reopen', () => {
  let id: string;
  beforeAll(async () => {
    id = (await alpha.session.post('/api/auth/positions', { ...valid, title: 'Mobile Dev' })).json().data.id;
  });

  it('edits a position and records it', async () => {
    const res = await alpha.session.put(`/api/auth/positions/${id}`, {
      title: 'Mobile Developer',
      department: 'Apps',
      location: 'Bengaluru',
      openings: 4,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'Mobile Developer', department: 'Apps', openings: 4 });
    const entries = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, id), eq(activityEntries.action, 'updated')));
    expect(entries).toHaveLength(1);
  });

  it('rejects an invalid edit and keeps the row', async () => {
    const res = await alpha.session.put(`/api/auth/positions/${id}`, { ...valid, openings: -1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.positions.openingsInvalid);
    const [row] = await ctx.database.db.select().from(positions).where(eq(positions.id, id));
    expect(row!.openings).toBe(4);
  });

  it('closes with a closing time, refuses to close twice, and reopens', async () => {
    const closed = await alpha.session.put(`/api/auth/positions/${id}/close`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data.status).toBe('Closed');
    expect(closed.json().data.closedAt).not.toBeNull();
    const [row] = await ctx.database.db.select().from(positions).where(eq(positions.id, id));
    expect(row!.status).toBe('Closed');
    expect(row!.closedAt).toBeInstanceOf(Date);

    const again = await alpha.session.put(`/api/auth/positions/${id}/close`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.positions.alreadyClosed);

    const reopened = await alpha.session.put(`/api/auth/positions/${id}/reopen`);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data).toMatchObject({ status: 'Open', closedAt: null });
    const closeEntries = await ctx.database.db
      .select({ message: activityEntries.message })
      .from(activityEntries)
      .where(eq(activityEntries.entityId, id));
    expect(closeEntries.map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringContaining('closed'), expect.stringContaining('reopened')]),
    );
  });

  it("answers 404 for another tenant's position on read, edit, close and reopen, changing nothing", async () => {
    const foreign = await beta.session.post('/api/auth/positions', { ...valid, title: 'Beta Only' });
    const foreignId = foreign.json().data.id;
    expect((await alpha.session.get(`/api/auth/positions/${foreignId}`)).statusCode).toBe(404);
    const edit = await alpha.session.put(`/api/auth/positions/${foreignId}`, { ...valid, title: 'Hijacked' });
    expect(edit.statusCode).toBe(404);
    expect(edit.json().message).toBe(messages.positions.notFound);
    expect((await alpha.session.put(`/api/auth/positions/${foreignId}/close`)).statusCode).toBe(404);
    expect((await alpha.session.put(`/api/auth/positions/${foreignId}/reopen`)).statusCode).toBe(404);
    const [row] = await ctx.database.db.select().from(positions).where(eq(positions.id, foreignId));
    expect(row).toMatchObject({ title: 'Beta Only', status: 'Open' });
    // super_admin reaches it.
    expect((await root.get(`/api/auth/positions/${foreignId}`)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await alpha.session.put('/api/auth/positions/00000000-0000-4000-8000-000000000000/close');
    expect(res.statusCode).toBe(404);
  });
});

describe('Position Management permissions', () => {
  it('needs READ to list, CREATE to create and UPDATE to edit or close', async () => {
    const readerRole = await createRole(ctx, alpha.organizationId, 'Position Reader', {
      positions: ['READ'],
    });
    const reader = await createTenant(ctx, 'Alpha Reader', {
      organizationId: alpha.organizationId,
      roleId: readerRole,
    });
    const noneRole = await createRole(ctx, alpha.organizationId, 'No Positions', { dashboard: ['READ'] });
    const none = await createTenant(ctx, 'Alpha None', {
      organizationId: alpha.organizationId,
      roleId: noneRole,
    });
    const id = (await alpha.session.post('/api/auth/positions', valid)).json().data.id;
    const before = await positionCount();

    expect((await reader.session.get('/api/auth/positions')).statusCode).toBe(200);
    expect((await none.session.get('/api/auth/positions')).statusCode).toBe(403);
    expect((await none.session.get(`/api/auth/positions/${id}`)).statusCode).toBe(403);
    expect((await reader.session.post('/api/auth/positions', valid)).statusCode).toBe(403);
    expect((await reader.session.put(`/api/auth/positions/${id}`, valid)).statusCode).toBe(403);
    expect((await reader.session.put(`/api/auth/positions/${id}/close`)).statusCode).toBe(403);
    expect(await positionCount()).toBe(before);
    const [row] = await ctx.database.db.select().from(positions).where(eq(positions.id, id));
    expect(row!.status).toBe('Open');
  });

  it('needs a session and the CSRF header', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/positions' })).statusCode).toBe(401);
    const res = await alpha.session.post('/api/auth/positions', valid, { csrf: false });
    expect(res.statusCode).toBe(403);
  });
});
