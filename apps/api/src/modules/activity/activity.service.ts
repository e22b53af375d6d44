import type { ActivityListQuery } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { listActivities } from './activity.repo.js';

/** super_admin reads every organization's feed (optionally one); everyone else only their own. */
export async function listFeed(db: Db, auth: Actor, query: ActivityListQuery) {
  const scope = tenantScope(auth);
  if (scope && query.organizationId && query.organizationId !== scope) throw notFound();
  return listActivities(db, {
    organizationId: scope ?? query.organizationId ?? null,
    type: query.type,
    entityType: query.entityType,
    search: query.search || undefined,
    page: query.page,
    pageSize: query.pageSize,
  });
}
