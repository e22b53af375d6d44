import {
  FEATURES,
  messages,
  roleNameError,
  SCOPES,
  type Feature,
  type PermissionEntry,
  type Role,
  type Scope,
} from '@portal/shared';

/** Ticked scopes per feature id. */
export type ScopeGrid = Record<string, Scope[]>;

export interface RolePayload {
  code: string;
  name: string;
  isSystem: false;
  permissions: PermissionEntry[];
}

/** The grid of a loaded role, matching entries to features by id, then by name. */
export function gridFromRole(role: Pick<Role, 'permissions'>, features: readonly Feature[]): ScopeGrid {
  const grid: ScopeGrid = {};
  for (const entry of role.permissions) {
    const feature =
      features.find((f) => f.id === entry.featureId) ??
      features.find((f) => f.name.toLowerCase() === entry.featureName.toLowerCase());
    if (!feature) continue;
    const merged = new Set([...(grid[feature.id] ?? []), ...entry.permissionScopes]);
    grid[feature.id] = SCOPES.filter((s) => merged.has(s));
  }
  return grid;
}

export function toggleScope(grid: ScopeGrid, featureId: string, scope: Scope, on: boolean): ScopeGrid {
  const current = new Set(grid[featureId] ?? []);
  if (on) current.add(scope);
  else current.delete(scope);
  return { ...grid, [featureId]: SCOPES.filter((s) => current.has(s)) };
}

/** A client-side id for each entry; randomUUID needs a secure context, so fall back. */
export function newEntryId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The role payload: features without a ticked scope are left out. */
export function payloadFromGrid(
  name: string,
  grid: ScopeGrid,
  features: readonly Feature[],
  makeId: () => string = newEntryId,
): RolePayload {
  const trimmed = name.trim();
  return {
    code: trimmed,
    name: trimmed,
    isSystem: false,
    permissions: features
      .filter((f) => (grid[f.id] ?? []).length > 0)
      .map((f) => ({
        id: makeId(),
        featureId: f.id,
        featureName: f.name,
        permissionScopes: SCOPES.filter((s) => grid[f.id]!.includes(s)),
      })),
  };
}

/** The first broken rule on save, in order: the name rules, then one permission at least. */
export function roleFormError(
  name: string,
  grid: ScopeGrid,
): { field: 'name' | 'permissions'; message: string } | null {
  const nameError = roleNameError(name);
  if (nameError) return { field: 'name', message: nameError };
  if (!Object.values(grid).some((scopes) => scopes.length > 0)) {
    return { field: 'permissions', message: messages.roles.permissionRequired };
  }
  return null;
}

/**
 * Features whose Delete scope means nothing, shown as 'Not available' on the view-only screen.
 * The Dashboard only shows data; nothing on it can be cancelled or deleted
 * (docs/decisions/003-roles-and-permissions.md).
 */
export const DELETE_NOT_APPLICABLE: ReadonlySet<string> = new Set([FEATURES.dashboard.id]);

export interface ViewOnlyPermission {
  featureId: string;
  name: string;
  description: string;
  view: boolean;
  createEdit: boolean;
  delete: boolean;
  deleteDisabledSpecial: boolean;
}

/** The view-only screen groups scopes as View, Create/Edit and Cancel/Delete. */
export function viewOnlyPermissions(
  role: Pick<Role, 'permissions'>,
  features: readonly Feature[],
): ViewOnlyPermission[] {
  const grid = gridFromRole(role, features);
  return features.map((f) => {
    const scopes = grid[f.id] ?? [];
    const deleteDisabledSpecial = DELETE_NOT_APPLICABLE.has(f.id);
    return {
      featureId: f.id,
      name: f.name,
      description: f.description,
      view: scopes.includes('READ'),
      createEdit: scopes.includes('CREATE') || scopes.includes('UPDATE'),
      delete: !deleteDisabledSpecial && scopes.includes('DELETE'),
      deleteDisabledSpecial,
    };
  });
}
