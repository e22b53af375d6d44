/** Features, scopes and the permission check shared by the API (enforcement) and the web (hiding). */
export const SCOPES = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT'] as const;
export type Scope = (typeof SCOPES)[number];

/** Legacy role shape: a numeric bitmask in `permissions`, still read when loading a role. */
export const SCOPE_BITS: Record<Scope, number> = {
  READ: 1,
  CREATE: 2,
  UPDATE: 4,
  DELETE: 8,
  EXPORT: 16,
  IMPORT: 32,
};

/** The UI's scope labels mapped to server scopes. */
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
  users: ['READ', 'CREATE', 'UPDATE', 'EXPORT', 'IMPORT'],
  roles: ['READ', 'CREATE', 'UPDATE', 'DELETE'],
  organizations: ['READ', 'UPDATE'],
  subscriptions: ['READ', 'CREATE'],
  positions: ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT'],
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

/** Keeps known scopes in canonical order; unknown strings are ignored. */
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

/** Who is asking, as both apps know it: the super administrator holds every scope, always. */
export interface PermissionHolder {
  isSuperAdmin: boolean;
  permissions: readonly Pick<PermissionEntry, 'featureName' | 'featureId' | 'permissionScopes'>[];
}

export type Grant = readonly [FeatureKey, Scope];

/** What an action or a page needs: every grant of `all`, and one of `any` when it is given. */
export interface Requirement {
  all?: readonly Grant[];
  any?: readonly Grant[];
}

export function meets(holder: PermissionHolder, requirement: Requirement): boolean {
  if (holder.isSuperAdmin) return true;
  const has = ([feature, scope]: Grant) => hasPermission(holder.permissions, feature, scope);
  const { all = [], any } = requirement;
  return all.every(has) && (!any || any.some(has));
}

/**
 * Actions that need more than their route's own scope, named once: the API enforces them and the
 * web app shows their controls from the same definition.
 */
export const REQUIREMENTS = {
  /**
   * A new tenant with its admin, subscription and (manual) payment: the platform operator's act.
   * The admin system role lacks Organization Management CREATE, so a tenant cannot grant itself
   * credits (docs/decisions/003).
   */
  onboardOrganization: {
    all: [
      ['users', 'CREATE'],
      ['organizations', 'CREATE'],
      ['subscriptions', 'CREATE'],
    ],
  },
  /** Recording a subscription or a payment by hand grants credits without a payment provider. */
  recordPlatformBilling: {
    all: [
      ['subscriptions', 'CREATE'],
      ['organizations', 'CREATE'],
    ],
  },
  /** Refunding a payment gives money back and takes credits away: the platform operator's act. */
  refundPayment: {
    all: [
      ['subscriptions', 'UPDATE'],
      ['organizations', 'CREATE'],
    ],
  },
  /** The seller's particulars every tax invoice carries (GSTIN, prefixes, signatory). */
  manageTaxProfile: {
    all: [
      ['subscriptions', 'UPDATE'],
      ['organizations', 'CREATE'],
    ],
  },
  /** Ending every session of another user, in any organization. */
  endUserSessions: {
    all: [
      ['users', 'UPDATE'],
      ['organizations', 'CREATE'],
    ],
  },
  /** Removing another user's second factor when they lost it (they set it up again at sign-in). */
  resetUserTwoFactor: {
    all: [
      ['users', 'UPDATE'],
      ['organizations', 'CREATE'],
    ],
  },
  /** Requiring two-factor sign-in of a role's users: the platform's security policy. */
  requireTwoFactor: {
    all: [
      ['roles', 'UPDATE'],
      ['organizations', 'CREATE'],
    ],
  },
} as const satisfies Record<string, Requirement>;

/**
 * Whether someone holding `held` may act on what `granted` allows (a user with that role, or the role
 * itself): every scope of `granted` must be theirs too. Nobody manages, or edits the role of, someone
 * more privileged than themselves (docs/decisions/003).
 */
export function holdsAll(
  held: readonly Pick<PermissionEntry, 'featureId' | 'permissionScopes'>[],
  granted: readonly Pick<PermissionEntry, 'featureId' | 'permissionScopes'>[],
): boolean {
  return granted.every((g) =>
    g.permissionScopes.every((scope) =>
      held.some((h) => h.featureId === g.featureId && h.permissionScopes.includes(scope)),
    ),
  );
}

/** `holdsAll` for a person: the super administrator manages everyone. */
export function mayManage(
  holder: PermissionHolder & {
    permissions: readonly Pick<PermissionEntry, 'featureId' | 'permissionScopes'>[];
  },
  granted: readonly Pick<PermissionEntry, 'featureId' | 'permissionScopes'>[],
): boolean {
  return holder.isSuperAdmin || holdsAll(holder.permissions, granted);
}
