import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES, featureDescription, messages, roleInUse, type Role } from '@portal/shared';
import { activityEntries, features, rolePermissions, roles } from '../../db/schema/index.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  roleIdByName,
  Session,
  signIn,
  STRONG_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';

let ctx: TestContext;
let root: Session;
let orgA: string;
let orgB: string;
let adminA: Session;
let adminB: Session;
let adminRoleId: string;
let superRoleId: string;

const users = FEATURES.users.id;
const support = FEATURES.support.id;
const orgs = FEATURES.organizations.id;

function payload(name: string, permissions: unknown[] = [{ featureId: users, permissionScopes: ['READ'] }]) {
  return { code: name, name, isSystem: false, permissions };
}

async function roleRows(name?: string) {
  const rows = await ctx.database.db.select().from(roles);
  return name === undefined ? rows : rows.filter((r) => r.name.toLowerCase() === name.toLowerCase());
}

async function permissionRows(roleId: string) {
  return ctx.database.db.select().from(rolePermissions).where(eq(rolePermissions.roleId, roleId));
}

async function activityFor(roleId: string) {
  return ctx.database.db
    .select()
    .from(activityEntries)
    .where(and(eq(activityEntries.entityType, 'role'), eq(activityEntries.entityId, roleId)));
}

async function create(session: Session, body: unknown): Promise<Role> {
  const res = await session.post('/api/auth/roles', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Role;
}

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  adminRoleId = await roleIdByName(ctx, 'admin');
  superRoleId = await roleIdByName(ctx, 'super_admin');
  orgA = await createOrganizationDirect(ctx, 'Acme');
  orgB = await createOrganizationDirect(ctx, 'Globex');
  await createUserDirect(ctx, { email: 'a@acme.test', roleId: adminRoleId, organizationId: orgA });
  await createUserDirect(ctx, { email: 'b@globex.test', roleId: adminRoleId, organizationId: orgB });
  adminA = await signIn(ctx.app, 'a@acme.test', STRONG_PASSWORD);
  adminB = await signIn(ctx.app, 'b@globex.test', STRONG_PASSWORD);
});
afterAll(() => ctx.close());

describe('GET /api/auth/features', () => {
  it('needs a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/features' });
    expect(res.statusCode).toBe(401);
  });

  it('lists every seeded feature in order with id, name and description', async () => {
    const res = await adminA.get('/api/auth/features');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data).toEqual(
      Object.values(FEATURES).map((f) => ({ id: f.id, name: f.name, description: f.description })),
    );
    expect(body.meta.total).toBe(Object.keys(FEATURES).length);
  });

  it('fills a missing description and name with the SPEC defaults', async () => {
    const db = ctx.database.db;
    await db.update(features).set({ description: '' }).where(eq(features.id, support));
    await db.update(features).set({ name: ' ', description: '' }).where(eq(features.id, orgs));
    try {
      const data = (await root.get('/api/auth/features')).json().data as {
        id: string;
        name: string;
        description: string;
      }[];
      expect(data.find((f) => f.id === support)).toEqual({
        id: support,
        name: 'Support',
        description: featureDescription('Support'),
      });
      expect(data.find((f) => f.id === orgs)).toEqual({
        id: orgs,
        name: messages.roles.unknownFeature,
        description: 'Unknown Feature functionality',
      });
    } finally {
      await db.update(features).set(FEATURES.support).where(eq(features.id, support));
      await db.update(features).set(FEATURES.organizations).where(eq(features.id, orgs));
    }
  });
});

