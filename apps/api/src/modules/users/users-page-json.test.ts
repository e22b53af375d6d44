import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageSchema, userSchema, type RoleSummary, type User } from '@portal/shared';
import { usersPageJson } from './users-page-json.js';

const permissions: RoleSummary['permissions'] = [
  { id: 'p1', featureId: 'user-management', featureName: 'User Management', permissionScopes: ['READ'] },
];
const role: RoleSummary = { id: 'r1', name: 'admin', isSystem: true, permissions };

function user(n: number, userRole: RoleSummary = role): User {
  return {
    id: `u${n}`,
    username: `user${n}`,
    email: `user${n}@example.test`,
    fullName: n % 2 ? null : `User ${n}`,
    mobileNo: null,
    enabled: true,
    isActive: true,
    isSubscription: false,
    client: 'Acme',
    roleId: userRole.id,
    role: userRole,
    organizationId: 'o1',
    isAdmin: false,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2026-11-22T18:50:54.329Z',
    updatedAt: '2026-11-22T18:50:54.329Z',
  };
}

const page = (data: User[]) => ({ success: true as const, data, meta: { page: 1, pageSize: 10, total: 42 } });
/** What the type provider writes for the same answer. */
const expected = (data: User[]) => JSON.parse(JSON.stringify(z.encode(pageSchema(userSchema), page(data))));

describe('usersPageJson', () => {
  it('writes what the schema writes, for an empty page and for users sharing a role', () => {
    expect(JSON.parse(usersPageJson(page([])))).toEqual(expected([]));
    const data = [user(1), user(2), user(3, { ...role, id: 'r2', name: 'custom', isSystem: false })];
    expect(JSON.parse(usersPageJson(page(data)))).toEqual(expected(data));
  });

  it('writes no field the schema does not have, on the user or on the role', () => {
    const leaky = { ...user(1), passwordHash: 'secret' } as User;
    leaky.role = { ...role, permissions, internal: 'x' } as RoleSummary;
    const json = usersPageJson(page([leaky]));
    expect(json).not.toContain('secret');
    expect(json).not.toContain('internal');
  });

  it('writes a role again when it changes, though its permissions list is the same object', () => {
    expect(JSON.parse(usersPageJson(page([user(1)]))).data[0].role.name).toBe('admin');
    const renamed = { ...role, name: 'renamed' };
    expect(JSON.parse(usersPageJson(page([user(1, renamed)]))).data[0].role.name).toBe('renamed');
  });

  it('refuses an answer that does not match the schema', () => {
    const broken = { ...user(1), username: 42 } as unknown as User;
    expect(() => usersPageJson(page([broken]))).toThrow();
    const brokenRole = { ...role, permissions: [{ id: 'p', featureId: 1 }] } as unknown as RoleSummary;
    expect(() => usersPageJson(page([user(1, brokenRole)]))).toThrow();
  });
});
