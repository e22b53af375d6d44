import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { pageEnvelope, type PageQuery } from '../../lib/paging.js';
import {
  findOrganizationById,
  insertOrganizationIfMissing,
  listOrganizationRows,
} from './organizations.repo.js';

export interface OrganizationListQuery extends PageQuery {
  search?: string | undefined;
  sort: 'name' | 'createdAt';
  order: 'asc' | 'desc';
}

/** An organization as other modules see it. */
export interface OrganizationSummary {
  id: string;
  name: string;
  isPlatform: boolean;
}

/** GET /api/auth/organizations: every organization for super_admin, otherwise one's own. */
export async function listOrganizations(deps: Deps, actor: Actor, query: OrganizationListQuery) {
  const { rows, total } = await listOrganizationRows(
    deps.db,
    { scope: tenantScope(actor), search: query.search, sort: query.sort, order: query.order },
    query,
  );
  const data = rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  return pageEnvelope(query, data, total);
}

/**
 * An organization by id, or null. No tenant check: the caller decides who may name it (and answers
 * another tenant's id as it answers an unknown one).
 */
export function findOrganization(
  deps: Deps,
  _actor: Actor,
  input: { id: string },
): Promise<OrganizationSummary | null> {
  return findOrganizationById(deps.db, input.id);
}

/**
 * Creates the organization unless one has this id (idempotent under concurrency); true when this
 * call made it. The caller checks that the actor may create organizations.
 */
export function createOrganizationIfMissing(
  deps: Deps,
  _actor: Actor,
  input: { id: string; name: string },
): Promise<boolean> {
  return insertOrganizationIfMissing(deps.db, input);
}
