import type { ActivityItem, ActivityListQuery } from '@portal/shared';
import { notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import * as repo from './activity.repo.js';

/** super_admin reads every organization's feed (optionally one); everyone else only their own. */
export async function listFeed(deps: Deps, actor: Actor, query: ActivityListQuery) {
  const scope = tenantScope(actor);
  if (scope && query.organizationId && query.organizationId !== scope) throw notFound();
  return repo.listActivities(deps.db, {
    organizationId: scope ?? query.organizationId ?? null,
    type: query.type,
    entityType: query.entityType,
    search: query.search || undefined,
    page: query.page,
    pageSize: query.pageSize,
  });
}

/** The newest `limit` entries the actor may see: every organization's for super_admin. */
export async function recentActivities(
  deps: Deps,
  actor: Actor,
  input: { limit: number },
): Promise<ActivityItem[]> {
  return repo.recentActivities(deps.db, tenantScope(actor), input.limit);
}
