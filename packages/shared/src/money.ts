/**
 * Subscription amounts in integer paise (SPEC.md §9, DECISIONS.md): subtotal = credits × price,
 * GST = subtotal × rate, total = subtotal + GST, each rounded to whole rupees. One function, used by
 * the subscription form and recomputed by the server.
 */
const PAISE_PER_RUPEE = 100;
const BASIS_POINTS = 10_000;

export interface AmountInput {
  credits: number;
  /** Price of one credit, in paise. */
  pricePerCreditPaise: number;
  /** GST rate in basis points (18% = 1800). */
  taxRateBp: number;
}

export interface Amounts {
  subTotalPaise: number;
  taxAmountPaise: number;
  grandTotalPaise: number;
}

/** Half-up division of non-negative integers. */
function divRound(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

export function computeAmounts({ credits, pricePerCreditPaise, taxRateBp }: AmountInput): Amounts {
  const subTotalRupees = divRound(credits * pricePerCreditPaise, PAISE_PER_RUPEE);
  const taxRupees = divRound(subTotalRupees * taxRateBp, BASIS_POINTS);
  return {
    subTotalPaise: subTotalRupees * PAISE_PER_RUPEE,
    taxAmountPaise: taxRupees * PAISE_PER_RUPEE,
    grandTotalPaise: (subTotalRupees + taxRupees) * PAISE_PER_RUPEE,
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

/** GST input: 0 to 100 with step 0.01; anything else becomes 0 (SPEC.md §5). */
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

/** Formatting happens only at the edge. */
export function formatRupees(paise: number): string {
  return rupeeFormat.format(paise / PAISE_PER_RUPEE);
}