describe('POST /api/auth/roles', () => {
  it('creates a custom role in the creator’s organization, with an activity entry', async () => {
    const res = await adminA.post('/api/auth/roles', {
      code: 'ignored',
      name: '  Recruiter  ',
      isSystem: true,
      permissions: [
        {
          id: 'client-uuid',
          featureId: users,
          featureName: 'User Management',
          permissionScopes: ['READ', 'CREATE', 'FLY'],
        },
        { featureId: support, permissionScopes: [] },
        { featureName: 'support', permissionScopes: ['update', 'READ'] },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const role = res.json().data as Role;
    expect(role).toMatchObject({
      name: 'Recruiter',
      code: 'Recruiter',
      isSystem: false,
      organizationId: orgA,
      userCount: 0,
    });
    // Unknown scopes ignored, empty features dropped, feature named by name resolved, list shape out.
    expect(
      role.permissions.map(({ featureId, featureName, permissionScopes }) => ({
        featureId,
        featureName,
        permissionScopes,
      })),
    ).toEqual([
      { featureId: users, featureName: 'User Management', permissionScopes: ['READ', 'CREATE'] },
      { featureId: support, featureName: 'Support', permissionScopes: ['READ', 'UPDATE'] },
    ]);
    expect(role.permissions.every((p) => typeof p.id === 'string' && p.id !== 'client-uuid')).toBe(true);
    const [row] = await roleRows('Recruiter');
    expect(row).toMatchObject({ organizationId: orgA, isSystem: false });
    expect(await permissionRows(row!.id)).toHaveLength(2);
    const activity = await activityFor(row!.id);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({
      action: 'created',
      organizationId: orgA,
      actorUserId: adminA.userId,
    });
  });

  it('accepts the legacy bitmask shape and answers with the list shape', async () => {
    const role = await create(adminA, payload('Legacy Role', [{ featureId: users, permissions: 5 }]));
    expect(role.permissions).toHaveLength(1);
    expect(role.permissions[0]).toMatchObject({ featureId: users, permissionScopes: ['READ', 'UPDATE'] });
  });

  it.each([
    ['', messages.roles.nameRequired],
    ['    ', messages.roles.nameRequired],
    ['ab', messages.roles.nameTooShort],
    ['  ab  ', messages.roles.nameTooShort],
    ['a!', messages.roles.nameTooShort],
    ['Bad/Name', messages.roles.nameInvalid],
    ['Name<script>', messages.roles.nameInvalid],
    ['x'.repeat(101), messages.roles.nameTooLong],
  ])('refuses the name %j with %j and creates nothing', async (name, message) => {
    const before = (await roleRows()).length;
    const res = await adminA.post('/api/auth/roles', payload(name));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect((await roleRows()).length).toBe(before);
  });

  it('allows letters, digits, spaces, underscore, dot and hyphen', async () => {
    const role = await create(adminA, payload('Team-Lead_2.0 East'));
    expect(role.name).toBe('Team-Lead_2.0 East');
  });

  it.each([
    ['no entry', []],
    ['only empty entries', [{ featureId: users, permissionScopes: [] }]],
    ['only unknown scopes', [{ featureId: users, permissionScopes: ['FLY', 'read?'] }]],
    ['a zero bitmask', [{ featureId: users, permissions: 0 }]],
  ])('refuses a role with %s: at least one permission', async (_label, permissions) => {
    const before = (await roleRows()).length;
    const res = await adminA.post('/api/auth/roles', payload('Nothing Granted', permissions));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.roles.permissionRequired);
    expect((await roleRows()).length).toBe(before);
  });

  it('refuses a permission on a feature that does not exist', async () => {
    const res = await adminA.post(
      '/api/auth/roles',
      payload('Ghost Feature', [{ featureId: 'time-travel', permissionScopes: ['READ'] }]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.roles.featureNotFound);
    expect(await roleRows('Ghost Feature')).toHaveLength(0);
  });

  it('refuses a name already used in the organization, ignoring case (409)', async () => {
    await create(adminA, payload('Interviewer'));
    const res = await adminA.post('/api/auth/roles', payload('INTERVIEWER'));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.roles.nameTaken);
    expect(await roleRows('interviewer')).toHaveLength(1);
  });

  it.each(['admin', 'Super_Admin'])('refuses the name of the system role %s (409)', async (name) => {
    const res = await adminA.post('/api/auth/roles', payload(name));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.roles.nameTaken);
    expect(await roleRows(name)).toHaveLength(1);
  });

  it('lets another organization use the same name', async () => {
    const role = await create(adminB, payload('Interviewer'));
    expect(role.organizationId).toBe(orgB);
    expect(await roleRows('Interviewer')).toHaveLength(2);
  });

  it('refuses to grant a scope the creator does not hold (403) and creates nothing', async () => {
    // The admin system role holds Organization Management READ and UPDATE, not CREATE or DELETE.
    const res = await adminA.post(
      '/api/auth/roles',
      payload('Escalator', [
        { featureId: users, permissionScopes: ['READ'] },
        { featureId: orgs, permissionScopes: ['READ', 'CREATE'] },
      ]),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(messages.roles.scopeNotHeld);
    expect(await roleRows('Escalator')).toHaveLength(0);
    const legacy = await adminA.post(
      '/api/auth/roles',
      payload('Escalator', [{ featureId: orgs, permissions: 63 }]),
    );
    expect(legacy.statusCode).toBe(403);
    expect(await roleRows('Escalator')).toHaveLength(0);
  });

  it('lets the super administrator grant anything and create a role for a tenant', async () => {
    const role = await create(root, {
      ...payload('Tenant Auditor', [
        { featureId: orgs, permissionScopes: ['READ', 'CREATE', 'DELETE', 'IMPORT'] },
      ]),
      organizationId: orgA,
    });
    expect(role.organizationId).toBe(orgA);
    const [activity] = await activityFor(role.id);
    expect(activity).toMatchObject({ organizationId: orgA, actorUserId: root.userId });
    expect((await adminA.get(`/api/auth/roles/${role.id}`)).statusCode).toBe(200);
    expect((await adminB.get(`/api/auth/roles/${role.id}`)).statusCode).toBe(404);
  });

  it('creates the super administrator’s role in their own organization by default', async () => {
    const role = await create(root, payload('Platform Support'));
    const me = (await root.get(`/api/auth/users/${root.userId}`)).json().data;
    expect(role.organizationId).toBe(me.organizationId);
  });

  it('answers 404 when a tenant names another organization, or the organization does not exist', async () => {
    const other = await adminA.post('/api/auth/roles', { ...payload('Sneaky'), organizationId: orgB });
    expect(other.statusCode).toBe(404);
    const missing = await root.post('/api/auth/roles', {
      ...payload('Orphan'),
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(await roleRows('Sneaky')).toHaveLength(0);
    expect(await roleRows('Orphan')).toHaveLength(0);
  });

  it('refuses a write without the CSRF header', async () => {
    const res = await adminA.post('/api/auth/roles', payload('No Csrf'), { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(await roleRows('No Csrf')).toHaveLength(0);
  });
});

describe('GET /api/auth/roles', () => {
  let acmeOnly: Role;
  let globexOnly: Role;
  beforeAll(async () => {
    acmeOnly = await create(adminA, payload('Acme Only'));
    globexOnly = await create(adminB, payload('Globex Only'));
  });

  async function names(session: Session, query = '') {
    const res = await session.get(`/api/auth/roles${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Role[]).map((r) => r.name);
  }

  it('shows a tenant the system roles and its own roles only, system roles first', async () => {
    const list = await names(adminA, '?pageSize=100');
    expect(list.slice(0, 2).sort()).toEqual(['admin', 'super_admin']);
    expect(list).toContain('Acme Only');
    expect(list).not.toContain('Globex Only');
    const bList = await names(adminB, '?pageSize=100');
    expect(bList).toContain('Globex Only');
    expect(bList).not.toContain('Acme Only');
  });

  it('shows the super administrator every role, or one tenant’s with organizationId', async () => {
    const all = await names(root, '?pageSize=100');
    expect(all).toEqual(expect.arrayContaining(['admin', 'super_admin', 'Acme Only', 'Globex Only']));
    const acme = await names(root, `?pageSize=100&organizationId=${orgA}`);
    expect(acme).toContain('Acme Only');
    expect(acme).not.toContain('Globex Only');
    expect(acme).toContain('admin');
  });

  it('names each custom role’s organization, and none for a system role', async () => {
    const res = await root.get('/api/auth/roles?pageSize=100');
    expect(res.statusCode, res.body).toBe(200);
    const byName = new Map((res.json().data as Role[]).map((r) => [r.name, r]));
    expect(byName.get('Acme Only')).toMatchObject({ organizationId: orgA, organizationName: 'Acme' });
    expect(byName.get('Globex Only')).toMatchObject({ organizationId: orgB, organizationName: 'Globex' });
    expect(byName.get('admin')).toMatchObject({ organizationId: null, organizationName: null });
    const one = await adminA.get(`/api/auth/roles/${acmeOnly.id}`);
    expect(one.json().data).toMatchObject({ organizationName: 'Acme' });
  });

  it('ignores organizationId from a tenant', async () => {
    const list = await names(adminA, `?pageSize=100&organizationId=${orgB}`);
    expect(list).not.toContain('Globex Only');
    expect(list).toContain('Acme Only');
  });

  it('searches by name (any case) and by id, with or without #', async () => {
    expect(await names(adminA, '?search=acme%20ONLY')).toEqual(['Acme Only']);
    expect(await names(adminA, `?search=${acmeOnly.id.slice(0, 13)}`)).toEqual(['Acme Only']);
    expect(await names(adminA, `?search=%23${acmeOnly.id}`)).toEqual(['Acme Only']);
    expect(await names(adminA, `?search=${globexOnly.id}`)).toEqual([]);
    expect(await names(adminA, '?search=%25')).toEqual([]);
  });

  it('pages on the server and reports the total', async () => {
    const first = (await adminA.get('/api/auth/roles?page=1&pageSize=2')).json();
    const second = (await adminA.get('/api/auth/roles?page=2&pageSize=2')).json();
    expect(first.data).toHaveLength(2);
    expect(first.meta).toMatchObject({ page: 1, pageSize: 2 });
    expect(first.meta.total).toBeGreaterThan(3);
    const ids = new Set([...first.data, ...second.data].map((r: Role) => r.id));
    expect(ids.size).toBe(first.data.length + second.data.length);
  });

  it('sorts by name when asked', async () => {
    const list = await names(adminA, '?pageSize=100&sort=name&order=desc');
    expect(list).toEqual([...list].sort((x, y) => y.toLowerCase().localeCompare(x.toLowerCase())));
  });

  it('counts only the caller’s users holding a system role', async () => {
    const list = (await adminA.get('/api/auth/roles?search=admin&pageSize=100')).json().data as Role[];
    expect(list.find((r) => r.name === 'admin')?.userCount).toBe(1);
    const all = (await root.get('/api/auth/roles?search=admin&pageSize=100')).json().data as Role[];
    expect(all.find((r) => r.name === 'admin')?.userCount).toBe(2);
  });
});

describe('GET /api/auth/roles/:id', () => {
  it('answers a system role with the role payload', async () => {
    const res = await adminA.get(`/api/auth/roles/${adminRoleId}`);
    expect(res.statusCode).toBe(200);
    const role = res.json().data as Role;
    expect(role).toMatchObject({
      id: adminRoleId,
      name: 'admin',
      code: 'admin',
      isSystem: true,
      organizationId: null,
    });
    expect(role.permissions.find((p) => p.featureId === users)?.permissionScopes).toEqual([
      'READ',
      'CREATE',
      'UPDATE',
      'EXPORT',
      'IMPORT',
    ]);
  });

  it('answers 404 for another organization’s role and for an unknown id', async () => {
    const role = await create(adminB, payload('Globex Secret'));
    const res = await adminA.get(`/api/auth/roles/${role.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(messages.roles.roleNotFound);
    expect((await adminA.get('/api/auth/roles/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await root.get(`/api/auth/roles/${role.id}`)).statusCode).toBe(200);
  });

  it('refuses an id that is not a UUID (400)', async () => {
    expect((await adminA.get('/api/auth/roles/temp-123')).statusCode).toBe(400);
  });
});

describe('PUT /api/auth/roles/:id', () => {
  it('renames the role and replaces its permissions, with an activity entry', async () => {
    const role = await create(adminA, payload('Screener'));
    const res = await adminA.put(
      `/api/auth/roles/${role.id}`,
      payload('Senior Screener', [
        { featureId: support, permissionScopes: ['READ', 'EXPORT'] },
        { featureId: users, permissionScopes: [] },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data as Role;
    expect(updated).toMatchObject({
      id: role.id,
      name: 'Senior Screener',
      code: 'Senior Screener',
      isSystem: false,
    });
    expect(updated.permissions.map((p) => [p.featureId, p.permissionScopes])).toEqual([
      [support, ['READ', 'EXPORT']],
    ]);
    const rows = await permissionRows(role.id);
    expect(rows.map((r) => r.featureId)).toEqual([support]);
    const actions = (await activityFor(role.id)).map((a) => a.action).sort();
    expect(actions).toEqual(['created', 'updated']);
  });

  it('accepts a change of case of its own name and legacy bitmask entries', async () => {
    const role = await create(adminA, payload('casechange'));
    const res = await adminA.put(
      `/api/auth/roles/${role.id}`,
      payload('CaseChange', [{ featureName: 'User Management', permissions: 3 }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.permissions[0].permissionScopes).toEqual(['READ', 'CREATE']);
  });

  it.each([
    ['admin', () => adminRoleId],
    ['super_admin', () => superRoleId],
  ])('refuses to change the system role %s (403) and changes nothing', async (_name, id) => {
    for (const session of [root, adminA]) {
      const before = await permissionRows(id());
      const res = await session.put(`/api/auth/roles/${id()}`, payload('Hijacked'));
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.roles.systemReadOnly);
      expect(await permissionRows(id())).toEqual(before);
      expect(await roleRows('Hijacked')).toHaveLength(0);
    }
  });

  it('answers 404 for another organization’s role and changes nothing', async () => {
    const role = await create(adminB, payload('Globex Editor'));
    const res = await adminA.put(`/api/auth/roles/${role.id}`, payload('Taken Over'));
    expect(res.statusCode).toBe(404);
    expect((await roleRows('Globex Editor'))[0]?.id).toBe(role.id);
    expect(await roleRows('Taken Over')).toHaveLength(0);
  });

  it('refuses a name held by another role of the organization or a system role (409)', async () => {
    await create(adminA, payload('Coordinator'));
    const role = await create(adminA, payload('Assistant'));
    for (const name of ['coordinator', 'ADMIN']) {
      const res = await adminA.put(`/api/auth/roles/${role.id}`, payload(name));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(messages.roles.nameTaken);
    }
    expect((await roleRows('Assistant'))[0]?.id).toBe(role.id);
  });

  it('checks the name rules and at least one permission, changing nothing', async () => {
    const role = await create(adminA, payload('Validator'));
    const cases: [unknown, string][] = [
      [payload(' '), messages.roles.nameRequired],
      [payload('ab'), messages.roles.nameTooShort],
      [payload('No#Hash'), messages.roles.nameInvalid],
      [payload('Validator', []), messages.roles.permissionRequired],
    ];
    for (const [body, message] of cases) {
      const res = await adminA.put(`/api/auth/roles/${role.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await roleRows('Validator'))[0]?.id).toBe(role.id);
    expect(await permissionRows(role.id)).toHaveLength(1);
  });

  it('refuses to grant a scope the editor does not hold (403) and changes nothing', async () => {
    const role = await create(adminA, payload('Limited'));
    const res = await adminA.put(
      `/api/auth/roles/${role.id}`,
      payload('Limited', [{ featureId: orgs, permissionScopes: ['DELETE'] }]),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(messages.roles.scopeNotHeld);
    const rows = await permissionRows(role.id);
    expect(rows.map((r) => [r.featureId, r.scopes])).toEqual([[users, ['READ']]]);
  });
});

describe('editing a role held by someone more privileged (issue 20)', () => {
  it('is refused: a member cannot narrow a wider colleague’s role and then deactivate the colleague', async () => {
    const org = await createOrganizationDirect(ctx, 'Initech');
    const director = await create(root, {
      ...payload('Director', [
        { featureId: FEATURES.roles.id, permissionScopes: ['READ', 'UPDATE'] },
        { featureId: users, permissionScopes: ['READ', 'CREATE', 'UPDATE'] },
        { featureId: support, permissionScopes: ['READ', 'DELETE'] },
      ]),
      organizationId: org,
    });
    const managerRole = await create(root, {
      ...payload('Team Manager', [
        { featureId: FEATURES.roles.id, permissionScopes: ['READ', 'UPDATE'] },
        { featureId: users, permissionScopes: ['READ', 'UPDATE'] },
      ]),
      organizationId: org,
    });
    await createUserDirect(ctx, {
      email: 'manager@initech.test',
      roleId: managerRole.id,
      organizationId: org,
    });
    const directorId = await createUserDirect(ctx, {
      email: 'director@initech.test',
      roleId: director.id,
      organizationId: org,
    });
    const member = await signIn(ctx.app, 'manager@initech.test', STRONG_PASSWORD);
    const before = await permissionRows(director.id);

    const narrowed = await member.put(
      `/api/auth/roles/${director.id}`,
      payload('Director', [{ featureId: users, permissionScopes: ['READ'] }]),
    );
    expect(narrowed.statusCode).toBe(403);
    expect(narrowed.json().message).toBe(messages.roles.holdersOutrankEditor);
    expect(await permissionRows(director.id)).toEqual(before);
    // So the colleague stays out of the member's reach.
    expect((await member.put(`/api/auth/users/${directorId}/deactivate`)).statusCode).toBe(403);

    // A role within the member's own scopes, before and after, they may edit.
    const viewer = await create(root, {
      ...payload('Viewer', [{ featureId: users, permissionScopes: ['READ'] }]),
      organizationId: org,
    });
    const edited = await member.put(
      `/api/auth/roles/${viewer.id}`,
      payload('Viewer', [{ featureId: users, permissionScopes: ['READ', 'UPDATE'] }]),
    );
    expect(edited.statusCode, edited.body).toBe(200);
  });
});

describe('DELETE /api/auth/roles/:id', () => {
  it('deletes an unused custom role, its permissions, with an activity entry', async () => {
    const role = await create(adminA, payload('Temporary'));
    const res = await adminA.delete(`/api/auth/roles/${role.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: messages.roles.deleted });
    expect(await roleRows('Temporary')).toHaveLength(0);
    expect(await permissionRows(role.id)).toHaveLength(0);
    const activity = await activityFor(role.id);
    expect(activity.map((a) => a.action).sort()).toEqual(['created', 'deleted']);
    expect((await adminA.delete(`/api/auth/roles/${role.id}`)).statusCode).toBe(404);
  });

  it.each([
    ['admin', () => adminRoleId],
    ['super_admin', () => superRoleId],
  ])('refuses to delete the system role %s (403)', async (name, id) => {
    for (const session of [root, adminA]) {
      const res = await session.delete(`/api/auth/roles/${id()}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.roles.systemReadOnly);
    }
    expect(await roleRows(name)).toHaveLength(1);
    expect((await permissionRows(id())).length).toBeGreaterThan(0);
  });

  it('refuses to delete a role users still hold (409) and says how many', async () => {
    const role = await create(adminA, payload('Held Role'));
    await createUserDirect(ctx, { email: 'held1@acme.test', roleId: role.id, organizationId: orgA });
    let res = await adminA.delete(`/api/auth/roles/${role.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(roleInUse(1));
    await createUserDirect(ctx, { email: 'held2@acme.test', roleId: role.id, organizationId: orgA });
    res = await adminA.delete(`/api/auth/roles/${role.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(roleInUse(2));
    expect(await roleRows('Held Role')).toHaveLength(1);
    expect(await permissionRows(role.id)).toHaveLength(1);
    expect((await activityFor(role.id)).map((a) => a.action)).toEqual(['created']);
  });

  it('answers 404 for another organization’s role and deletes nothing', async () => {
    const role = await create(adminB, payload('Globex Keeper'));
    const res = await adminA.delete(`/api/auth/roles/${role.id}`);
    expect(res.statusCode).toBe(404);
    expect(await roleRows('Globex Keeper')).toHaveLength(1);
    // The super administrator acts on every tenant.
    expect((await root.delete(`/api/auth/roles/${role.id}`)).statusCode).toBe(200);
    expect(await roleRows('Globex Keeper')).toHaveLength(0);
  });
});
