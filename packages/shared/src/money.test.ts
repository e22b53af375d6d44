import { describe, expect, it } from 'vitest';
import {
  computeAmounts,
  formatRupees,
  MAX_CREDITS,
  MAX_PRICE_PER_CREDIT_PAISE,
  parseGstPercent,
  percentToBasisPoints,
  rupeesToPaise,
} from './money.js';

// credits, price (paise), rate (bp), discount % → sub, discount, total, tax, grand (all paise)
const cases: [number, number, number, number, number, number, number, number, number][] = [
  // The defaults: 18% GST on whole-rupee prices.
  [100, 10_000, 1800, 0, 1_000_000, 0, 1_000_000, 180_000, 1_180_000],
  [1, 100, 1800, 0, 100, 0, 100, 0, 100], // ₹0.18 GST rounds down to ₹0
  [3, 100, 1800, 0, 300, 0, 300, 100, 400], // ₹0.54 GST rounds up to ₹1
  [1, 277, 1800, 0, 300, 0, 300, 100, 400], // ₹2.77 rounds up to ₹3; ₹0.54 → ₹1
  // Half-up at exactly 50 paise.
  [1, 150, 0, 0, 200, 0, 200, 0, 200], // ₹1.50 → ₹2
  [1, 149, 0, 0, 100, 0, 100, 0, 100], // ₹1.49 → ₹1
  [1, 250, 0, 0, 300, 0, 300, 0, 300], // ₹2.50 → ₹3 (half-up, not half-even)
  [4, 100, 1250, 0, 400, 0, 400, 100, 500], // 12.5% of ₹4 = ₹0.50 → ₹1
  [2, 100, 2499, 0, 200, 0, 200, 0, 200], // ₹0.4998 → ₹0
  [2, 100, 2500, 0, 200, 0, 200, 100, 300], // ₹0.50 → ₹1
  // Fractional GST rates (step 0.01%).
  [7, 12_345, 1875, 0, 86_400, 0, 86_400, 16_200, 102_600], // ₹864.15 → ₹864; ₹162.00
  [10, 999, 1801, 0, 10_000, 0, 10_000, 1_800, 11_800], // ₹99.90 → ₹100; ₹18.01 → ₹18
  // Rate bounds.
  [5, 20_000, 0, 0, 100_000, 0, 100_000, 0, 100_000],
  [5, 20_000, 10_000, 0, 100_000, 0, 100_000, 100_000, 200_000],
  // Discount is taken before tax.
  [10, 10_000, 1800, 10, 100_000, 10_000, 90_000, 16_200, 106_200],
  [1, 1_500, 1800, 50, 1_500, 800, 700, 100, 800], // ₹7.50 discount → ₹8; ₹1.26 tax → ₹1
  [3, 100, 1800, 100, 300, 300, 0, 0, 0],
  // Zero credits.
  [0, 10_000, 1800, 0, 0, 0, 0, 0, 0],
  // The largest accepted inputs stay exact integers.
  [MAX_CREDITS, MAX_PRICE_PER_CREDIT_PAISE, 1800, 0, 1e13, 0, 1e13, 1.8e12, 1.18e13],
];

describe('computeAmounts', () => {
  it.each(cases)(
    '%i credits × %i paise at %i bp, %i%% off',
    (credits, price, rate, discount, sub, disc, total, tax, grand) => {
      expect(
        computeAmounts({
          credits,
          pricePerCreditPaise: price,
          taxRateBp: rate,
          discountPercentage: discount,
        }),
      ).toEqual({
        subTotalPaise: sub,
        discountAmountPaise: disc,
        totalAmountPaise: total,
        taxAmountPaise: tax,
        grandTotalPaise: grand,
      });
    },
  );

  it('always yields whole rupees that add up', () => {
    for (let credits = 0; credits <= 40; credits += 3) {
      for (const price of [100, 101, 149, 150, 151, 999, 12_345]) {
        for (const rate of [0, 1, 500, 1200, 1800, 2800, 9999]) {
          const a = computeAmounts({ credits, pricePerCreditPaise: price, taxRateBp: rate });
          for (const v of Object.values(a)) expect(v % 100).toBe(0);
          expect(a.grandTotalPaise).toBe(a.totalAmountPaise + a.taxAmountPaise);
          expect(Math.abs(a.subTotalPaise - credits * price)).toBeLessThanOrEqual(50);
        }
      }
    }
  });

  it.each([
    { credits: -1, pricePerCreditPaise: 100, taxRateBp: 0 },
    { credits: 1.5, pricePerCreditPaise: 100, taxRateBp: 0 },
    { credits: 1, pricePerCreditPaise: 100.5, taxRateBp: 0 },
    { credits: 1, pricePerCreditPaise: 100, taxRateBp: 10_001 },
    { credits: 1, pricePerCreditPaise: 100, taxRateBp: Number.NaN },
    { credits: MAX_CREDITS + 1, pricePerCreditPaise: 100, taxRateBp: 0 },
    { credits: 1, pricePerCreditPaise: 100, taxRateBp: 0, discountPercentage: 101 },
  ])('refuses %o', (input) => {
    expect(() => computeAmounts(input)).toThrow(RangeError);
  });
});

describe('conversions at the edge', () => {
  it('turns rupee inputs into paise and percent into basis points without float drift', () => {
    expect(rupeesToPaise(19.99)).toBe(1999);
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
    expect(percentToBasisPoints(18)).toBe(1800);
    expect(percentToBasisPoints(0.07)).toBe(7);
    expect(percentToBasisPoints(12.345)).toBe(1235);
  });

  it('parses GST input: 0 to 100, step 0.01, invalid becomes 0', () => {
    expect(parseGstPercent('18')).toBe(18);
    expect(parseGstPercent('18.255')).toBe(18.26);
    expect(parseGstPercent('100')).toBe(100);
    expect(parseGstPercent('100.01')).toBe(0);
    expect(parseGstPercent('-1')).toBe(0);
    expect(parseGstPercent('abc')).toBe(0);
    expect(parseGstPercent('')).toBe(0);
  });

  it('formats paise as Indian rupees', () => {
    expect(formatRupees(1_180_000)).toBe('₹11,800.00');
    expect(formatRupees(1_000_000_000)).toBe('₹1,00,00,000.00');
  });
});
