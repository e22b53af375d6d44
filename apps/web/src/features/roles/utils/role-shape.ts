import {
  messages,
  normalizeFeature,
  normalizeScopes,
  scopesFromBitmask,
  type Feature,
  type PermissionEntry,
  type Role,
} from '@portal/shared';

/** The `data` of a `{success, data}` envelope, or the body itself (both shapes are accepted). */
export function unwrap(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    return (body as { data: unknown }).data;
  }
  return body;
}

/** Thrown when an answer has no usable list of features. */
export class FeaturesShapeError extends Error {
  constructor() {
    super(messages.roles.noFeaturesInResponse);
    this.name = 'FeaturesShapeError';
  }
}

/** Features from a bare list or an object with a data list; missing names and descriptions get defaults. */
export function featuresFromBody(body: unknown): Feature[] {
  const list = unwrap(body);
  if (!Array.isArray(list)) throw new FeaturesShapeError();
  return list
    .filter((f): f is Record<string, unknown> => !!f && typeof f === 'object' && 'id' in f)
    .map((f) => normalizeFeature({ id: f.id, name: f.name, description: f.description }));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * One permission entry in the list shape, whichever shape the server used: `permissionScopes`
 * (unknown strings ignored) or the legacy numeric bitmask in `permissions` (READ=1 … IMPORT=32).
 */
export function permissionEntryFrom(raw: unknown, index: number): PermissionEntry | null {
  if (!raw || typeof raw !== 'object') return null;
  const p = raw as Record<string, unknown>;
  const feature = (p.feature && typeof p.feature === 'object' ? p.feature : {}) as Record<string, unknown>;
  const featureId = text(p.featureId) || text(feature.id);
  const featureName = text(p.featureName) || text(feature.name);
  if (!featureId && !featureName) return null;
  const listed = Array.isArray(p.permissionScopes) ? normalizeScopes(p.permissionScopes) : [];
  const masked = typeof p.permissions === 'number' ? scopesFromBitmask(p.permissions) : [];
  return {
    id: text(p.id) || `entry-${index}`,
    featureId,
    featureName,
    permissionScopes: normalizeScopes([...listed, ...masked]),
  };
}

/** A role read from the API, direct or wrapped, in the list shape of permissions. */
export function roleFromBody(body: unknown): Role {
  const raw = unwrap(body);
  if (!raw || typeof raw !== 'object' || !('id' in raw)) throw new Error(messages.fallback.invalidRoleData);
  const r = raw as Record<string, unknown>;
  const permissions = Array.isArray(r.permissions)
    ? r.permissions.map(permissionEntryFrom).filter((p): p is PermissionEntry => p !== null)
    : [];
  const name = text(r.name) || text(r.code);
  return {
    id: String(r.id),
    code: text(r.code) || name,
    name,
    isSystem: r.isSystem === true,
    organizationId: typeof r.organizationId === 'string' ? r.organizationId : null,
    organizationName: typeof r.organizationName === 'string' ? r.organizationName : null,
    permissions,
    requireTwoFactor: r.requireTwoFactor === true,
    userCount: typeof r.userCount === 'number' ? r.userCount : 0,
    createdAt: text(r.createdAt),
    updatedAt: text(r.updatedAt),
  };
}

/** Ids starting with `temp-` show as #TEMP plus the upper-cased remainder, others as #id. */
export function formatRoleId(id: string): string {
  return id.startsWith('temp-') ? `#TEMP${id.slice('temp-'.length).toUpperCase()}` : `#${id}`;
}
