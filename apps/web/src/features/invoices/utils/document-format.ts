import { formatRupees, type CreditNote, type Invoice } from '@portal/shared';

/** The first financial year the filter offers: FY 2017-18, when GST began (1 July 2017). */
export const FIRST_FINANCIAL_YEAR = 2017;

/** The financial years from the current one back to FY 2017-18, newest first (2026 → "2026-27"). */
export function financialYearOptions(currentStartYear: number): { value: number; label: string }[] {
  const years: { value: number; label: string }[] = [];
  for (let year = currentStartYear; year >= FIRST_FINANCIAL_YEAR; year--) {
    years.push({ value: year, label: `${year}-${String((year + 1) % 100).padStart(2, '0')}` });
  }
  return years;
}

type TaxFigures = Pick<Invoice | CreditNote, 'intraState' | 'cgstPaise' | 'sgstPaise' | 'igstPaise'>;

/** The taxes a document charges: CGST and SGST within the seller's state, IGST across states. */
export function taxLines(doc: TaxFigures): string[] {
  return doc.intraState
    ? [`CGST ${formatRupees(doc.cgstPaise)}`, `SGST ${formatRupees(doc.sgstPaise)}`]
    : [`IGST ${formatRupees(doc.igstPaise)}`];
}

/** What a download is saved as when the server names no file: `IC/26-27/000001` → `IC-26-27-000001.pdf`. */
export function pdfName(number: string): string {
  return `${number.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;
}
