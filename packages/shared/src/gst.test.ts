import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  creditShare,
  documentNumber,
  DOCUMENT_PREFIX_MAX,
  DOCUMENT_SEQUENCE_MAX,
  financialYearLabel,
  financialYearOf,
  gstinCheckCharacter,
  gstinProblem,
  INDIAN_STATES,
  splitShare,
  splitTax,
  STATE_CODES,
  stateByCode,
  stateLabel,
  type TaxSplit,
} from './gst.js';
import { istDate, istMonthStart } from './india-time.js';

const SEED = 20_260_401;
const BASE36_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

/**
 * The check character as the GSTN publishes it, written apart from gst.ts so that the two can
 * disagree: each of the first 14 characters as a base-36 value, weighted 1, 2, 1, 2… from the
 * left; each product's base-36 digits summed; the check is (36 − sum mod 36) mod 36.
 */
function referenceCheckCharacter(first14: string): string {
  if (!/^[0-9A-Z]{14}$/.test(first14)) throw new Error(`not 14 base-36 characters: ${first14}`);
  let sum = 0;
  for (const [index, char] of [...first14].entries()) {
    const product = parseInt(char, 36) * (index % 2 === 0 ? 1 : 2);
    const quotient = Math.trunc(product / 36);
    const remainder = product - quotient * 36;
    sum += quotient + remainder;
  }
  return ((36 - (sum % 36)) % 36).toString(36).toUpperCase();
}

/** `first14` completed with its correct check character (by the reference above). */
const withCheck = (first14: string) => first14 + referenceCheckCharacter(first14);

/** GSTINs in real-world format whose check characters the reference confirms. */
const VALID_GSTINS = [
  '27AAPFU0939F1ZV',
  '29AAGCB7383J1Z4',
  '33AAACH7409R1Z8',
  '24AAACC1206D1ZM',
  '27AAACR5055K1Z7',
];

const pick = (chars: string) => fc.constantFrom(...chars);
/** A GSTIN of a real state, of the right shape, with a correct check character. */
const validGstin = fc
  .tuple(
    fc.constantFrom(...STATE_CODES),
    fc.array(pick(LETTERS), { minLength: 5, maxLength: 5 }),
    fc.array(pick(DIGITS), { minLength: 4, maxLength: 4 }),
    pick(LETTERS),
    pick('123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
  )
  .map(([state, letters, digits, last, entity]) =>
    withCheck(`${state}${letters.join('')}${digits.join('')}${last}${entity}Z`),
  );

describe('the reference check character used by these tests', () => {
  it('agrees with the example GSTIN that GSTN documents', () => {
    expect(referenceCheckCharacter('27AAPFU0939F1Z')).toBe('V');
  });

  it('confirms each valid GSTIN the tests rely on', () => {
    for (const gstin of VALID_GSTINS) expect(referenceCheckCharacter(gstin.slice(0, 14))).toBe(gstin[14]);
  });
});

describe('gstinCheckCharacter', () => {
  it.each(VALID_GSTINS)('gives the last character of %s', (gstin) => {
    expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin[14]);
  });

  it('agrees with the published algorithm on any 14 base-36 characters', () => {
    fc.assert(
      fc.property(fc.array(pick(BASE36_CHARS), { minLength: 14, maxLength: 14 }), (chars) => {
        const first14 = chars.join('');
        expect(gstinCheckCharacter(first14)).toBe(referenceCheckCharacter(first14));
      }),
      { numRuns: 5_000, seed: SEED },
    );
  });

  it('reads only the first 14 characters', () => {
    expect(gstinCheckCharacter('27AAPFU0939F1ZV')).toBe('V');
    expect(gstinCheckCharacter('27AAPFU0939F1Z0')).toBe('V');
  });

  it('covers the extremes of the alphabet: all zeros and all Zs', () => {
    expect(gstinCheckCharacter('0'.repeat(14))).toBe('0');
    expect(gstinCheckCharacter('Z'.repeat(14))).toBe(referenceCheckCharacter('Z'.repeat(14)));
  });
});

