import type { ImportKind, ImportStatus } from '@portal/shared';

/** The list below {prefix} where each kind's records are seen once imported. */
export const RECORDS_PAGE: Record<ImportKind, string> = {
  users: 'usermanagement',
  positions: 'positions',
  // The Admin Users list is where the super administrator sees organizations, by their admins.
  organizations: 'usermanagement',
};

/** Kinds imported into one organization, which the super administrator chooses (others: their own). */
export const INTO_ORGANIZATION: Record<ImportKind, boolean> = {
  users: true,
  positions: true,
  organizations: false,
};

/** Committed, its job not yet ended: the page asks for its progress. */
export function isWorking(status: ImportStatus): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * The other features' list queries that show each kind's records (features import no other feature,
 * so their keys are named here): marked stale once an import has ended, so the lists show its records.
 */
export const RECORDS_QUERY_KEYS: Record<ImportKind, readonly (readonly string[])[]> = {
  users: [['users']],
  positions: [['positions']],
  organizations: [['users'], ['organizations']],
};
