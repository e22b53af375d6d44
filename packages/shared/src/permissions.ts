/** Features, scopes and the permission check shared by the API (enforcement) and the web (hiding). */
export const SCOPES = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT'] as const;
export type Scope = (typeof SCOPES)[number];

/** Legacy role shape: a numeric bitmask in `permissions` (SPEC.md §3). */
export const SCOPE_BITS: Record<Scope, number> = {
  READ: 1,
  CREATE: 2,
  UPDATE: 4,
  DELETE: 8,
  EXPORT: 16,
  IMPORT: 32,
};

/** UI labels of SPEC.md §3 mapped to server scopes. */
export const SCOPE_LABELS = {
  view: 'READ',
  create: 'CREATE',
  update: 'UPDATE',
  delete: 'DELETE',
  export: 'EXPORT',
  import: 'IMPORT',
} as const satisfies Record<string, Scope>;

export const FEATURES = {
  dashboard: { id: 'dashboard', name: 'Dashboard', description: 'Home page, stats and activity' },
  users: {
    id: 'user-management',
    name: 'User Management',
    description: 'Invite, edit, activate and deactivate users',
  },
  roles: {
    id: 'role-management',
    name: 'Role Management',
    description: 'Create and edit roles and their permissions',
  },
  organizations: {
    id: 'organization-management',
    name: 'Organization Management',
    description: 'Organizations and company details',
  },
  subscriptions: {
    id: 'subscription-management',
    name: 'Subscription Management',
    description: 'Subscriptions, payments and interview credits',
  },
  positions: {
    id: 'position-management',
    name: 'Position Management',
    description: 'Open job positions for interviews',
  },
  support: { id: 'support', name: 'Support', description: 'Raise and follow support tickets' },
} as const;
export type FeatureKey = keyof typeof FEATURES;
export type FeatureName = (typeof FEATURES)[FeatureKey]['name'];

export const SYSTEM_ROLES = { superAdmin: 'super_admin', admin: 'admin' } as const;

/**
 * What the admin system role may do in its own organization. It cannot create organizations
 * (Organization Management CREATE) so it cannot invite new tenants; it runs its own one.
 * Written down in docs/decisions/003-roles-and-permissions.md.
 */
export const ADMIN_ROLE_PERMISSIONS: Record<FeatureKey, readonly Scope[]> = {
  dashboard: ['READ'],
  users: ['READ', 'CREATE', 'UPDATE', 'EXPORT'],
  roles: ['READ', 'CREATE', 'UPDATE', 'DELETE'],
  organizations: ['READ', 'UPDATE'],
  subscriptions: ['READ', 'CREATE'],
  positions: ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'],
  support: ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'],
};

/** One entry of a role's permission list, as the API sends it and `FeaturesPermissions` stores it. */
export interface PermissionEntry {
  id: string;
  featureId: string;
  featureName: string;
  permissionScopes: Scope[];
}

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Keeps known scopes in canonical order; unknown strings are ignored (SPEC.md §3). */
export function normalizeScopes(values: readonly unknown[]): Scope[] {
  const wanted = new Set(values.map((v) => (typeof v === 'string' ? v.toUpperCase() : v)));
  return SCOPES.filter((s) => wanted.has(s));
}

export function scopesFromBitmask(mask: number): Scope[] {
  return SCOPES.filter((s) => (mask & SCOPE_BITS[s]) !== 0);
}

export function hasPermission(
  permissions: readonly Pick<PermissionEntry, 'featureName' | 'featureId' | 'permissionScopes'>[],
  feature: FeatureKey,
  scope: Scope,
): boolean {
  const { id, name } = FEATURES[feature];
  return permissions.some(
    (p) => (p.featureId === id || p.featureName === name) && p.permissionScopes.includes(scope),
  );
}
