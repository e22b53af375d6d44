import {
  messages,
  type CompanyDetails,
  type CompanyDetailsFields,
  type OnboardingTaxParticulars,
} from '@portal/shared';
import { notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { organizationsByIdOrName } from '../organizations/index.js';
import { requireActiveSubscription } from '../profile/index.js';
import { findCompanyDetails, findTaxParticulars, upsertCompanyDetails } from './companies.repo.js';

/**
 * Own organization only (any for super_admin); another tenant's answers 404 like a missing one.
 * Answers it with the GST particulars given at its onboarding.
 */
async function requireReachableOrganization(deps: Deps, actor: Actor, organizationId: string) {
  const scope = tenantScope(actor);
  const [organization] =
    scope && scope !== organizationId
      ? []
      : await organizationsByIdOrName(deps, actor, { ids: [organizationId], names: [] });
  if (!organization) throw notFound(messages.company.organizationNotFound);
  return organization;
}

/**
 * The organization's company details, null while none were saved; then also the GST particulars
 * given at its onboarding, if any, for the form to start from.
 */
export async function getCompany(
  deps: Deps,
  actor: Actor,
  input: { organizationId: string },
): Promise<{ details: CompanyDetails | null; onboarding: OnboardingTaxParticulars | null }> {
  const { gstStateCode, gstin } = await requireReachableOrganization(deps, actor, input.organizationId);
  const details = await findCompanyDetails(deps.db, input.organizationId);
  if (details) return { details, onboarding: null };
  return { details: null, onboarding: gstStateCode || gstin ? { gstStateCode, gstin } : null };
}

/** POST /api/auth/companies: creates or replaces the organization's one record. */
export async function saveCompany(
  deps: Deps,
  actor: Actor,
  input: CompanyDetailsFields & { organizationId: string },
): Promise<CompanyDetails> {
  const { organizationId, ...fields } = input;
  await requireReachableOrganization(deps, actor, organizationId);
  await requireActiveSubscription(deps, actor, { organizationId, change: 'company' });
  return deps.db.transaction(async (tx) => {
    const { details, created } = await upsertCompanyDetails(tx, organizationId, fields, actor.userId);
    await recordActivity(tx, {
      organizationId,
      actorUserId: actor.userId,
      action: created ? 'created' : 'updated',
      entityType: 'company',
      entityId: organizationId,
      message: `${created ? 'Added' : 'Updated'} the company details of ${details.name}`,
    });
    return details;
  });
}

/** The buyer's particulars on tax invoices, as Company Details hold them. */
export interface CompanyTaxParticulars {
  gstStateCode: string | null;
  gstin: string | null;
}

const LOOKUP_CHUNK = 1_000;

/**
 * The GST state and GSTIN of each of these organizations that has saved its company details (the
 * others have no record yet): what a bulk import of organizations compares its rows with. No tenant
 * check: the caller names only organizations it may see.
 */
export async function companyTaxParticulars(
  deps: Deps,
  _actor: Actor,
  input: { organizationIds: readonly string[] },
): Promise<Map<string, CompanyTaxParticulars>> {
  const ids = [...new Set(input.organizationIds)];
  const found = new Map<string, CompanyTaxParticulars>();
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    for (const row of await findTaxParticulars(deps.db, ids.slice(i, i + LOOKUP_CHUNK))) {
      found.set(row.organizationId, { gstStateCode: row.gstStateCode, gstin: row.gstin });
    }
  }
  return found;
}
