import { FEATURES, type PermissionEntry, type Scope, type User } from '@portal/shared';

export function entry(featureKey: keyof typeof FEATURES, scopes: Scope[]): PermissionEntry {
  const f = FEATURES[featureKey];
  return { id: `p-${f.id}`, featureId: f.id, featureName: f.name, permissionScopes: scopes };
}

let serial = 0;
/** A user as the API answers it. */
export function makeUser(overrides: Partial<User> = {}): User {
  serial += 1;
  const id = `0000000${serial}`.slice(-8) + '-1111-4111-8111-111111111111';
  return {
    id,
    username: `user${serial}`,
    email: `user${serial}@acme.test`,
    fullName: null,
    mobileNo: '9876543210',
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'role-admin',
    role: { id: 'role-admin', name: 'admin', isSystem: true, permissions: [] },
    organizationId: '22222222-2222-4222-8222-222222222222',
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export const superAdmin = makeUser({
  id: 'me-super',
  username: 'root',
  role: { id: 'r-super', name: 'super_admin', isSystem: true, permissions: [] },
});
