import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { documentNumber, DOCUMENT_SEQUENCE_MAX } from '../gst.js';
import { messages } from '../messages.js';
import {
  DEFAULT_CREDIT_NOTE_PREFIX,
  DEFAULT_INVOICE_PREFIX,
  DEFAULT_SAC,
  gstinMatchesState,
  gstinSchema,
  invoiceListQuerySchema,
  optionalGstinSchema,
  optionalStateCodeSchema,
  refundBodySchema,
  sellerTaxProfileBodySchema,
  stateCodeSchema,
} from './invoices.js';
import { companyDetailsBodySchema } from './workspace.js';

/** Karnataka (29); the PAN is characters 3–12 of the GSTIN. */
const GSTIN_KA = '29AAGCB7383J1Z4';
const PAN_KA = 'AAGCB7383J';
/** Maharashtra (27): GSTN's own example. */
const GSTIN_MH = '27AAPFU0939F1ZV';

/** Each issue as [path, message], to compare whole answers. */
function issuesOf(schema: z.ZodType, input: unknown): [PropertyKey[], string][] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((i) => [i.path, i.message]);
}

const profileBody = (overrides: Record<string, unknown> = {}) => ({
  legalName: 'Acme Interviews Private Limited',
  address: '12 MG Road, Bengaluru 560001',
  stateCode: '29',
  gstin: GSTIN_KA,
  pan: PAN_KA,
  signatory: 'Asha Rao',
  ...overrides,
});

