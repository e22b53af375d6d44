import {
  ADMIN_ROLE_PERMISSIONS,
  FEATURES,
  sessionUserSchema,
  SYSTEM_ROLES,
  type FeatureKey,
  type PermissionEntry,
  type Scope,
  type SessionUser,
} from '@portal/shared';

/** The organization a user belongs to unless told otherwise. */
export const ORG_ID = '22222222-2222-4222-8222-222222222222';

/** One feature's scopes, as a role's `permissions` lists them. */
export function permission(feature: FeatureKey, scopes: readonly Scope[]): PermissionEntry {
  const f = FEATURES[feature];
  return { id: `p-${f.id}`, featureId: f.id, featureName: f.name, permissionScopes: [...scopes] };
}

/** A user's own fields, their role by its name, and what that role grants. */
export interface UserSpec extends Partial<Omit<SessionUser, 'role'>> {
  /** The role's name (default 'Recruiter', a custom role); 'super_admin' holds every scope. */
  role?: string;
  permissions?: PermissionEntry[];
}

let serial = 0;

/**
 * A user as the API answers one (`me`, sign-in, a list's row), parsed by the session user's schema.
 * Each has its own id and username; nothing is granted unless `permissions` says so.
 */
export function aUser({ role = 'Recruiter', permissions = [], ...fields }: UserSpec = {}): SessionUser {
  serial += 1;
  const roleId = `role-${role.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return sessionUserSchema.parse({
    id: `${String(serial).padStart(8, '0')}-1111-4111-8111-111111111111`,
    username: `user${serial}`,
    email: `user${serial}@acme.test`,
    fullName: null,
    mobileNo: '9876543210',
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId,
    role: {
      id: roleId,
      name: role,
      isSystem: (Object.values(SYSTEM_ROLES) as string[]).includes(role),
      permissions,
    },
    organizationId: ORG_ID,
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    twoFactor: { enabled: false, required: false },
    ...fields,
  } satisfies SessionUser);
}

/** The platform operator: the super_admin role, which holds every scope in every organization. */
export function aSuperAdmin(spec: UserSpec = {}): SessionUser {
  return aUser({ role: SYSTEM_ROLES.superAdmin, username: 'root', ...spec });
}

/** A tenant's administrator: the admin system role with its scopes (ADMIN_ROLE_PERMISSIONS). */
export function aTenantAdmin(spec: UserSpec = {}): SessionUser {
  const permissions = Object.entries(ADMIN_ROLE_PERMISSIONS).map(([feature, scopes]) =>
    permission(feature as FeatureKey, scopes),
  );
  return aUser({ role: SYSTEM_ROLES.admin, permissions, ...spec });
}
