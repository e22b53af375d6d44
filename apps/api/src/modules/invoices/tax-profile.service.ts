import type { FastifyInstance } from 'fastify';
import {
  meets,
  REQUIREMENTS,
  stateLabel,
  type SellerTaxProfile,
  type SellerTaxProfileFields,
} from '@portal/shared';
import { forbidden } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { findSellerTaxProfile, saveSellerTaxProfile, type SellerTaxProfileRow } from './invoices.repo.js';

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

export async function getTaxProfile(app: FastifyInstance, auth: Actor): Promise<SellerTaxProfile | null> {
  if (!meets(auth, REQUIREMENTS.manageTaxProfile)) throw forbidden();
  const row = await findSellerTaxProfile(app.db);
  return row ? toDto(row) : null;
}

/** Later invoices carry the new particulars; issued ones keep theirs (each holds a copy). */
export async function saveTaxProfile(
  app: FastifyInstance,
  auth: Actor,
  fields: SellerTaxProfileFields,
): Promise<SellerTaxProfile> {
  if (!meets(auth, REQUIREMENTS.manageTaxProfile)) throw forbidden();
  return app.db.transaction(async (tx) => {
    const row = await saveSellerTaxProfile(tx, fields, auth.userId);
    await recordActivity(tx, {
      organizationId: auth.organizationId,
      actorUserId: auth.userId,
      action: 'updated',
      entityType: 'tax_profile',
      entityId: null,
      message: `Updated the seller's tax details (GSTIN ${row.gstin}, ${stateLabel(row.stateCode)})`,
    });
    return toDto(row);
  });
}
