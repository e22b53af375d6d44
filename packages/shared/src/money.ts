/**
 * Subscription amounts in integer paise. One function, used by the
 * subscription form and recomputed by the server, which rejects a payload whose figures differ.
 *
 * Meaning of the figures (docs/product.md, "Subscriptions and payments"):
 * - subTotal       = credits × price per credit, rounded to whole rupees;
 * - discountAmount = subTotal × discount %, rounded to whole rupees (0 today: no discount is offered);
 * - totalAmount    = subTotal − discountAmount (the taxable value);
 * - taxAmount      = totalAmount × GST rate, rounded to whole rupees;
 * - grandTotal     = totalAmount + taxAmount: what the customer pays. `taxInclusive: true` means
 *   this grand total includes the GST (prices per credit are quoted before GST).
 * Rounding is half-up on exact integers (no floating point), so ₹0.50 becomes ₹1.
 */
const PAISE_PER_RUPEE = 100;
const BASIS_POINTS = 10_000;

/** Largest amount an integer money column holds (PostgreSQL `integer`): about ₹2.1 crore. */
export const MAX_AMOUNT_PAISE = 2_147_483_647;
export const MAX_CREDITS = 1_000_000;
/** ₹1 lakh per credit. */
export const MAX_PRICE_PER_CREDIT_PAISE = 10_000_000;
export const MIN_PRICE_PER_CREDIT_PAISE = 100;

/**
 * List price of one interview credit bought online by a tenant admin (₹100 before GST), and the GST
 * charged on it. The order amount is computed on the server from these; a client never sends it.
 */
export const PLATFORM_PRICE_PER_CREDIT_PAISE = 10_000;
export const DEFAULT_GST_RATE_BP = 1_800;

export interface AmountInput {
  credits: number;
  /** Price of one credit, in paise. */
  pricePerCreditPaise: number;
  /** GST rate in basis points (18% = 1800). */
  taxRateBp: number;
  /** Whole percent, 0 to 100. */
  discountPercentage?: number;
}

export interface Amounts {
  subTotalPaise: number;
  discountAmountPaise: number;
  totalAmountPaise: number;
  taxAmountPaise: number;
  grandTotalPaise: number;
}

/** Half-up division of non-negative safe integers, exact (no floating-point quotient). */
function divRound(numerator: number, denominator: number): number {
  const doubled = 2 * numerator + denominator;
  const twice = 2 * denominator;
  return (doubled - (doubled % twice)) / twice;
}

function requireWhole(name: string, value: number, max: number) {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be a whole number from 0 to ${max}`);
  }
}

export function computeAmounts({
  credits,
  pricePerCreditPaise,
  taxRateBp,
  discountPercentage = 0,
}: AmountInput): Amounts {
  requireWhole('credits', credits, MAX_CREDITS);
  requireWhole('pricePerCreditPaise', pricePerCreditPaise, MAX_PRICE_PER_CREDIT_PAISE);
  requireWhole('taxRateBp', taxRateBp, BASIS_POINTS);
  requireWhole('discountPercentage', discountPercentage, 100);
  const subTotalRupees = divRound(credits * pricePerCreditPaise, PAISE_PER_RUPEE);
  const discountRupees = divRound(subTotalRupees * discountPercentage, 100);
  const totalRupees = subTotalRupees - discountRupees;
  const taxRupees = divRound(totalRupees * taxRateBp, BASIS_POINTS);
  return {
    subTotalPaise: subTotalRupees * PAISE_PER_RUPEE,
    discountAmountPaise: discountRupees * PAISE_PER_RUPEE,
    totalAmountPaise: totalRupees * PAISE_PER_RUPEE,
    taxAmountPaise: taxRupees * PAISE_PER_RUPEE,
    grandTotalPaise: (totalRupees + taxRupees) * PAISE_PER_RUPEE,
  };
}

export function rupeesToPaise(rupees: number): number {
  return Math.round(rupees * PAISE_PER_RUPEE);
}

export function paiseToRupees(paise: number): number {
  return paise / PAISE_PER_RUPEE;
}

export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

export function basisPointsToPercent(bp: number): number {
  return bp / 100;
}

/** GST input: 0 to 100 with step 0.01; anything else becomes 0. */
export function parseGstPercent(raw: string | number): number {
  const value = typeof raw === 'number' ? raw : Number.parseFloat(raw);
  if (!Number.isFinite(value) || value < 0 || value > 100) return 0;
  return Math.round(value * 100) / 100;
}

const rupeeFormat = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 2,
});

/** Formatting happens only at the edge. `₹1,18,000.00`: the ₹ sign, Indian grouping, paise. */
export function formatRupees(paise: number): string {
  return rupeeFormat.format(paise / PAISE_PER_RUPEE);
}

const wholeRupeeFormat = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** `₹1,50,000`: rounded to whole rupees, for scales such as a chart's axis, never for a sum owed. */
export function formatWholeRupees(paise: number): string {
  return wholeRupeeFormat.format(Math.round(paise / PAISE_PER_RUPEE));
}