describe('gstinProblem', () => {
  it.each(VALID_GSTINS)('accepts %s', (gstin) => {
    expect(gstinProblem(gstin)).toBeNull();
  });

  it('accepts any well-formed GSTIN of a real state with a correct check character', () => {
    fc.assert(
      fc.property(validGstin, (gstin) => {
        expect(gstinProblem(gstin)).toBeNull();
      }),
      { numRuns: 2_000, seed: SEED },
    );
  });

  it.each(VALID_GSTINS)('answers check for every other last character of %s', (gstin) => {
    const others = [...BASE36_CHARS].filter((c) => c !== gstin[14]);
    expect(others).toHaveLength(35);
    for (const c of others) expect(gstinProblem(gstin.slice(0, 14) + c), c).toBe('check');
  });

  it('catches every transposition of two adjacent different characters within positions 3 to 12', () => {
    fc.assert(
      fc.property(validGstin, (gstin) => {
        // Zero-based 2…11 are positions 3…12; each pair (i, i + 1) lies inside them.
        for (let i = 2; i <= 10; i++) {
          if (gstin[i] === gstin[i + 1]) continue;
          const swapped = gstin.slice(0, i) + gstin[i + 1] + gstin[i] + gstin.slice(i + 2);
          expect(['check', 'format'], `${gstin} → ${swapped}`).toContain(gstinProblem(swapped));
        }
      }),
      { numRuns: 2_000, seed: SEED },
    );
  });

  it('catches every transposition of every pair of characters the shape allows at positions 3 to 12', () => {
    // Characters allowed at zero-based 2…11: five letters, four digits, a letter.
    const allowed = [...Array(5).fill(LETTERS), ...Array(4).fill(DIGITS), LETTERS] as string[];
    const base = '29AAGCB7383J1Z4';
    let tried = 0;
    for (let i = 2; i <= 10; i++) {
      for (const a of allowed[i - 2]!) {
        for (const b of allowed[i - 1]!) {
          if (a === b) continue;
          const original = withCheck(base.slice(0, i) + a + b + base.slice(i + 2, 14));
          expect(gstinProblem(original)).toBeNull();
          const swapped = original.slice(0, i) + b + a + original.slice(i + 2);
          expect(['check', 'format'], `${original} → ${swapped}`).toContain(gstinProblem(swapped));
          tried++;
        }
      }
    }
    // 4 letter pairs × 26 × 25, 3 digit pairs × 10 × 9, 2 letter–digit borders × 26 × 10.
    expect(tried).toBe(3_390);
  });

  it.each([
    ['14 characters', '27AAPFU0939F1Z'],
    ['16 characters', '27AAPFU0939F1ZVA'],
    ['nothing', ''],
    ['lower case (callers upper-case first)', '27aapfu0939f1zv'],
    ['partly lower case', '27AAPFu0939F1ZV'],
    ['a letter in the state code', '2XAAPFU0939F1ZV'],
    ['a digit among the PAN letters', '27AAP0U0939F1ZV'],
    ['the letter O among the PAN digits', '27AAPFUO939F1ZV'],
    ['a digit for the last PAN letter', '27AAPFU093901ZV'],
    ['0 as the registration number', '27AAPFU0939F0ZV'],
    ['something other than Z in position 14', '27AAPFU0939F1YV'],
    ['a space inside', '27AAPFU0939F 1ZV'],
    ['leading space', ' 27AAPFU0939F1ZV'],
    ['a symbol as check character', '27AAPFU0939F1Z-'],
  ])('answers format for %s', (_label, gstin) => {
    expect(gstinProblem(gstin)).toBe('format');
  });

  it.each(['00', '25', '28', '39', '99'])(
    'answers state for state code %s, even with a correct check',
    (code) => {
      const gstin = withCheck(`${code}AAPFU0939F1Z`);
      expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin[14]);
      expect(gstinProblem(gstin)).toBe('state');
    },
  );

  it('answers state before check when both are wrong', () => {
    const gstin = withCheck('25AAPFU0939F1Z');
    const wrongCheck = gstin.slice(0, 14) + (gstin[14] === 'A' ? 'B' : 'A');
    expect(gstinProblem(wrongCheck)).toBe('state');
  });

  it('accepts every state code with a correct check character', () => {
    for (const { code } of INDIAN_STATES)
      expect(gstinProblem(withCheck(`${code}AAPFU0939F1Z`)), code).toBeNull();
  });
});

