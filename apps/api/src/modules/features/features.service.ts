import { normalizeFeature, type Feature } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { listFeatureRows } from './features.repo.js';

/** Features; a missing name reads 'Unknown Feature', a missing description '{name} functionality'. */
export async function listFeatures(db: Db): Promise<Feature[]> {
  const rows = await listFeatureRows(db);
  return rows.map(normalizeFeature);
}
