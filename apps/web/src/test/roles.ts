import { roleSchema, type Role } from '@portal/shared';
import { ORG_ID, permission } from './users';

let serial = 0;

/**
 * A role as the API answers one, parsed by its schema: a custom role of Acme Hiring granting User
 * Management READ, each with its own id unless told otherwise.
 */
export function aRole(fields: Partial<Role> = {}): Role {
  serial += 1;
  const name = fields.name ?? `Role ${serial}`;
  return roleSchema.parse({
    id: `${String(serial).padStart(8, '0')}-2222-4222-8222-222222222222`,
    code: name,
    name,
    isSystem: false,
    organizationId: ORG_ID,
    organizationName: 'Acme Hiring',
    permissions: [permission('users', ['READ'])],
    requireTwoFactor: false,
    userCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  } satisfies Role);
}

/** A system role (admin, super_admin): no organization of its own. */
export function aSystemRole(name: string, fields: Partial<Role> = {}): Role {
  return aRole({ name, isSystem: true, organizationId: null, organizationName: null, ...fields });
}
