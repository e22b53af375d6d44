import { messages, stateByCode } from '@portal/shared';
import type { Db } from '../../db/client.js';
import type { PartySnapshot } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import type { AttachmentRenderer } from '../../core/mail.js';
import type { WorkerPool } from '../../core/worker-pool.js';
import type { TaxDocument } from './invoice-pdf.js';
import { findCreditNote, findInvoice, type CreditNoteRow, type InvoiceRow } from './invoices.repo.js';

/**
 * A tax document's PDF, rendered on the shared worker pool (core/worker-pool.ts) by
 * invoice-pdf.worker.mjs, so a burst of downloads or receipts never holds up other requests.
 */
const PDF_WORKER = new URL('./invoice-pdf.worker.mjs', import.meta.url);

export interface DocumentPdf {
  fileName: string;
  pdf: Buffer;
}

function party(snapshot: PartySnapshot) {
  return {
    name: snapshot.name,
    address: snapshot.address,
    gstin: snapshot.gstin,
    stateCode: snapshot.stateCode,
    stateName: stateByCode(snapshot.stateCode)?.name ?? snapshot.stateCode,
  };
}

function taxDocument(
  row: InvoiceRow | CreditNoteRow,
  extra: Pick<TaxDocument, 'kind' | 'originalInvoice' | 'reason'>,
): TaxDocument {
  const seller = row.seller;
  return {
    ...extra,
    number: row.number,
    issuedAt: row.issuedAt,
    seller: { ...party(seller), gstin: seller.gstin, pan: seller.pan, signatory: seller.signatory },
    buyer: party(row.buyer),
    placeOfSupply: {
      stateCode: row.placeOfSupplyCode,
      stateName: stateByCode(row.placeOfSupplyCode)?.name ?? row.placeOfSupplyCode,
    },
    sac: row.sac,
    description: row.description,
    quantity: row.quantity,
    unitRatePaise: row.unitRatePaise,
    taxableValuePaise: row.taxableValuePaise,
    taxRateBp: row.taxRateBp,
    cgstPaise: row.cgstPaise,
    sgstPaise: row.sgstPaise,
    igstPaise: row.igstPaise,
    totalPaise: row.totalPaise,
  };
}

/** `IC-26-27-000123.pdf`: the number with its slashes made safe for a file name. */
function documentFileName(number: string): string {
  return `${number.replaceAll('/', '-')}.pdf`;
}

async function render(workers: WorkerPool, document: TaxDocument): Promise<Buffer> {
  // The worker's Buffer arrives as a Uint8Array (structured clone).
  const bytes = await workers.run<Uint8Array>(PDF_WORKER, document);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** An invoice's PDF, confined to `scope` unless null; 404 when not found there. */
export async function renderInvoicePdf(
  db: Db,
  workers: WorkerPool,
  id: string,
  scope: string | null,
): Promise<DocumentPdf> {
  const invoice = await findInvoice(db, id, scope);
  if (!invoice) throw notFound(messages.invoices.notFound);
  const pdf = await render(
    workers,
    taxDocument(invoice, { kind: 'invoice', originalInvoice: null, reason: null }),
  );
  return { fileName: documentFileName(invoice.number), pdf };
}

/** A credit note's PDF, confined to `scope` unless null; 404 when not found there. */
export async function renderCreditNotePdf(
  db: Db,
  workers: WorkerPool,
  id: string,
  scope: string | null,
): Promise<DocumentPdf> {
  const note = await findCreditNote(db, id, scope);
  if (!note) throw notFound(messages.invoices.creditNoteNotFound);
  // Always there: a credit note references its invoice, and neither is ever deleted.
  const invoice = (await findInvoice(db, note.invoiceId, null))!;
  const pdf = await render(
    workers,
    taxDocument(note, {
      kind: 'credit_note',
      originalInvoice: { number: invoice.number, issuedAt: invoice.issuedAt },
      reason: note.reason,
    }),
  );
  return { fileName: documentFileName(note.number), pdf };
}

/**
 * Renders a mail's attached document when the mail is delivered (app.ts hands it to the mailer,
 * which deps holds, so it takes the worker pool rather than deps).
 */
export function mailAttachmentRenderer(workers: WorkerPool): AttachmentRenderer {
  return async (db, ref) => {
    const { fileName, pdf } =
      ref.kind === 'invoice'
        ? await renderInvoicePdf(db, workers, ref.id, null)
        : await renderCreditNotePdf(db, workers, ref.id, null);
    return { filename: fileName, contentType: 'application/pdf', content: pdf };
  };
}
