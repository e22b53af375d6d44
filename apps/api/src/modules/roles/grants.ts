import { messages, scopesOfInput, SCOPES, type PermissionInput, type Scope } from '@portal/shared';
import { badRequest } from '../../lib/errors.js';
import type { FeatureRow } from '../features/index.js';

export interface Grant {
  featureId: string;
  scopes: Scope[];
}

/**
 * Turns the submitted entries (list or legacy bitmask shape) into one grant per known feature.
 * Entries with no known scope are dropped; an entry granting scopes on a feature that does not
 * exist is refused; at least one grant must remain.
 */
export function resolveGrants(features: readonly FeatureRow[], entries: readonly PermissionInput[]): Grant[] {
  const byId = new Map(features.map((f) => [f.id, f]));
  const byName = new Map(features.map((f) => [f.name.toLowerCase(), f]));
  const granted = new Map<string, Set<Scope>>();
  for (const entry of entries) {
    const scopes = scopesOfInput(entry);
    if (scopes.length === 0) continue;
    const feature =
      (entry.featureId ? byId.get(entry.featureId) : undefined) ??
      (entry.featureName ? byName.get(entry.featureName.toLowerCase()) : undefined);
    if (!feature) throw badRequest(messages.roles.featureNotFound);
    const set = granted.get(feature.id) ?? new Set<Scope>();
    for (const scope of scopes) set.add(scope);
    granted.set(feature.id, set);
  }
  if (granted.size === 0) throw badRequest(messages.roles.permissionRequired);
  return features
    .filter((f) => granted.has(f.id))
    .map((f) => ({ featureId: f.id, scopes: SCOPES.filter((s) => granted.get(f.id)!.has(s)) }));
}
