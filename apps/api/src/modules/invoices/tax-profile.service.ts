import {
  meets,
  REQUIREMENTS,
  stateLabel,
  type SellerTaxProfile,
  type SellerTaxProfileFields,
} from '@portal/shared';
import { forbidden } from '../../lib/errors.js';
import type { Actor, SystemActor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { findSellerTaxProfile, saveSellerTaxProfile, type SellerTaxProfileRow } from './invoices.repo.js';
import { sellerProfileOrRefuse } from './issuing.js';

/** The seller's tax profile (Settings → Tax details): the platform operator's, used by every invoice. */

function toDto(row: SellerTaxProfileRow): SellerTaxProfile {
  return {
    legalName: row.legalName,
    address: row.address,
    stateCode: row.stateCode,
    gstin: row.gstin,
    pan: row.pan,
    sac: row.sac,
    invoicePrefix: row.invoicePrefix,
    creditNotePrefix: row.creditNotePrefix,
    signatory: row.signatory,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getTaxProfile(deps: Deps, actor: Actor): Promise<SellerTaxProfile | null> {
  if (!meets(actor, REQUIREMENTS.manageTaxProfile)) throw forbidden();
  const row = await findSellerTaxProfile(deps.db);
  return row ? toDto(row) : null;
}

/** Later invoices carry the new particulars; issued ones keep theirs (each holds a copy). */
export async function saveTaxProfile(
  deps: Deps,
  actor: Actor,
  fields: SellerTaxProfileFields,
): Promise<SellerTaxProfile> {
  if (!meets(actor, REQUIREMENTS.manageTaxProfile)) throw forbidden();
  return deps.db.transaction(async (tx) => {
    const row = await saveSellerTaxProfile(tx, fields, actor.userId);
    await recordActivity(tx, {
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'tax_profile',
      entityId: null,
      message: `Updated the seller's tax details (GSTIN ${row.gstin}, ${stateLabel(row.stateCode)})`,
    });
    return toDto(row);
  });
}

/**
 * Every captured payment gets a tax invoice, so no money is taken (or refunded) before the seller
 * can issue one: 409 until the seller's particulars are set up.
 */
export async function requireSellerTaxProfile(deps: Deps, _actor: Actor | SystemActor): Promise<void> {
  await sellerProfileOrRefuse(deps.db);
}
