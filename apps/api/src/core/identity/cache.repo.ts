import { sql } from 'drizzle-orm';
import type { PermissionEntry } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { dataVersions } from '../../db/schema/index.js';

/**
 * Per-process memory of identity data (users' organization/role/state, roles with their permissions,
 * organizations' platform and subscription state, role names, list totals), valid for exactly one
 * `data_versions.identity` version (migration 0002 bumps it when any of that data changes).
 *
 * A reader gets the snapshot of the version it read in the same statement as the rest of its data,
 * so a cached value is never older than the statement it is combined with; a second API process
 * keeps its own snapshot and checks it the same way. docs/decisions/007-users-list-performance.md.
 */
export interface CachedUser {
  organizationId: string;
  roleId: string;
  isActive: boolean;
  /** A confirmed second factor (user_totp.confirmed_at). */
  twoFactorEnabled: boolean;
}

export interface CachedRole {
  name: string;
  isSystem: boolean;
  requireTwoFactor: boolean;
  permissions: PermissionEntry[];
}

export interface CachedOrganization {
  isPlatform: boolean;
  /** The latest `valid_until` of the organization's ACTIVE subscriptions (ms), or null. */
  activeUntil: number | null;
}

/** A Map that forgets its oldest entry beyond `max` (the cache must not grow without bound). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

export class IdentitySnapshot {
  readonly users = new BoundedMap<string, CachedUser>(20_000);
  readonly roles = new BoundedMap<string, CachedRole>(5_000);
  readonly organizations = new BoundedMap<string, CachedOrganization>(20_000);
  /** Role ids answering to a lower-cased role name. */
  readonly roleNames = new BoundedMap<string, string[]>(1_000);
  /** `meta.total` of a user list filter (users.repo.ts `countKey`). */
  readonly userCounts = new BoundedMap<string, number>(2_000);

  constructor(readonly version: number) {}
}

const current = new WeakMap<object, IdentitySnapshot>();

/**
 * The snapshot of `version` for this database handle. A newer version replaces the kept snapshot; an
 * older one (a request that read before a concurrent commit) gets a throwaway snapshot, so what it
 * loads is used for that request only.
 */
export function identitySnapshot(db: object, version: number): IdentitySnapshot {
  // No version read (its row missing): nothing may be cached, every read loads.
  if (!Number.isFinite(version)) return new IdentitySnapshot(version);
  const kept = current.get(db);
  if (kept && kept.version === version) return kept;
  const fresh = new IdentitySnapshot(version);
  if (!kept || version > kept.version) current.set(db, fresh);
  return fresh;
}

/** The current identity version, as a scalar subquery to read in the same statement as other data. */
export const identityVersionSql = sql<
  number | string
>`(select ${dataVersions.version} from ${dataVersions} where ${dataVersions.name} = 'identity')`;

/** The current identity version on its own (when no row of a statement could carry it). */
export async function readIdentityVersion(db: Db): Promise<unknown> {
  const { rows } = await db.execute<{ version: unknown }>(sql`select ${identityVersionSql} as "version"`);
  return rows[0]?.version;
}

/** A version as read from the database (bigint: a string on node-postgres); NaN when there is none. */
export function identityVersionOf(value: unknown): number {
  return value === null || value === undefined ? NaN : Number(value);
}

/** The snapshot kept for this database handle, whatever its version (null before the first read). */
export function latestIdentitySnapshot(db: object): IdentitySnapshot | null {
  return current.get(db) ?? null;
}
