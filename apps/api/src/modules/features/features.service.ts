import { normalizeFeature, type Feature } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { listFeatureRows } from './features.repo.js';

/** Features with SPEC.md §3 defaults for a missing name or description. */
export async function listFeatures(db: Db): Promise<Feature[]> {
  const rows = await listFeatureRows(db);
  return rows.map(normalizeFeature);
}
