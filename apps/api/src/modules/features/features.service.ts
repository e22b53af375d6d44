import { normalizeFeature, type Feature } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { listFeatureRows, type FeatureRow } from './features.repo.js';

/** Features; a missing name reads 'Unknown Feature', a missing description '{name} functionality'. */
export async function listFeatures(deps: Deps, _actor: Actor): Promise<Feature[]> {
  const rows = await listFeatureRows(deps.db);
  return rows.map(normalizeFeature);
}

/** Every feature as stored (names not normalized), in the seeded order: what a role can grant. */
export function featureRows(deps: Deps, _actor: Actor): Promise<FeatureRow[]> {
  return listFeatureRows(deps.db);
}
