import { istDate, stateByCode, type InvoiceFilter } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { streamWorkbook, type SheetColumn } from '../../lib/spreadsheet.js';
import {
  iterateCreditNotes,
  iterateInvoices,
  type CreditNoteListed,
  type CreditNoteRow,
  type InvoiceRow,
} from './invoices.repo.js';

/**
 * The invoice register as an .xlsx with the sheets a GSTR-1 return is filed from: B2B (buyers with a
 * GSTIN, invoice by invoice), B2CL (inter-state invoices over ₹1 lakh to unregistered buyers), B2CS
 * (the other unregistered sales, summed by place of supply and rate), and credit notes (CDNR/CDNUR).
 * Amounts are rupees with two decimals, as the GST portal's offline tool takes them.
 */

/** Inter-state B2C invoices above this value are reported one by one (B2CL). */
const B2CL_THRESHOLD_PAISE = 1_00_000_00;

const rupees = (paise: number) => paise / 100;
const rate = (bp: number) => bp / 100;
const placeOfSupply = (code: string) => `${code}-${stateByCode(code)?.name ?? ''}`;
const taxOf = (row: { cgstPaise: number; sgstPaise: number; igstPaise: number }) => ({
  igst: rupees(row.igstPaise),
  cgst: rupees(row.cgstPaise),
  sgst: rupees(row.sgstPaise),
});

type Document = InvoiceRow | CreditNoteRow;

const taxColumns: SheetColumn<Document>[] = [
  { header: 'Rate', width: 8, value: (r) => rate(r.taxRateBp) },
  { header: 'Taxable Value', width: 14, value: (r) => rupees(r.taxableValuePaise) },
  { header: 'Integrated Tax', width: 14, value: (r) => taxOf(r).igst },
  { header: 'Central Tax', width: 14, value: (r) => taxOf(r).cgst },
  { header: 'State/UT Tax', width: 14, value: (r) => taxOf(r).sgst },
  { header: 'Cess Amount', width: 12, value: () => 0 },
];

const b2bColumns: SheetColumn<InvoiceRow>[] = [
  { header: 'GSTIN/UIN of Recipient', width: 18, value: (r) => r.buyer.gstin },
  { header: 'Receiver Name', width: 28, value: (r) => r.buyer.name },
  { header: 'Invoice Number', width: 18, value: (r) => r.number },
  { header: 'Invoice date', width: 12, value: (r) => istDate(r.issuedAt) },
  { header: 'Invoice Value', width: 14, value: (r) => rupees(r.totalPaise) },
  { header: 'Place Of Supply', width: 22, value: (r) => placeOfSupply(r.placeOfSupplyCode) },
  { header: 'Reverse Charge', width: 8, value: () => 'N' },
  { header: 'Invoice Type', width: 12, value: () => 'Regular B2B' },
  { header: 'SAC', width: 10, value: (r) => r.sac },
  ...taxColumns,
];

const b2clColumns: SheetColumn<InvoiceRow>[] = [
  { header: 'Invoice Number', width: 18, value: (r) => r.number },
  { header: 'Invoice date', width: 12, value: (r) => istDate(r.issuedAt) },
  { header: 'Invoice Value', width: 14, value: (r) => rupees(r.totalPaise) },
  { header: 'Place Of Supply', width: 22, value: (r) => placeOfSupply(r.placeOfSupplyCode) },
  { header: 'SAC', width: 10, value: (r) => r.sac },
  ...taxColumns,
];

interface B2csLine {
  placeOfSupplyCode: string;
  taxRateBp: number;
  taxableValuePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
}

const b2csColumns: SheetColumn<B2csLine>[] = [
  { header: 'Type', width: 6, value: () => 'OE' },
  { header: 'Place Of Supply', width: 22, value: (r) => placeOfSupply(r.placeOfSupplyCode) },
  { header: 'Rate', width: 8, value: (r) => rate(r.taxRateBp) },
  { header: 'Taxable Value', width: 14, value: (r) => rupees(r.taxableValuePaise) },
  { header: 'Integrated Tax', width: 14, value: (r) => taxOf(r).igst },
  { header: 'Central Tax', width: 14, value: (r) => taxOf(r).cgst },
  { header: 'State/UT Tax', width: 14, value: (r) => taxOf(r).sgst },
  { header: 'Cess Amount', width: 12, value: () => 0 },
];

const creditNoteColumns: SheetColumn<CreditNoteListed>[] = [
  { header: 'GSTIN/UIN of Recipient', width: 18, value: (r) => r.buyer.gstin ?? '' },
  { header: 'Receiver Name', width: 28, value: (r) => r.buyer.name },
  { header: 'Return Section', width: 10, value: (r) => (r.buyer.gstin ? 'CDNR' : 'CDNUR') },
  { header: 'Note Number', width: 18, value: (r) => r.number },
  { header: 'Note Date', width: 12, value: (r) => istDate(r.issuedAt) },
  { header: 'Note Type', width: 8, value: () => 'C' },
  { header: 'Place Of Supply', width: 22, value: (r) => placeOfSupply(r.placeOfSupplyCode) },
  { header: 'Reverse Charge', width: 8, value: () => 'N' },
  { header: 'Note Value', width: 14, value: (r) => rupees(r.totalPaise) },
  { header: 'Invoice Number', width: 18, value: (r) => r.invoiceNumber },
  { header: 'Invoice date', width: 12, value: (r) => istDate(r.invoiceIssuedAt) },
  ...taxColumns,
];

/**
 * Reads the filtered invoices once: B2B rows are written as they come, B2CL rows and the B2CS sums
 * are kept (both are small: a line per place of supply and rate) for the sheets that follow.
 */
export function invoiceRegister(db: Db, filter: InvoiceFilter, scope: string | null) {
  const b2cl: InvoiceRow[] = [];
  const b2cs = new Map<string, B2csLine>();

  async function* b2bRows() {
    for await (const invoice of iterateInvoices(db, filter, scope)) {
      if (invoice.buyer.gstin) {
        yield invoice;
      } else if (!invoice.intraState && invoice.totalPaise > B2CL_THRESHOLD_PAISE) {
        b2cl.push(invoice);
      } else {
        const key = `${invoice.placeOfSupplyCode}|${invoice.taxRateBp}`;
        const line = b2cs.get(key) ?? {
          placeOfSupplyCode: invoice.placeOfSupplyCode,
          taxRateBp: invoice.taxRateBp,
          taxableValuePaise: 0,
          cgstPaise: 0,
          sgstPaise: 0,
          igstPaise: 0,
        };
        line.taxableValuePaise += invoice.taxableValuePaise;
        line.cgstPaise += invoice.cgstPaise;
        line.sgstPaise += invoice.sgstPaise;
        line.igstPaise += invoice.igstPaise;
        b2cs.set(key, line);
      }
    }
  }

  return streamWorkbook<[InvoiceRow, InvoiceRow, B2csLine, CreditNoteListed]>([
    { name: 'B2B', columns: b2bColumns, rows: b2bRows() },
    { name: 'B2CL', columns: b2clColumns, rows: b2cl },
    { name: 'B2CS', columns: b2csColumns, rows: b2cs.values() },
    {
      name: 'Credit Notes',
      columns: creditNoteColumns,
      rows: iterateCreditNotes(db, filter, scope),
    },
  ]);
}
