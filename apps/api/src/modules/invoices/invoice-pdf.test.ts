import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { drawable, renderTaxDocumentPdf, type TaxDocument } from './invoice-pdf.js';

const seller: TaxDocument['seller'] = {
  name: 'Interview Credits Technologies Pvt Ltd',
  address: '4th Floor, Prestige Tech Park\nOuter Ring Road\nBengaluru 560103',
  gstin: '29AAGCI1234F1ZK',
  pan: 'AAGCI1234F',
  stateName: 'Karnataka',
  stateCode: '29',
  signatory: 'Priya Raghavan',
};

/** Intra-state (Karnataka to Karnataka), registered buyer: ₹1,000 + 9% CGST + 9% SGST = ₹1,180. */
function intraStateInvoice(): TaxDocument {
  return {
    kind: 'invoice',
    number: 'IC/26-27/000123',
    // 20:15 UTC on 31 May is 01:45 on 1 June in India.
    issuedAt: new Date('2026-05-31T20:15:00Z'),
    originalInvoice: null,
    seller,
    buyer: {
      name: 'Bengaluru Hiring Co',
      address: '12 MG Road\nBengaluru 560001',
      gstin: '29AABCB5678K1Z2',
      stateName: 'Karnataka',
      stateCode: '29',
    },
    placeOfSupply: { stateName: 'Karnataka', stateCode: '29' },
    sac: '998314',
    description: 'AI interview credits',
    quantity: 10,
    unitRatePaise: 10_000,
    taxableValuePaise: 100_000,
    taxRateBp: 1_800,
    cgstPaise: 9_000,
    sgstPaise: 9_000,
    igstPaise: 0,
    totalPaise: 118_000,
    reason: null,
  };
}

/** Karnataka to Maharashtra: ₹1,23,456.78 + 18% IGST. */
function interStateInvoice(): TaxDocument {
  return {
    ...intraStateInvoice(),
    number: 'IC/26-27/000124',
    buyer: {
      name: 'Mumbai Talent LLP',
      address: 'Unit 5, BKC\nMumbai 400051',
      gstin: '27AAKFM4321L1Z9',
      stateName: 'Maharashtra',
      stateCode: '27',
    },
    placeOfSupply: { stateName: 'Maharashtra', stateCode: '27' },
    quantity: 1_000,
    unitRatePaise: 12_346,
    taxableValuePaise: 12_345_678,
    cgstPaise: 0,
    sgstPaise: 0,
    igstPaise: 2_222_222,
    totalPaise: 14_567_900,
  };
}

async function textOf(pdf: Buffer): Promise<string> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  try {
    const { text } = await extractText(proxy, { mergePages: true });
    return text.replace(/\s+/g, ' ');
  } finally {
    await proxy.destroy();
  }
}

async function render(doc: TaxDocument): Promise<{ pdf: Buffer; text: string }> {
  const pdf = await renderTaxDocumentPdf(doc);
  return { pdf, text: await textOf(pdf) };
}

function expectAll(text: string, expected: string[]) {
  for (const particular of expected) expect(text).toContain(particular);
}

/** What every document carries, whatever its kind and supply. */
function commonParticulars(doc: TaxDocument): string[] {
  return [
    seller.name,
    '4th Floor, Prestige Tech Park',
    'Bengaluru 560103',
    'GSTIN: 29AAGCI1234F1ZK',
    'PAN: AAGCI1234F',
    'State: Karnataka (29)',
    doc.buyer.name,
    `State: ${doc.buyer.stateName} (${doc.buyer.stateCode})`,
    `Place of Supply: ${doc.placeOfSupply.stateName} (${doc.placeOfSupply.stateCode})`,
    'Description',
    'AI interview credits',
    'SAC',
    '998314',
    'Quantity',
    'Rate (INR)',
    'Taxable Value (INR)',
    'Tax payable on reverse charge: No',
    `For ${seller.name}`,
    'Authorised Signatory: Priya Raghavan',
  ];
}