describe('sellerTaxProfileBodySchema', () => {
  it('parses a valid body, filling in the SAC and the prefixes', () => {
    expect(sellerTaxProfileBodySchema.parse(profileBody())).toEqual({
      legalName: 'Acme Interviews Private Limited',
      address: '12 MG Road, Bengaluru 560001',
      stateCode: '29',
      gstin: GSTIN_KA,
      pan: PAN_KA,
      sac: '998314',
      invoicePrefix: 'IC',
      creditNotePrefix: 'CN',
      signatory: 'Asha Rao',
    });
    expect([DEFAULT_SAC, DEFAULT_INVOICE_PREFIX, DEFAULT_CREDIT_NOTE_PREFIX]).toEqual(['998314', 'IC', 'CN']);
  });

  it('keeps the SAC and prefixes given, trimmed', () => {
    const parsed = sellerTaxProfileBodySchema.parse(
      profileBody({ sac: ' 998311 ', invoicePrefix: ' INV ', creditNotePrefix: 'cr1' }),
    );
    expect(parsed).toMatchObject({ sac: '998311', invoicePrefix: 'INV', creditNotePrefix: 'cr1' });
  });

  it('upper-cases and trims a lower-case GSTIN and PAN', () => {
    const parsed = sellerTaxProfileBodySchema.parse(
      profileBody({ gstin: ` ${GSTIN_KA.toLowerCase()} `, pan: ` ${PAN_KA.toLowerCase()}` }),
    );
    expect(parsed.gstin).toBe(GSTIN_KA);
    expect(parsed.pan).toBe(PAN_KA);
  });

  it('refuses a GSTIN of another state than the one chosen', () => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ stateCode: '27' }))).toEqual([
      [['gstin'], messages.tax.gstinStateMismatch],
    ]);
  });

  it('refuses a PAN that is not characters 3 to 12 of the GSTIN', () => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ pan: 'AAGCB7383K' }))).toEqual([
      [['pan'], messages.tax.panGstinMismatch],
    ]);
    // The PAN of the other GSTIN: a well-formed PAN, but not this one's.
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ pan: 'AAPFU0939F' }))).toEqual([
      [['pan'], messages.tax.panGstinMismatch],
    ]);
  });

  it('refuses a PAN of the wrong shape', () => {
    for (const pan of ['AAGCB7383', 'AAGCB7383JJ', '1AGCB7383J', '', undefined]) {
      const issues = issuesOf(sellerTaxProfileBodySchema, profileBody({ pan }));
      expect(issues[0], String(pan)).toEqual([['pan'], messages.tax.panInvalid]);
    }
  });

  it('refuses the same prefix for invoices and credit notes, whatever the case', () => {
    for (const [invoicePrefix, creditNotePrefix] of [
      ['IC', 'ic'],
      ['cn', 'CN'],
      ['A-1', 'a-1'],
    ]) {
      expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ invoicePrefix, creditNotePrefix }))).toEqual([
        [['creditNotePrefix'], messages.tax.prefixesEqual],
      ]);
    }
    // A credit-note prefix equal to the invoice default is caught when the invoice prefix is left out.
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ creditNotePrefix: 'ic' }))).toEqual([
      [['creditNotePrefix'], messages.tax.prefixesEqual],
    ]);
  });

  it.each(['ABCDE', 'A/B', '', '   ', 'A B', 'AB_C', 'ÄB'])('refuses the prefix %j', (prefix) => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ invoicePrefix: prefix }))).toEqual([
      [['invoicePrefix'], messages.tax.prefixInvalid],
    ]);
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ creditNotePrefix: prefix }))).toEqual([
      [['creditNotePrefix'], messages.tax.prefixInvalid],
    ]);
  });

  it('accepts only prefixes whose document numbers fit the 16 characters GST allows', () => {
    expect(sellerTaxProfileBodySchema.safeParse(profileBody({ invoicePrefix: 'ABC' })).success).toBe(true);
    for (const invoicePrefix of ['A', 'AB', 'ABC', 'ABCD', 'AB-C']) {
      const parsed = sellerTaxProfileBodySchema.safeParse(profileBody({ invoicePrefix }));
      if (!parsed.success) continue;
      const number = documentNumber(parsed.data.invoicePrefix, '26-27', DOCUMENT_SEQUENCE_MAX);
      expect(number, invoicePrefix).toMatch(/^[A-Za-z0-9/-]{1,16}$/);
    }
  });

  it.each(['123456', '99831', '9983140', '98 8314', 'SAC998'])('refuses the SAC %j', (sac) => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ sac }))).toEqual([
      [['sac'], messages.tax.sacInvalid],
    ]);
  });

  it('refuses a mistyped GSTIN with the check message', () => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ gstin: '29AAGCB7383J1Z5' }))).toEqual([
      [['gstin'], messages.tax.gstinCheck],
    ]);
    // Two adjacent characters swapped.
    expect(
      issuesOf(sellerTaxProfileBodySchema, profileBody({ gstin: '29AAGCB7833J1Z4', pan: 'AAGCB7833J' })),
    ).toEqual([[['gstin'], messages.tax.gstinCheck]]);
  });

  it('refuses a GSTIN of the wrong shape or an unknown state with their messages', () => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ gstin: '29AAGCB7383J1Z' }))[0]).toEqual([
      ['gstin'],
      messages.tax.gstinFormat,
    ]);
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ gstin: '' }))[0]).toEqual([
      ['gstin'],
      messages.tax.gstinFormat,
    ]);
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ gstin: undefined }))).toEqual([
      [['gstin'], messages.tax.gstinFormat],
    ]);
    // 25 is retired; 25AAGCB7383J1Z is completed with its correct check character C.
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ gstin: '25AAGCB7383J1ZC' }))[0]).toEqual([
      ['gstin'],
      messages.tax.gstinState,
    ]);
  });

  it('refuses a state that is not a GST state code', () => {
    for (const stateCode of ['25', '99', '', 29, undefined]) {
      expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ stateCode })), String(stateCode)).toEqual([
        [['stateCode'], messages.tax.stateRequired],
      ]);
    }
  });

  it('requires the legal name, address and signatory', () => {
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ legalName: '  ' }))).toEqual([
      [['legalName'], messages.tax.legalNameRequired],
    ]);
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ address: undefined }))).toEqual([
      [['address'], messages.tax.addressRequired],
    ]);
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ signatory: '' }))).toEqual([
      [['signatory'], messages.tax.signatoryRequired],
    ]);
    expect(issuesOf(sellerTaxProfileBodySchema, profileBody({ signatory: 'x'.repeat(101) }))).toEqual([
      [['signatory'], messages.company.tooLong],
    ]);
  });

  it('answers every problem at once', () => {
    expect(
      issuesOf(
        sellerTaxProfileBodySchema,
        profileBody({ stateCode: '27', pan: 'AAGCB7383K', invoicePrefix: 'cn', creditNotePrefix: 'CN' }),
      ),
    ).toEqual([
      [['gstin'], messages.tax.gstinStateMismatch],
      [['pan'], messages.tax.panGstinMismatch],
      [['creditNotePrefix'], messages.tax.prefixesEqual],
    ]);
  });
});