describe('INDIAN_STATES', () => {
  it('has 36 states and union territories with unique two-digit codes and unique names', () => {
    expect(INDIAN_STATES).toHaveLength(36);
    const codes = INDIAN_STATES.map((s) => s.code);
    const names = INDIAN_STATES.map((s) => s.name);
    for (const code of codes) expect(code).toMatch(/^\d{2}$/);
    for (const name of names) expect(name.trim()).not.toBe('');
    expect(new Set(codes).size).toBe(36);
    expect(new Set(names).size).toBe(36);
  });

  it('runs 01 to 38 without the retired 25 and 28', () => {
    const expected = Array.from({ length: 38 }, (_, i) => String(i + 1).padStart(2, '0')).filter(
      (c) => c !== '25' && c !== '28',
    );
    expect(INDIAN_STATES.map((s) => s.code)).toEqual(expected);
    expect(STATE_CODES).toEqual(expected);
  });

  it('finds and labels a state by its code', () => {
    expect(stateByCode('29')?.name).toBe('Karnataka');
    expect(stateByCode('27')?.name).toBe('Maharashtra');
    expect(stateByCode('25')).toBeUndefined();
    expect(stateByCode('9')).toBeUndefined();
    expect(stateLabel('29')).toBe('Karnataka (29)');
    expect(stateLabel('99')).toBe('99');
  });
});

describe('financialYearOf', () => {
  it('puts the last millisecond of 31 March in India in the year that began the April before', () => {
    expect(financialYearOf(new Date('2027-03-31T18:29:59.999Z'))).toEqual({
      startYear: 2026,
      label: '26-27',
    });
  });

  it('puts midnight of 1 April in India in the new year', () => {
    expect(financialYearOf(new Date('2027-03-31T18:30:00.000Z'))).toEqual({
      startYear: 2027,
      label: '27-28',
    });
  });

  it('reads the boundary in India, not in UTC', () => {
    // 31 March 20:00 UTC is already 1 April 01:30 in India.
    expect(financialYearOf(new Date('2026-03-31T20:00:00Z')).startYear).toBe(2026);
    // 1 April 00:00 UTC is 1 April 05:30 in India; 31 March 18:00 UTC is still 31 March.
    expect(financialYearOf(new Date('2026-04-01T00:00:00Z')).startYear).toBe(2026);
    expect(financialYearOf(new Date('2026-03-31T18:00:00Z')).startYear).toBe(2025);
  });

  it('keeps the calendar-year change inside a financial year', () => {
    expect(financialYearOf(new Date('2026-12-31T18:29:59.999Z')).startYear).toBe(2026);
    expect(financialYearOf(new Date('2026-12-31T18:30:00.000Z')).startYear).toBe(2026);
    expect(financialYearOf(new Date('2027-01-15T12:00:00Z')).startYear).toBe(2026);
  });

  it.each([
    ['1999-06-01T00:00:00Z', 1999, '99-00'],
    ['2000-02-01T00:00:00Z', 1999, '99-00'],
    ['2009-04-01T00:00:00Z', 2009, '09-10'],
    ['2010-03-31T00:00:00Z', 2009, '09-10'],
    ['2026-04-01T00:00:00Z', 2026, '26-27'],
  ])('%s is in %i (%s)', (iso, startYear, label) => {
    expect(financialYearOf(new Date(iso))).toEqual({ startYear, label });
  });

  it('labels a year by the last two digits of both calendar years', () => {
    expect(financialYearLabel(2026)).toBe('26-27');
    expect(financialYearLabel(1999)).toBe('99-00');
    expect(financialYearLabel(2009)).toBe('09-10');
    expect(financialYearLabel(2000)).toBe('00-01');
    expect(financialYearLabel(2099)).toBe('99-00');
  });
});

