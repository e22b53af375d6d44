import { documentNumber, DOCUMENT_SEQUENCE_MAX, financialYearOf, messages } from '@portal/shared';
import type { Db } from '../../db/client.js';
import type { MailAttachmentRef, PartySnapshot, SellerSnapshot } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { Actor, SystemActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { activeOrganizationAdmins } from '../notifications/index.js';
import {
  findBuyerParticulars,
  findSellerTaxProfile,
  takeNextNumber,
  type SellerTaxProfileRow,
} from './invoices.repo.js';

/** What issuing an invoice and a credit note have in common: seller, buyer, number and mail. */

/** Issuing needs the seller's particulars; a payment is refused until they are set up. */
export async function sellerProfileOrRefuse(db: Db): Promise<SellerTaxProfileRow> {
  const profile = await findSellerTaxProfile(db);
  if (!profile) throw new AppError(409, messages.tax.profileMissing, 'TAX_PROFILE_MISSING');
  return profile;
}

export function sellerSnapshot(profile: SellerTaxProfileRow): SellerSnapshot {
  return {
    name: profile.legalName,
    address: profile.address,
    gstin: profile.gstin,
    stateCode: profile.stateCode,
    pan: profile.pan,
    signatory: profile.signatory,
  };
}

/** The buyer as the invoice states them, and the place of supply that decides CGST+SGST or IGST. */
export async function buyerOf(db: Db, organizationId: string, seller: SellerTaxProfileRow) {
  const row = await findBuyerParticulars(db, organizationId);
  const address = row?.address
    ? [row.address, [row.city, row.state, row.pincode].filter(Boolean).join(', '), row.country]
        .filter(Boolean)
        .join('\n')
    : '';
  // A registered buyer's place of supply is their GSTIN's state; an unregistered one's, the state on
  // record, else the supplier's own (section 12(2) of the IGST Act).
  const placeOfSupplyCode = row?.gstin?.slice(0, 2) ?? row?.gstStateCode ?? seller.stateCode;
  const buyer: PartySnapshot = {
    name: row?.name ?? row?.organizationName ?? '',
    address,
    gstin: row?.gstin ?? null,
    stateCode: placeOfSupplyCode,
  };
  return { buyer, placeOfSupplyCode, intraState: placeOfSupplyCode === seller.stateCode };
}

/**
 * The next number with `prefix`, or a clear refusal once a year's six digits are used up. A prefix
 * is a series of its own, whichever kind of document carries it: changing or swapping the prefixes
 * mid-year never gives a number twice (GST Rule 46; docs/decisions/020).
 */
export async function nextDocumentNumber(tx: Db, prefix: string, issuedAt: Date) {
  const year = financialYearOf(issuedAt).label;
  const sequence = await takeNextNumber(tx, prefix, year);
  if (sequence > DOCUMENT_SEQUENCE_MAX) {
    throw new AppError(409, messages.tax.sequenceExhausted, 'SEQUENCE_EXHAUSTED');
  }
  return { financialYear: year, sequence, number: documentNumber(prefix, year, sequence) };
}

/** Mails a document to the organization's admins through the outbox, in the transaction `deps.db` is. */
export async function mailToAdmins(
  deps: Deps,
  actor: Actor | SystemActor,
  organizationId: string,
  mail: { kind: 'tax_invoice' | 'credit_note'; subject: string; text: string; attachment: MailAttachmentRef },
): Promise<void> {
  for (const { email: to } of await activeOrganizationAdmins(deps, actor, { organizationId })) {
    await deps.mailer.enqueue(deps.db, {
      kind: mail.kind,
      to,
      organizationId,
      subject: mail.subject,
      text: mail.text,
      attachments: [mail.attachment],
    });
  }
}