describe('gstinSchema', () => {
  it('accepts the example GSTIN that the format message shows', () => {
    const example = /\b\d{2}[0-9A-Z]{13}\b/.exec(messages.tax.gstinFormat)?.[0];
    expect(example).toBeDefined();
    expect(issuesOf(gstinSchema, example)).toEqual([]);
  });

  it('accepts and normalizes a valid GSTIN', () => {
    expect(gstinSchema.parse(` ${GSTIN_MH.toLowerCase()} `)).toBe(GSTIN_MH);
  });
});

describe('optionalGstinSchema', () => {
  it.each([[''], ['   '], [null], [undefined]])('turns %j into null', (input) => {
    expect(optionalGstinSchema.parse(input)).toBeNull();
  });

  it('upper-cases and trims a GSTIN', () => {
    expect(optionalGstinSchema.parse(` ${GSTIN_MH.toLowerCase()}`)).toBe(GSTIN_MH);
  });

  it.each([
    ['27AAPFU0939F1ZW', messages.tax.gstinCheck],
    ['27AAPFU0939F1Z', messages.tax.gstinFormat],
    ['00AAPFU0939F1ZB', messages.tax.gstinState],
    [15, messages.tax.gstinFormat],
  ])('refuses %j with its message', (input, message) => {
    expect(issuesOf(optionalGstinSchema, input)).toEqual([[[], message]]);
  });
});

describe('state code schemas', () => {
  it('accepts a GST state code', () => {
    expect(stateCodeSchema.parse('29')).toBe('29');
    expect(optionalStateCodeSchema.parse('38')).toBe('38');
    expect(optionalStateCodeSchema.parse('01')).toBe('01');
  });

  it.each([[''], [null], [undefined]])('turns %j into null when optional', (input) => {
    expect(optionalStateCodeSchema.parse(input)).toBeNull();
  });

  it.each([['25'], ['28'], ['00'], ['1'], ['99'], [29], [' 29']])('refuses %j', (input) => {
    expect(issuesOf(optionalStateCodeSchema, input)).toEqual([[[], messages.tax.stateRequired]]);
    expect(issuesOf(stateCodeSchema, input)).toEqual([[[], messages.tax.stateRequired]]);
  });
});

describe('gstinMatchesState', () => {
  it('compares the first two digits only when both are given', () => {
    expect(gstinMatchesState(GSTIN_KA, '29')).toBe(true);
    expect(gstinMatchesState(GSTIN_KA, '27')).toBe(false);
    expect(gstinMatchesState(null, '27')).toBe(true);
    expect(gstinMatchesState(GSTIN_KA, null)).toBe(true);
    expect(gstinMatchesState(null, null)).toBe(true);
  });
});

describe('invoiceListQuerySchema', () => {
  it('reads query strings as numbers', () => {
    expect(
      invoiceListQuerySchema.parse({
        page: '2',
        pageSize: '10',
        financialYear: '2026',
        month: '4',
        search: ' IC/ ',
      }),
    ).toEqual({ page: 2, pageSize: 10, financialYear: 2026, month: 4, search: 'IC/' });
  });

  it('fills in the page and leaves the filters out', () => {
    const parsed = invoiceListQuerySchema.parse({});
    expect(parsed.page).toBe(1);
    expect(parsed.pageSize).toBeGreaterThan(0);
    expect(parsed).not.toHaveProperty('financialYear');
    expect(parsed).not.toHaveProperty('month');
  });

  it('refuses a month without a financial year, on the month', () => {
    expect(issuesOf(invoiceListQuerySchema, { month: '4' })).toEqual([
      [['month'], 'Choose a financial year to filter by month.'],
    ]);
    expect(invoiceListQuerySchema.safeParse({ financialYear: '2026' }).success).toBe(true);
  });

  it.each([
    ['month', '0'],
    ['month', '13'],
    ['month', '4.5'],
    ['financialYear', '2016'],
    ['financialYear', '2101'],
    ['financialYear', 'abc'],
    ['organizationId', 'not-a-uuid'],
    ['page', '0'],
  ])('refuses %s %j', (key, value) => {
    const issues = issuesOf(invoiceListQuerySchema, { financialYear: '2026', [key]: value });
    expect(issues.map(([path]) => path)).toEqual([[key]]);
  });

  it('accepts an organization id and the limits of the ranges', () => {
    const organizationId = '3f2b8c4e-9a1d-4e6f-8b7a-1c2d3e4f5a6b';
    expect(
      invoiceListQuerySchema.parse({ financialYear: '2017', month: '12', organizationId }),
    ).toMatchObject({
      financialYear: 2017,
      month: 12,
      organizationId,
    });
    expect(invoiceListQuerySchema.parse({ financialYear: '2100', month: '1' })).toMatchObject({
      financialYear: 2100,
      month: 1,
    });
  });
});