describe('istMonthStart and istDate', () => {
  it('starts a month at midnight in India, 18:30 UTC the day before', () => {
    expect(istMonthStart(2026, 4).toISOString()).toBe('2026-03-31T18:30:00.000Z');
    expect(istMonthStart(2027, 1).toISOString()).toBe('2026-12-31T18:30:00.000Z');
    expect(istMonthStart(2024, 3).toISOString()).toBe('2024-02-29T18:30:00.000Z');
    expect(istMonthStart(2026, 12).toISOString()).toBe('2026-11-30T18:30:00.000Z');
  });

  it('dates a moment by the calendar in India', () => {
    expect(istDate(new Date('2026-03-31T18:29:59.999Z'))).toBe('2026-03-31');
    expect(istDate(new Date('2026-03-31T18:30:00.000Z'))).toBe('2026-04-01');
    expect(istDate(new Date('2026-12-31T18:30:00.000Z'))).toBe('2027-01-01');
    expect(istDate(new Date('2026-04-01T00:00:00Z'))).toBe('2026-04-01');
    expect(istDate(new Date('2026-04-01T23:59:59Z'))).toBe('2026-04-02');
  });

  it('agrees at every month boundary from 2017 to 2030', () => {
    for (let year = 2017; year <= 2030; year++) {
      for (let month = 1; month <= 12; month++) {
        const start = istMonthStart(year, month);
        expect(istDate(start)).toBe(`${year}-${String(month).padStart(2, '0')}-01`);
        const before = istDate(new Date(start.getTime() - 1));
        expect(before.endsWith('-01'), before).toBe(false);
        expect(financialYearOf(start).startYear).toBe(month >= 4 ? year : year - 1);
      }
    }
  });
});

describe('documentNumber', () => {
  const GST_SERIAL = /^[A-Za-z0-9/-]{1,16}$/;

  it('writes prefix, financial year and six digits', () => {
    const number = documentNumber('IC', '26-27', 123);
    expect(number).toBe('IC/26-27/000123');
    expect(number).toHaveLength(15);
    expect(number).toMatch(GST_SERIAL);
    expect(documentNumber('CN', '09-10', 1)).toBe('CN/09-10/000001');
  });

  it('stays within the 16 characters GST allows with the longest prefix and the last sequence', () => {
    const number = documentNumber('A'.repeat(DOCUMENT_PREFIX_MAX), '26-27', DOCUMENT_SEQUENCE_MAX);
    expect(number.length).toBeLessThanOrEqual(16);
    expect(number).toMatch(GST_SERIAL);
  });

  it('is exactly 16 characters with a three-character prefix and 999999', () => {
    const number = documentNumber('INV', '26-27', 999_999);
    expect(number).toBe('INV/26-27/999999');
    expect(number).toHaveLength(16);
    expect(number).toMatch(GST_SERIAL);
  });
});

const RATES = [0, 500, 1200, 1800, 2800];

/** round-half-up(total × 10000 / (10000 + rate)), in BigInt. */
function expectedTaxable(totalPaise: number, taxRateBp: number): number {
  const numerator = BigInt(totalPaise) * 10_000n;
  const denominator = 10_000n + BigInt(taxRateBp);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return Number(2n * remainder >= denominator ? quotient + 1n : quotient);
}

const sumOf = (s: TaxSplit) => s.taxableValuePaise + s.cgstPaise + s.sgstPaise + s.igstPaise;

/** The shape both splits must have: whole paise, no negative parts, the tax on the right side. */
function expectWellFormed(split: TaxSplit, intraState: boolean) {
  for (const value of Object.values(split)) expect(Number.isSafeInteger(value)).toBe(true);
  expect(split.taxableValuePaise).toBeGreaterThanOrEqual(0);
  expect(sumOf(split)).toBe(split.totalPaise);
  if (intraState) {
    expect(split.igstPaise).toBe(0);
    expect(split.sgstPaise - split.cgstPaise).toBeGreaterThanOrEqual(0);
    expect(split.sgstPaise - split.cgstPaise).toBeLessThanOrEqual(1);
  } else {
    expect(split.cgstPaise).toBe(0);
    expect(split.sgstPaise).toBe(0);
  }
}

