import { z } from 'zod';
import { gstinMatchesState, messages, optionalGstinSchema, optionalStateCodeSchema } from '@portal/shared';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { invalidInput } from '../../lib/errors.js';
import { pageEnvelope, type PageQuery } from '../../lib/paging.js';
import {
  findOrganizationById,
  findOrganizationsByIdOrName,
  insertOrganizationIfMissing,
  listOrganizationRows,
  updateTaxParticulars,
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

/** Lookups per statement: a parameter array of this many values stays one cheap statement. */
const LOOKUP_CHUNK = 1_000;

/** The GST state and GSTIN given when the organization was onboarded (none: null). */
export interface OrganizationTaxParticulars {
  gstStateCode: string | null;
  gstin: string | null;
}

/** An organization as a bulk import of organizations matches it. */
export type MatchableOrganization = OrganizationSummary & OrganizationTaxParticulars & { createdAt: Date };

/**
 * The organizations with any of these ids or names (names compared lowercase), oldest first, with the
 * GST particulars given at their onboarding: what a bulk import of organizations matches its rows
 * against. No tenant check: the caller decides what it may reveal.
 */
export async function organizationsByIdOrName(
  deps: Deps,
  _actor: Actor,
  input: { ids: readonly string[]; names: readonly string[] },
): Promise<MatchableOrganization[]> {
  const ids = [...new Set(input.ids)];
  const names = [...new Set(input.names.map((n) => n.toLowerCase()))];
  const found = new Map<string, MatchableOrganization>();
  for (let i = 0; i < Math.max(ids.length, names.length); i += LOOKUP_CHUNK) {
    const rows = await findOrganizationsByIdOrName(
      deps.db,
      ids.slice(i, i + LOOKUP_CHUNK),
      names.slice(i, i + LOOKUP_CHUNK),
    );
    for (const row of rows) found.set(row.id, row);
  }
  return [...found.values()].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
}

/** The two as the Company Details form checks them: each valid, and the GSTIN of that state. */
const taxParticularsSchema = z
  .object({ gstStateCode: optionalStateCodeSchema, gstin: optionalGstinSchema })
  .refine((v) => gstinMatchesState(v.gstin, v.gstStateCode), {
    path: ['gstin'],
    message: messages.tax.gstinStateMismatch,
  });

/**
 * Records the GST state and GSTIN given at onboarding (an organizations import's row): the buyer's
 * particulars on the organization's tax invoices until it saves Company Details, whose own then win
 * (invoices' findBuyerParticulars). In the caller's transaction; the caller checks that the actor may
 * onboard or update the organization, and its act is what the activity log records.
 */
export async function recordTaxParticulars(
  deps: Deps,
  _actor: Actor,
  input: { organizationId: string } & OrganizationTaxParticulars,
): Promise<void> {
  const parsed = taxParticularsSchema.safeParse({ gstStateCode: input.gstStateCode, gstin: input.gstin });
  if (!parsed.success) throw invalidInput(parsed.error.issues);
  await updateTaxParticulars(deps.db, input.organizationId, parsed.data);
}