describe('refundBodySchema', () => {
  it('accepts a whole number of paise and trims the reason', () => {
    expect(refundBodySchema.parse({ amountPaise: 1, reason: '  Duplicate payment ' })).toEqual({
      amountPaise: 1,
      reason: 'Duplicate payment',
    });
    expect(refundBodySchema.parse({ amountPaise: 2_147_483_647, reason: 'x' }).amountPaise).toBe(
      2_147_483_647,
    );
  });

  it.each([
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ['a string', '100'],
    ['null', null],
    ['nothing', undefined],
    ['NaN', Number.NaN],
  ])('refuses the amount %s', (_label, amountPaise) => {
    expect(issuesOf(refundBodySchema, { amountPaise, reason: 'Duplicate' })).toEqual([
      [['amountPaise'], messages.refunds.amountRequired],
    ]);
  });

  it('refuses an amount beyond a 32-bit integer', () => {
    expect(issuesOf(refundBodySchema, { amountPaise: 2_147_483_648, reason: 'Duplicate' })).toEqual([
      [['amountPaise'], messages.refunds.amountTooLarge],
    ]);
  });

  it.each([[''], ['   '], [undefined], [null]])('requires a reason, refusing %j', (reason) => {
    expect(issuesOf(refundBodySchema, { amountPaise: 100, reason })).toEqual([
      [['reason'], messages.refunds.reasonRequired],
    ]);
  });

  it('refuses a reason longer than 200 characters', () => {
    expect(refundBodySchema.safeParse({ amountPaise: 100, reason: 'x'.repeat(200) }).success).toBe(true);
    expect(issuesOf(refundBodySchema, { amountPaise: 100, reason: 'x'.repeat(201) })).toEqual([
      [['reason'], messages.company.tooLong],
    ]);
  });
});

describe("companyDetailsBodySchema's GST particulars", () => {
  const companyBody = (overrides: Record<string, unknown> = {}) => ({
    organizationId: '3f2b8c4e-9a1d-4e6f-8b7a-1c2d3e4f5a6b',
    name: 'Buyer Analytics Pvt Ltd',
    email: 'accounts@buyer.example',
    address: '4 Residency Road',
    country: 'India',
    state: 'Karnataka',
    city: 'Bengaluru',
    pincode: '560025',
    industryType: 'Software',
    foundedIn: 2010,
    websiteUrl: 'https://buyer.example',
    ...overrides,
  });

  it('accepts a company with neither a state code nor a GSTIN, as nulls', () => {
    for (const empty of ['', null, undefined]) {
      const parsed = companyDetailsBodySchema.parse(companyBody({ gstStateCode: empty, gstin: empty }));
      expect(parsed.gstStateCode, String(empty)).toBeNull();
      expect(parsed.gstin, String(empty)).toBeNull();
    }
  });

  it('accepts a GSTIN of the state chosen, upper-cased', () => {
    const parsed = companyDetailsBodySchema.parse(
      companyBody({ gstStateCode: '29', gstin: GSTIN_KA.toLowerCase() }),
    );
    expect(parsed.gstStateCode).toBe('29');
    expect(parsed.gstin).toBe(GSTIN_KA);
  });

  it('accepts a state code without a GSTIN (an unregistered buyer)', () => {
    const parsed = companyDetailsBodySchema.parse(companyBody({ gstStateCode: '27', gstin: '' }));
    expect(parsed.gstStateCode).toBe('27');
    expect(parsed.gstin).toBeNull();
  });

  it("refuses a GSTIN whose first two digits are not the chosen state's code", () => {
    expect(issuesOf(companyDetailsBodySchema, companyBody({ gstStateCode: '29', gstin: GSTIN_MH }))).toEqual([
      [['gstin'], messages.tax.gstinStateMismatch],
    ]);
  });

  it('refuses a mistyped GSTIN and an unknown state code with their messages', () => {
    expect(
      issuesOf(companyDetailsBodySchema, companyBody({ gstStateCode: '27', gstin: '27AAPFU0939F1ZW' })),
    ).toEqual([[['gstin'], messages.tax.gstinCheck]]);
    expect(issuesOf(companyDetailsBodySchema, companyBody({ gstStateCode: '28', gstin: '' }))).toEqual([
      [['gstStateCode'], messages.tax.stateRequired],
    ]);
  });
});
