import type { FeatureKey } from './permissions.js';

/** What can be imported; each kind needs IMPORT on its feature (IMPORT_KIND_FEATURE). */
export const IMPORT_KINDS = ['users', 'positions', 'organizations'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_KIND_FEATURE = {
  users: 'users',
  positions: 'positions',
  organizations: 'organizations',
} as const satisfies Record<ImportKind, FeatureKey>;