describe('renderTaxDocumentPdf', () => {
  it('prints every particular of an intra-state tax invoice to a registered buyer', async () => {
    const doc = intraStateInvoice();
    const { pdf, text } = await render(doc);

    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expectAll(text, [
      ...commonParticulars(doc),
      'Tax Invoice',
      'Invoice No.: IC/26-27/000123',
      'Invoice Date: 01/06/2026',
      'Bengaluru Hiring Co',
      '12 MG Road',
      'GSTIN: 29AABCB5678K1Z2',
      '100.00', // rate per credit
      '1,000.00', // taxable value
      'CGST @ 9%',
      'SGST @ 9%',
      '90.00',
      'Total Invoice Value',
      'INR 1,180.00',
      'Amount in words: Rupees One Thousand One Hundred Eighty Only',
    ]);
    expect(text).not.toContain('IGST');
    expect(text).not.toContain('Unregistered');
    expect(text).not.toContain('Credit Note');
  });

  it('charges IGST on an inter-state invoice and groups figures the Indian way', async () => {
    const doc = interStateInvoice();
    const { text } = await render(doc);

    expectAll(text, [
      ...commonParticulars(doc),
      'Invoice No.: IC/26-27/000124',
      'GSTIN: 27AAKFM4321L1Z9',
      'Place of Supply: Maharashtra (27)',
      '1,000', // quantity
      '123.46',
      '1,23,456.78',
      'IGST @ 18%',
      '22,222.22',
      'INR 1,45,679.00',
      'Amount in words: Rupees One Lakh Forty-Five Thousand Six Hundred Seventy-Nine Only',
    ]);
    expect(text).not.toContain('CGST');
    expect(text).not.toContain('SGST');
  });

  it('says "Unregistered" in place of the GSTIN of an unregistered buyer', async () => {
    const doc = interStateInvoice();
    doc.buyer = { ...doc.buyer, name: 'Asha Kulkarni', gstin: null };
    const { text } = await render(doc);

    expectAll(text, [...commonParticulars(doc), 'Asha Kulkarni', 'GSTIN: Unregistered', 'IGST @ 18%']);
    expect(text).not.toContain('27AAKFM4321L1Z9');
  });

  it('prints a credit note with the invoice it adjusts and the reason', async () => {
    const doc: TaxDocument = {
      ...intraStateInvoice(),
      kind: 'credit_note',
      number: 'CN/26-27/000004',
      issuedAt: new Date('2026-06-15T05:00:00Z'),
      originalInvoice: { number: 'IC/26-27/000123', issuedAt: new Date('2026-05-31T20:15:00Z') },
      reason: 'Refund of ₹1,180.00',
    };
    const { text } = await render(doc);

    expectAll(text, [
      ...commonParticulars(doc),
      'Credit Note',
      'Credit Note No.: CN/26-27/000004',
      'Credit Note Date: 15/06/2026',
      'Against Invoice No.: IC/26-27/000123 dated 01/06/2026',
      'Reason: Refund of INR 1,180.00',
      'CGST @ 9%',
      'SGST @ 9%',
      'Total Credit Value',
      'INR 1,180.00',
      'Amount in words: Rupees One Thousand One Hundred Eighty Only',
    ]);
    expect(text).not.toContain('Tax Invoice');
    expect(text).not.toContain('Invoice Date');
  });

  it('prints half of a fractional rate for CGST and SGST, and paise in words', async () => {
    const doc: TaxDocument = {
      ...intraStateInvoice(),
      unitRatePaise: 10_005,
      taxableValuePaise: 100_050,
      taxRateBp: 1_250,
      cgstPaise: 6_253,
      sgstPaise: 6_254,
      totalPaise: 112_557,
    };
    const { text } = await render(doc);

    expectAll(text, [
      '1,000.50',
      'CGST @ 6.25%',
      'SGST @ 6.25%',
      '62.53',
      '62.54',
      'INR 1,125.57',
      'Amount in words: Rupees One Thousand One Hundred Twenty-Five and Fifty-Seven Paise Only',
    ]);
  });

  it('keeps the Latin part of free text the standard fonts cannot fully draw', async () => {
    const doc = intraStateInvoice();
    doc.buyer = { ...doc.buyer, name: 'Acme ₹ टेस्ट Pvt', address: 'Plot 7, Bhāratī Nagar 😀\nPune' };
    const { text } = await render(doc);

    expectAll(text, ['Acme Pvt', 'Plot 7, Bharati Nagar', 'Pune']);
  });

  it('renders the same document to the same bytes', async () => {
    const first = await renderTaxDocumentPdf(interStateInvoice());
    const second = await renderTaxDocumentPdf(interStateInvoice());
    expect(first.equals(second)).toBe(true);
  });

  it.each<[string, Partial<TaxDocument>]>([
    ['figures that do not add up', { totalPaise: 118_001 }],
    ['both IGST and CGST + SGST', { igstPaise: 1, totalPaise: 118_001 }],
    ['a fraction of a paisa', { cgstPaise: 9_000.5, sgstPaise: 8_999.5 }],
    ['a credit note without its invoice', { kind: 'credit_note', originalInvoice: null }],
    ['an issue date that is not a date', { issuedAt: new Date('not a date') }],
  ])('refuses %s', async (_case, change) => {
    await expect(renderTaxDocumentPdf({ ...intraStateInvoice(), ...change })).rejects.toThrow(RangeError);
  });
});

describe('drawable', () => {
  it.each([
    ['Acme Pvt Ltd', 'Acme Pvt Ltd'],
    ['Café Zürich', 'Café Zürich'], // Latin-1 stays
    ['Šimon – “quotes” €', 'Šimon – “quotes” €'], // WinAnsi beyond Latin-1 stays
    ['Bhāratī Ōm', 'Bharati Om'],
    ['Refund of ₹1,180.00', 'Refund of INR 1,180.00'],
    ['Acme ₹ टेस्ट Pvt', 'Acme Pvt'],
    ['tab\there\u0000 null', 'tab here null'],
    ['ﬁnance', 'finance'],
  ])('%s → %s', (input, output) => {
    expect(drawable(input)).toBe(output);
  });
});