describe('splitTax', () => {
  it('halves the tax within a state', () => {
    expect(splitTax({ totalPaise: 11_800, taxRateBp: 1800, intraState: true })).toEqual({
      taxableValuePaise: 10_000,
      cgstPaise: 900,
      sgstPaise: 900,
      igstPaise: 0,
      totalPaise: 11_800,
    });
  });

  it('gives an odd paisa of tax to SGST', () => {
    // ₹2.00 at 18%: taxable 169.49… → 169; tax 31 → CGST 15, SGST 16.
    expect(splitTax({ totalPaise: 200, taxRateBp: 1800, intraState: true })).toEqual({
      taxableValuePaise: 169,
      cgstPaise: 15,
      sgstPaise: 16,
      igstPaise: 0,
      totalPaise: 200,
    });
  });

  it('charges IGST between states', () => {
    expect(splitTax({ totalPaise: 200, taxRateBp: 1800, intraState: false })).toEqual({
      taxableValuePaise: 169,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 31,
      totalPaise: 200,
    });
  });

  it('rounds the taxable value half up, not half to even', () => {
    // 16 × 10000 / 12800 = 12.5 and 14 × 10000 / 11200 = 12.5.
    expect(splitTax({ totalPaise: 16, taxRateBp: 2800, intraState: false }).taxableValuePaise).toBe(13);
    expect(splitTax({ totalPaise: 14, taxRateBp: 1200, intraState: false }).taxableValuePaise).toBe(13);
    // Just below and above a half.
    expect(splitTax({ totalPaise: 1, taxRateBp: 1800, intraState: false }).taxableValuePaise).toBe(1); // 0.847
    expect(splitTax({ totalPaise: 1, taxRateBp: 10_000, intraState: false }).taxableValuePaise).toBe(1); // 0.5
    expect(splitTax({ totalPaise: 1, taxRateBp: 10_001, intraState: false }).taxableValuePaise).toBe(0); // 0.49998
  });

  it('charges no tax at rate 0', () => {
    expect(splitTax({ totalPaise: 12_345, taxRateBp: 0, intraState: true })).toEqual({
      taxableValuePaise: 12_345,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 12_345,
    });
  });

  it('uses a given taxable value as it is', () => {
    expect(
      splitTax({ totalPaise: 11_800, taxRateBp: 1800, intraState: true, taxableValuePaise: 10_001 }),
    ).toEqual({
      taxableValuePaise: 10_001,
      cgstPaise: 899,
      sgstPaise: 900,
      igstPaise: 0,
      totalPaise: 11_800,
    });
    // The rate is not consulted when the taxable value is given.
    expect(
      splitTax({ totalPaise: 11_800, taxRateBp: 0, intraState: false, taxableValuePaise: 10_000 }).igstPaise,
    ).toBe(1_800);
    expect(
      splitTax({ totalPaise: 11_800, taxRateBp: 1800, intraState: false, taxableValuePaise: 11_800 })
        .igstPaise,
    ).toBe(0);
    // Zero is a value, not a missing one.
    expect(
      splitTax({ totalPaise: 500, taxRateBp: 1800, intraState: false, taxableValuePaise: 0 })
        .taxableValuePaise,
    ).toBe(0);
  });

  it('adds up and rounds right for every total from 1 to 20,000 paise at the usual rates', () => {
    const wrong: unknown[] = [];
    for (const taxRateBp of RATES) {
      for (let totalPaise = 1; totalPaise <= 20_000; totalPaise++) {
        const taxable = expectedTaxable(totalPaise, taxRateBp);
        const tax = totalPaise - taxable;
        const expected = {
          intra: {
            taxableValuePaise: taxable,
            cgstPaise: Math.floor(tax / 2),
            sgstPaise: Math.ceil(tax / 2),
          },
          inter: { taxableValuePaise: taxable, cgstPaise: 0, sgstPaise: 0, igstPaise: tax },
        };
        const intra = splitTax({ totalPaise, taxRateBp, intraState: true });
        const inter = splitTax({ totalPaise, taxRateBp, intraState: false });
        const ok =
          sumOf(intra) === totalPaise &&
          sumOf(inter) === totalPaise &&
          intra.totalPaise === totalPaise &&
          inter.totalPaise === totalPaise &&
          intra.igstPaise === 0 &&
          intra.taxableValuePaise === expected.intra.taxableValuePaise &&
          intra.cgstPaise === expected.intra.cgstPaise &&
          intra.sgstPaise === expected.intra.sgstPaise &&
          inter.taxableValuePaise === expected.inter.taxableValuePaise &&
          inter.cgstPaise === 0 &&
          inter.sgstPaise === 0 &&
          inter.igstPaise === expected.inter.igstPaise;
        if (!ok) wrong.push({ totalPaise, taxRateBp, expected, intra, inter });
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('adds up and rounds right for large totals up to 2,147,483,647 paise', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_147_483_647 }),
        fc.oneof(fc.constantFrom(...RATES), fc.integer({ min: 0, max: 10_000 })),
        fc.boolean(),
        (totalPaise, taxRateBp, intraState) => {
          const split = splitTax({ totalPaise, taxRateBp, intraState });
          expect(split.taxableValuePaise).toBe(expectedTaxable(totalPaise, taxRateBp));
          expect(split.totalPaise).toBe(totalPaise);
          expectWellFormed(split, intraState);
        },
      ),
      { numRuns: 20_000, seed: SEED },
    );
  });

  it('is exact at the largest total', () => {
    for (const taxRateBp of RATES) {
      const split = splitTax({ totalPaise: 2_147_483_647, taxRateBp, intraState: true });
      expect(split.taxableValuePaise).toBe(expectedTaxable(2_147_483_647, taxRateBp));
      expectWellFormed(split, true);
    }
  });
});

