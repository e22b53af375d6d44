import { randomUUID } from 'node:crypto';
import {
  companyDetailsBodySchema,
  meets,
  messages,
  ORGANIZATION_IMPORT_COLUMNS,
  REQUIREMENTS,
} from '@portal/shared';
import { can, tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { badRequest, forbidden, invalidInput, notFound } from '../../lib/errors.js';
import { onboardIn } from '../billing/index.js';
import { companyTaxParticulars, getCompany, saveCompany } from '../companies/index.js';
import { organizationsByIdOrName, recordTaxParticulars } from '../organizations/index.js';
import { boundImportConflicts, updateUser, usersHoldingIdentities } from '../users/index.js';
import { lookupValues } from './import-columns.js';
import { commitEachRow, type ImportKindHandler } from './import-kind.js';
import {
  checkOrganizationRow,
  ORGANIZATION_ALIASES,
  readOrganizationRow,
  sameTax,
  type ExistingOrganization,
  type OrganizationRowContext,
  type OrganizationRowValues,
} from './organization-rows.js';

/** Onboarding a tenant is the platform operator's act (REQUIREMENTS.onboardOrganization), row by row too. */
function requireOnboarding(actor: Actor): void {
  if (!meets(actor, REQUIREMENTS.onboardOrganization)) throw forbidden();
}

/**
 * An organization already onboarded, updated as the screens edit it: its admin's username and mobile
 * (the Invite screen's edit, `updateUser`) and its GST state and GSTIN: on its Company Details when it
 * has saved them (the Company Details screen's save: the record as it is with the two changed), else
 * those given at its onboarding (`recordTaxParticulars`). The company's name and its plan are not
 * changed by an import.
 */
async function updateOnboarded(
  deps: Deps,
  actor: Actor,
  organizationId: string,
  values: OrganizationRowValues,
) {
  const { tax, errors } = readOrganizationRow(values, organizationId);
  if (errors.any) throw badRequest(errors.errors[0]!.message);
  const email = values.email.trim().toLowerCase();
  const admin = (await usersHoldingIdentities(deps, actor, { emails: [email], usernames: [] })).find(
    (user) => user.organizationId === organizationId && user.email.toLowerCase() === email,
  );
  if (!admin) throw notFound(messages.users.notFound);
  const username = values.username.trim();
  const mobileNo = values.mobile.trim();
  if (admin.username !== username || (admin.mobileNo ?? '') !== mobileNo) {
    await updateUser(deps, actor, { id: admin.id, body: { username, mobileNo } });
  }
  const { details, onboarding } = await getCompany(deps, actor, { organizationId });
  if (sameTax(details ?? onboarding ?? { gstStateCode: null, gstin: null }, tax)) return;
  // The route's permission (Organization Management UPDATE); the service checks the rest.
  if (!can(actor, 'organizations', 'UPDATE')) throw forbidden();
  if (!details) {
    await recordTaxParticulars(deps, actor, { organizationId, ...tax });
    return;
  }
  const body = companyDetailsBodySchema.safeParse({
    ...details,
    organizationId,
    gstStateCode: tax.gstStateCode ?? '',
    gstin: tax.gstin ?? '',
  });
  if (!body.success) throw invalidInput(body.error.issues);
  await saveCompany(deps, actor, body.data);
}

/**
 * Organizations, each row an onboarding as the Invite Admin and Subscription screens make it
 * (`onboardIn`, billing's one onboarding: the organization, its first Admin invited by mail, a monthly
 * subscription awaiting payment with its credits granted, the plan). The import belongs to the
 * importer's own organization. An organization already onboarded (by its admin's email, or its
 * name) is unchanged, or updated as the screens edit it when asked (`updateOnboarded`).
 */
export const organizationImport: ImportKindHandler<null> = {
  kind: 'organizations',
  columns: ORGANIZATION_IMPORT_COLUMNS,
  aliases: ORGANIZATION_ALIASES,
  intoOrganization: false,
  noun: 'organizations',

  async checkRows(deps, actor, input) {
    requireOnboarding(actor);
    const { rows } = input;
    const existing = await usersHoldingIdentities(deps, actor, {
      emails: lookupValues(rows.map((r) => r.values.email ?? '')),
      usernames: lookupValues(rows.map((r) => r.values.username ?? '')),
    });
    const found = await organizationsByIdOrName(deps, actor, {
      ids: existing.map((u) => u.organizationId),
      names: lookupValues(rows.map((r) => r.values.company ?? '')),
    });
    const scope = tenantScope(actor);
    const tax = await companyTaxParticulars(deps, actor, {
      organizationIds: found
        .filter((o) => !o.isPlatform && (scope === null || o.id === scope))
        .map((o) => o.id),
    });
    // As invoices take them: Company Details once saved, else the onboarding's (findBuyerParticulars).
    const organizations: ExistingOrganization[] = found.map((o) => ({
      id: o.id,
      name: o.name,
      isPlatform: o.isPlatform,
      tax: tax.get(o.id) ?? { gstStateCode: o.gstStateCode, gstin: o.gstin },
    }));
    const byName = new Map<string, ExistingOrganization[]>();
    for (const org of organizations) {
      const key = org.name.toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), org]);
    }
    const ctx: OrganizationRowContext = {
      scope,
      importerOrganizationId: input.organization.id,
      onExisting: input.onExisting,
      matchBy: input.matchBy as 'email' | 'company',
      organizationsById: new Map(organizations.map((o) => [o.id, o])),
      organizationsByName: byName,
      byEmail: new Map(existing.map((u) => [u.email.toLowerCase(), u])),
      byUsername: new Map(existing.map((u) => [u.username.toLowerCase(), u])),
      seen: { email: new Map(), username: new Map(), company: new Map() },
    };
    const checked = rows.map((row) => checkOrganizationRow(row, ctx));
    // Identities found in other organizations count toward the hourly bound (decision 023).
    const foreign = rows
      .filter((_, i) => checked[i]!.foreignConflict)
      .map((row) => `${row.values.username!.slice(0, 120)} / ${row.values.email!.slice(0, 120)}`);
    await boundImportConflicts(deps, actor, { tried: foreign });
    return checked;
  },

  async prepareCommit(_deps, importer) {
    requireOnboarding(importer);
    return null;
  },

  commitRows(deps, importer, _context, rows) {
    return commitEachRow(deps, rows, async (rowDeps, row) => {
      const values = row.values as OrganizationRowValues;
      if (row.outcome === 'to_update') {
        await updateOnboarded(rowDeps, importer, row.recordId!, values);
        return { result: 'updated', recordId: row.recordId };
      }
      // A new organization's id, made as the Invite Admin screen makes it.
      const { request, tax, errors } = readOrganizationRow(values, randomUUID());
      if (!request) throw badRequest(errors.errors[0]?.message ?? messages.http.validation);
      const { data, afterCommit } = await onboardIn(rowDeps, importer, request);
      const organizationId = data.user.organizationId;
      // In the onboarding's savepoint: its first invoice names the buyer's GSTIN and place of supply.
      if (tax.gstStateCode !== null || tax.gstin !== null) {
        await recordTaxParticulars(rowDeps, importer, { organizationId, ...tax });
      }
      return { result: 'created', recordId: organizationId, afterCommit };
    });
  },
};
