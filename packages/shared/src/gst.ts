/**
 * GST facts the invoices need (docs/product.md, "Tax invoices"): the states and union territories
 * with their GST state codes, GSTIN and PAN checks, the financial year, document numbers and the
 * split of a paid amount into taxable value and taxes.
 */
import { istWallClock } from './india-time.js';

/** The 36 states and union territories with the codes GSTINs begin with (25 and 28 are retired). */
export const INDIAN_STATES = [
  { code: '01', name: 'Jammu and Kashmir' },
  { code: '02', name: 'Himachal Pradesh' },
  { code: '03', name: 'Punjab' },
  { code: '04', name: 'Chandigarh' },
  { code: '05', name: 'Uttarakhand' },
  { code: '06', name: 'Haryana' },
  { code: '07', name: 'Delhi' },
  { code: '08', name: 'Rajasthan' },
  { code: '09', name: 'Uttar Pradesh' },
  { code: '10', name: 'Bihar' },
  { code: '11', name: 'Sikkim' },
  { code: '12', name: 'Arunachal Pradesh' },
  { code: '13', name: 'Nagaland' },
  { code: '14', name: 'Manipur' },
  { code: '15', name: 'Mizoram' },
  { code: '16', name: 'Tripura' },
  { code: '17', name: 'Meghalaya' },
  { code: '18', name: 'Assam' },
  { code: '19', name: 'West Bengal' },
  { code: '20', name: 'Jharkhand' },
  { code: '21', name: 'Odisha' },
  { code: '22', name: 'Chhattisgarh' },
  { code: '23', name: 'Madhya Pradesh' },
  { code: '24', name: 'Gujarat' },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu' },
  { code: '27', name: 'Maharashtra' },
  { code: '29', name: 'Karnataka' },
  { code: '30', name: 'Goa' },
  { code: '31', name: 'Lakshadweep' },
  { code: '32', name: 'Kerala' },
  { code: '33', name: 'Tamil Nadu' },
  { code: '34', name: 'Puducherry' },
  { code: '35', name: 'Andaman and Nicobar Islands' },
  { code: '36', name: 'Telangana' },
  { code: '37', name: 'Andhra Pradesh' },
  { code: '38', name: 'Ladakh' },
] as const;

export type IndianState = (typeof INDIAN_STATES)[number];
export type StateCode = IndianState['code'];
export const STATE_CODES = INDIAN_STATES.map((s) => s.code) as [StateCode, ...StateCode[]];

export function stateByCode(code: string): IndianState | undefined {
  return INDIAN_STATES.find((s) => s.code === code);
}

/** "Karnataka (29)", as invoices name a state. */
export function stateLabel(code: string): string {
  const state = stateByCode(code);
  return state ? `${state.name} (${state.code})` : code;
}

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The 15th character of a GSTIN: Luhn mod 36 over the first 14, weights 1, 2, 1, 2… from the left. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = BASE36.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36]!;
}

/** State code, the holder's PAN (5 letters, 4 digits, a letter), registration number, Z, check. */
const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
export const PAN_SHAPE = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

export type GstinProblem = 'format' | 'state' | 'check';

/** What is wrong with an (upper-cased) GSTIN, or null when it is valid. */
export function gstinProblem(gstin: string): GstinProblem | null {
  if (!GSTIN_SHAPE.test(gstin)) return 'format';
  if (!stateByCode(gstin.slice(0, 2))) return 'state';
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin[14]) return 'check';
  return null;
}

/** The Indian financial year (1 April – 31 March, in India's time) a moment falls in. */
export function financialYearOf(moment: Date): { startYear: number; label: string } {
  const ist = istWallClock(moment);
  const startYear = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return { startYear, label: financialYearLabel(startYear) };
}

/** 2026 → "26-27". */
export function financialYearLabel(startYear: number): string {
  const two = (n: number) => String(n % 100).padStart(2, '0');
  return `${two(startYear)}-${two(startYear + 1)}`;
}

/** Invoice and credit-note numbers: `{prefix}/{yy-yy}/{six digits}`, at most 16 characters. */
export const DOCUMENT_PREFIX_MAX = 3;
export const DOCUMENT_SEQUENCE_MAX = 999_999;

export function documentNumber(prefix: string, financialYear: string, sequence: number): string {
  return `${prefix}/${financialYear}/${String(sequence).padStart(6, '0')}`;
}

export interface TaxSplit {
  taxableValuePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}

/**
 * Splits an amount paid (tax included) at a GST rate. The taxable value is the agreed one when the
 * caller knows it (a subscription paid in full), else the amount ÷ (1 + rate) rounded half-up to the
 * paisa; the tax is the rest, so taxable + taxes = paid exactly. Within a state the tax is halved
 * into CGST and SGST; an odd paisa goes to SGST.
 */
export function splitTax(input: {
  totalPaise: number;
  taxRateBp: number;
  intraState: boolean;
  taxableValuePaise?: number;
}): TaxSplit {
  const { totalPaise, taxRateBp } = input;
  const taxable =
    input.taxableValuePaise ??
    Math.floor((totalPaise * 20_000 + (10_000 + taxRateBp)) / (2 * (10_000 + taxRateBp)));
  const tax = totalPaise - taxable;
  if (!input.intraState) {
    return { taxableValuePaise: taxable, cgstPaise: 0, sgstPaise: 0, igstPaise: tax, totalPaise };
  }
  const cgst = Math.floor(tax / 2);
  return { taxableValuePaise: taxable, cgstPaise: cgst, sgstPaise: tax - cgst, igstPaise: 0, totalPaise };
}

/** The part of a document's split that a partial amount carries, keeping the same proportions. */
export function splitShare(whole: TaxSplit, partPaise: number, intraState: boolean): TaxSplit {
  if (partPaise === whole.totalPaise) return { ...whole };
  // Both factors reach ₹2 crore in paise: their product needs more than a double's 53 bits.
  const numerator = 2n * BigInt(whole.taxableValuePaise) * BigInt(partPaise) + BigInt(whole.totalPaise);
  const taxable = Number(numerator / (2n * BigInt(whole.totalPaise)));
  return splitTax({
    totalPaise: partPaise,
    taxRateBp: 0,
    intraState,
    taxableValuePaise: taxable,
  });
}

/**
 * A credit note's figures for `amountPaise` of an invoice of which `creditedBefore` is already
 * credited: the invoice's share of everything credited after this note, less the earlier notes'.
 * Rounded once on the running total, the notes always add up to the invoice, paisa for paisa.
 */
export function creditShare(
  invoice: TaxSplit,
  creditedBefore: TaxSplit,
  amountPaise: number,
  intraState: boolean,
): TaxSplit {
  const upToNow = splitShare(invoice, creditedBefore.totalPaise + amountPaise, intraState);
  return {
    taxableValuePaise: upToNow.taxableValuePaise - creditedBefore.taxableValuePaise,
    cgstPaise: upToNow.cgstPaise - creditedBefore.cgstPaise,
    sgstPaise: upToNow.sgstPaise - creditedBefore.sgstPaise,
    igstPaise: upToNow.igstPaise - creditedBefore.igstPaise,
    totalPaise: amountPaise,
  };
}