/** round-half-up(whole taxable × part / whole total), in BigInt. */
function expectedShareTaxable(whole: TaxSplit, partPaise: number): number {
  const numerator = BigInt(whole.taxableValuePaise) * BigInt(partPaise);
  const denominator = BigInt(whole.totalPaise);
  const quotient = numerator / denominator;
  return Number(2n * (numerator % denominator) >= denominator ? quotient + 1n : quotient);
}

const wholeAndPart = fc
  .tuple(
    fc.integer({ min: 1, max: 2_147_483_647 }),
    fc.constantFrom(...RATES),
    fc.boolean(),
    fc.double({ min: 0, max: 1, noNaN: true }),
  )
  .map(([totalPaise, taxRateBp, intraState, fraction]) => ({
    whole: splitTax({ totalPaise, taxRateBp, intraState }),
    partPaise: Math.max(1, Math.round(totalPaise * fraction)),
    intraState,
  }));

describe('splitShare', () => {
  it('returns the same split for the full amount', () => {
    for (const taxRateBp of RATES) {
      for (const intraState of [true, false]) {
        for (const totalPaise of [1, 199, 200, 11_800, 2_147_483_647]) {
          const whole = splitTax({ totalPaise, taxRateBp, intraState });
          const share = splitShare(whole, totalPaise, intraState);
          expect(share).toEqual(whole);
          expect(share).not.toBe(whole);
        }
      }
    }
    // A given taxable value survives too (a subscription paid in full).
    const agreed = splitTax({
      totalPaise: 11_800,
      taxRateBp: 1800,
      intraState: true,
      taxableValuePaise: 10_001,
    });
    expect(splitShare(agreed, 11_800, true)).toEqual(agreed);
  });

  it('carries the taxable value in proportion, rounded half up', () => {
    const whole = splitTax({ totalPaise: 11_800, taxRateBp: 1800, intraState: true });
    expect(splitShare(whole, 5_900, true)).toEqual({
      taxableValuePaise: 5_000,
      cgstPaise: 450,
      sgstPaise: 450,
      igstPaise: 0,
      totalPaise: 5_900,
    });
    expect(splitShare(whole, 1, true)).toEqual({
      taxableValuePaise: 1,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 1,
    });
    const interState = splitTax({ totalPaise: 11_800, taxRateBp: 1800, intraState: false });
    expect(splitShare(interState, 5_900, false)).toEqual({
      taxableValuePaise: 5_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 900,
      totalPaise: 5_900,
    });
  });

  it('has parts that sum exactly to the amount', () => {
    fc.assert(
      fc.property(wholeAndPart, ({ whole, partPaise, intraState }) => {
        const share = splitShare(whole, partPaise, intraState);
        expect(share.totalPaise).toBe(partPaise);
        expectWellFormed(share, intraState);
      }),
      { numRuns: 10_000, seed: SEED },
    );
  });

  it('loses no precision for totals near 2,147,483,647 paise', () => {
    fc.assert(
      fc.property(wholeAndPart, ({ whole, partPaise, intraState }) => {
        expect(splitShare(whole, partPaise, intraState).taxableValuePaise).toBe(
          expectedShareTaxable(whole, partPaise),
        );
      }),
      { numRuns: 10_000, seed: SEED },
    );
    // Random parts almost never land where doubles go wrong; these do. taxable × part ≈ 2^61, far
    // beyond 2^53, and taxable × part / total lies a hair below a half (…499999999), which
    // doubles round up to the half and so to the next paisa.
    const whole = splitTax({ totalPaise: 2_147_483_647, taxRateBp: 1800, intraState: false });
    expect(whole.taxableValuePaise).toBe(1_819_901_396);
    for (const [partPaise, taxable] of [
      [1_303_829_355, 1_104_940_131],
      [1_764_004_418, 1_494_918_998],
      [536_870_897, 454_975_336],
      [997_045_960, 844_954_203],
    ] as const) {
      expect(splitShare(whole, partPaise, false).taxableValuePaise, String(partPaise)).toBe(taxable);
      expect(expectedShareTaxable(whole, partPaise)).toBe(taxable);
    }
    for (const partPaise of [2_147_483_646, 2_147_483_645, 1_073_741_823, 1_999_999_999, 3]) {
      const share = splitShare(whole, partPaise, false);
      expect(share.taxableValuePaise, String(partPaise)).toBe(expectedShareTaxable(whole, partPaise));
      expect(sumOf(share)).toBe(partPaise);
    }
  });

  it('two credit notes of half each add back to the invoice (a worked example)', () => {
    // ₹2.00 at 18% within a state: taxable 169, CGST 15, SGST 16. Split on its own, each half would
    // be 85 / 7 / 8: together a paisa too much taxable value and a paisa too little CGST.
    const whole = splitTax({ totalPaise: 200, taxRateBp: 1800, intraState: true });
    const none = { taxableValuePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 0 };
    expect(splitShare(whole, 100, true)).toEqual({
      ...none,
      taxableValuePaise: 85,
      cgstPaise: 7,
      sgstPaise: 8,
      totalPaise: 100,
    });
    const first = creditShare(whole, none, 100, true);
    const second = creditShare(whole, first, 100, true);
    expect(addSplits(first, second)).toEqual(whole);
  });

  it('credit notes of any parts add back to the invoice', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 2_147_483_647 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...RATES),
        fc.boolean(),
        (total, cuts, taxRateBp, intraState) => {
          const whole = splitTax({ totalPaise: total, taxRateBp, intraState });
          // Parts of the total at the cuts, the last one what is left.
          const points = [...new Set(cuts.map((c) => Math.floor(c * total)))].filter(
            (p) => p > 0 && p < total,
          );
          points.sort((a, b) => a - b);
          let credited = { taxableValuePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 0 };
          let previous = 0;
          for (const point of [...points, total]) {
            const note = creditShare(whole, credited, point - previous, intraState);
            expect(note.taxableValuePaise + note.cgstPaise + note.sgstPaise + note.igstPaise).toBe(
              note.totalPaise,
            );
            credited = addSplits(credited, note);
            previous = point;
          }
          expect(credited).toEqual(whole);
        },
      ),
      { numRuns: 2_000, seed: SEED },
    );
  });
});

function addSplits(a: TaxSplit, b: TaxSplit): TaxSplit {
  return {
    taxableValuePaise: a.taxableValuePaise + b.taxableValuePaise,
    cgstPaise: a.cgstPaise + b.cgstPaise,
    sgstPaise: a.sgstPaise + b.sgstPaise,
    igstPaise: a.igstPaise + b.igstPaise,
    totalPaise: a.totalPaise + b.totalPaise,
  };
}
