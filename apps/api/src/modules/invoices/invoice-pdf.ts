import PDFDocument from 'pdfkit';
import { formatCount, istWallClock, rupeesInWords } from '@portal/shared';

/**
 * The PDF of a GST tax invoice or credit note, with every particular that Rule 46 (invoice) and
 * Rule 53 (credit note) of the CGST Rules, 2017 ask for, as text that can be searched and copied.
 *
 * It uses pdfkit's built-in Helvetica, so no font file ships with the API. That font covers only
 * WinAnsi (Latin-1 and a few more characters). It has no "₹", so amounts say "INR", and free text is
 * cut down to what the font can draw (`drawable`).
 */

export interface TaxDocumentParty {
  name: string;
  /** May be several lines, separated by \n. */
  address: string;
  /** null: an unregistered buyer. */
  gstin: string | null;
  stateName: string;
  /** Two digits, e.g. "29". */
  stateCode: string;
}

export interface TaxDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** Printed as the calendar date in India (dd/mm/yyyy). */
  issuedAt: Date;
  /** For a credit note: the invoice it adjusts. */
  originalInvoice: { number: string; issuedAt: Date } | null;
  seller: TaxDocumentParty & { gstin: string; pan: string; signatory: string };
  buyer: TaxDocumentParty;
  placeOfSupply: { stateName: string; stateCode: string };
  sac: string;
  description: string;
  quantity: number;
  unitRatePaise: number;
  taxableValuePaise: number;
  taxRateBp: number;
  /** Intra-state: cgst + sgst (each at half the rate); inter-state: igst. The others are 0. */
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
  /** Credit note: why it was issued. */
  reason: string | null;
}

const LABELS = {
  invoice: {
    title: 'Tax Invoice',
    number: 'Invoice No.',
    date: 'Invoice Date',
    total: 'Total Invoice Value',
    noun: 'invoice',
  },
  credit_note: {
    title: 'Credit Note',
    number: 'Credit Note No.',
    date: 'Credit Note Date',
    total: 'Total Credit Value',
    noun: 'credit note',
  },
} as const;
type Labels = (typeof LABELS)[TaxDocument['kind']];

// A4 in points.
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 40;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const GAP = 16;
const HALF_WIDTH = (CONTENT_WIDTH - GAP) / 2;
const PADDING = 8;

const INK = '#1a1a1a';
const MUTED = '#5c6470';
const LINE = '#b8bec6';
const SHADE = '#eef1f5';

export async function renderTaxDocumentPdf(doc: TaxDocument): Promise<Buffer> {
  checkFigures(doc);
  const labels = LABELS[doc.kind];
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: 'en-IN',
    displayTitle: true,
    info: {
      Title: drawable(`${labels.title} ${doc.number}`),
      Author: drawable(doc.seller.name),
      Creator: 'Interview Credits Portal',
      // pdfkit would stamp the current time and derive the file ID from it; the issue date keeps the
      // bytes of a document the same however often it is rendered.
      CreationDate: doc.issuedAt,
      ModDate: doc.issuedAt,
    },
  });
  const bytes = collect(pdf);

  let y = drawHeader(pdf, doc, labels, MARGIN);
  y = drawParties(pdf, doc, y + 14);
  y = drawLineTable(pdf, doc, y + 16);
  y = drawTotals(pdf, doc, labels, y + 10);
  y = drawAmountInWords(pdf, doc, y + 12);
  drawSignature(pdf, doc, labels, y + 20);
  drawFooter(pdf, labels);

  pdf.end();
  return bytes;
}

function collect(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    pdf.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}

/** IGST when the figures carry it; else CGST + SGST, or, with no tax at all, as the states say. */
function isInterState(doc: TaxDocument): boolean {
  if (doc.igstPaise > 0) return true;
  if (doc.cgstPaise + doc.sgstPaise > 0) return false;
  return doc.seller.stateCode !== doc.placeOfSupply.stateCode;
}

/** A tax document with figures that do not add up must not be issued, so none is drawn. */
function checkFigures(doc: TaxDocument): void {
  const amounts = [doc.unitRatePaise, doc.taxableValuePaise, doc.cgstPaise, doc.sgstPaise, doc.igstPaise];
  if (![...amounts, doc.totalPaise, doc.taxRateBp].every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new RangeError('Amounts and the tax rate must be whole, non-negative numbers');
  }
  if (doc.taxableValuePaise + doc.cgstPaise + doc.sgstPaise + doc.igstPaise !== doc.totalPaise) {
    throw new RangeError('The taxable value and taxes do not add up to the total');
  }
  if (doc.igstPaise > 0 && doc.cgstPaise + doc.sgstPaise > 0) {
    throw new RangeError('A supply is charged either IGST or CGST and SGST, not both');
  }
  if (Number.isNaN(doc.issuedAt.getTime())) throw new RangeError('The issue date is not a date');
  if (doc.kind === 'credit_note' && !doc.originalInvoice) {
    throw new RangeError('A credit note names the invoice it adjusts');
  }
}

/** Code points above Latin-1 that WinAnsiEncoding has (pdfkit's WIN_ANSI_MAP). */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
}

/**
 * Text as the standard fonts can draw it; pdfkit would write any other character as bytes the font
 * misreads. "₹" before a figure becomes "INR ", a letter outside Latin-1 loses its accent (ā → a),
 * and what is left (Devanagari, emoji, control characters) is dropped.
 */
export function drawable(text: string): string {
  let kept = '';
  for (const char of text
    .replace(/₹\s*(?=\d)/g, 'INR ')
    .replace(/\s+/g, ' ')
    .normalize('NFC')) {
    if (isWinAnsi(char)) kept += char;
    else for (const part of char.normalize('NFKD')) if (isWinAnsi(part)) kept += part;
  }
  return kept.replace(/ {2,}/g, ' ').trim();
}

function addressLines(address: string): string[] {
  return address
    .split(/\r?\n/)
    .map(drawable)
    .filter((line) => line !== '');
}

/** dd/mm/yyyy of the calendar day in India (a fixed UTC+05:30), whatever the server's time zone. */
function indianDate(moment: Date): string {
  const wall = istWallClock(moment);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(wall.getUTCDate())}/${two(wall.getUTCMonth() + 1)}/${wall.getUTCFullYear()}`;
}

/** 12345678 paise → "1,23,456.78": Indian digit grouping, two decimals, from integers only. */
function figures(paise: number): string {
  const rupees = String(Math.floor(paise / 100));
  const grouped =
    rupees.length <= 3
      ? rupees
      : `${rupees.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${rupees.slice(-3)}`;
  return `${grouped}.${String(paise % 100).padStart(2, '0')}`;
}

/** Thousandths of a percent as text: 9000 → "9%", 6250 → "6.25%", 4505 → "4.505%". */
function percent(milliPercent: number): string {
  const fraction = String(milliPercent % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${Math.floor(milliPercent / 1000)}${fraction ? `.${fraction}` : ''}%`;
}

interface TextStyle {
  width: number;
  bold?: boolean;
  size?: number;
  color?: string;
  align?: 'left' | 'right' | 'center';
}

/** Draws text wrapped to `width` with its top at y; returns the y below it. */
function write(pdf: PDFKit.PDFDocument, text: string, x: number, y: number, style: TextStyle): number {
  pdf
    .font(style.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(style.size ?? 9)
    .fillColor(style.color ?? INK)
    .text(drawable(text), x, y, { width: style.width, align: style.align ?? 'left', lineGap: 1.5 });
  return pdf.y;
}

function hr(pdf: PDFKit.PDFDocument, y: number, x = MARGIN, width = CONTENT_WIDTH): void {
  pdf
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.75)
    .strokeColor(LINE)
    .stroke();
}

function drawHeader(pdf: PDFKit.PDFDocument, doc: TaxDocument, labels: Labels, top: number): number {
  const seller = doc.seller;
  const width = HALF_WIDTH;
  let left = write(pdf, seller.name, MARGIN, top, { width, bold: true, size: 15 }) + 2;
  for (const line of addressLines(seller.address))
    left = write(pdf, line, MARGIN, left, { width, color: MUTED });
  left = write(pdf, `GSTIN: ${seller.gstin}`, MARGIN, left + 4, { width });
  left = write(pdf, `PAN: ${seller.pan}`, MARGIN, left, { width });
  left = write(pdf, `State: ${seller.stateName} (${seller.stateCode})`, MARGIN, left, { width });

  const x = MARGIN + HALF_WIDTH + GAP;
  const right = { width, align: 'right' } as const;
  let y = write(pdf, labels.title, x, top - 2, { ...right, bold: true, size: 20 });
  // Rule 48: the copy sent to the recipient is marked as the original.
  y = write(pdf, 'ORIGINAL FOR RECIPIENT', x, y, { ...right, size: 7, color: MUTED }) + 8;
  y = write(pdf, `${labels.number}: ${doc.number}`, x, y, { ...right, bold: true, size: 10 }) + 1;
  y = write(pdf, `${labels.date}: ${indianDate(doc.issuedAt)}`, x, y, { ...right, size: 10 });
  if (doc.originalInvoice) {
    const { number, issuedAt } = doc.originalInvoice;
    y = write(pdf, `Against Invoice No.: ${number} dated ${indianDate(issuedAt)}`, x, y + 1, right);
  }

  const bottom = Math.max(left, y) + 10;
  hr(pdf, bottom);
  return bottom;
}

/** A titled, outlined box; `fill` draws its lines from `y` and returns the y below them. */
function box(
  pdf: PDFKit.PDFDocument,
  title: string,
  x: number,
  top: number,
  fill: (x: number, y: number, width: number) => number,
): number {
  const inner = HALF_WIDTH - 2 * PADDING;
  const y = write(pdf, title.toUpperCase(), x + PADDING, top + PADDING, {
    width: inner,
    bold: true,
    size: 7.5,
    color: MUTED,
  });
  return fill(x + PADDING, y + 3, inner) + PADDING - 2;
}

function drawParties(pdf: PDFKit.PDFDocument, doc: TaxDocument, top: number): number {
  const buyer = doc.buyer;
  const leftBottom = box(pdf, 'Bill to (recipient)', MARGIN, top, (x, y, width) => {
    y = write(pdf, buyer.name, x, y, { width, bold: true, size: 10.5 }) + 1;
    for (const line of addressLines(buyer.address)) y = write(pdf, line, x, y, { width, color: MUTED });
    y = write(pdf, `GSTIN: ${buyer.gstin ?? 'Unregistered'}`, x, y + 4, { width });
    return write(pdf, `State: ${buyer.stateName} (${buyer.stateCode})`, x, y, { width });
  });

  const rightX = MARGIN + HALF_WIDTH + GAP;
  const rightBottom = box(pdf, 'Supply details', rightX, top, (x, y, width) => {
    const place = doc.placeOfSupply;
    y = write(pdf, `Place of Supply: ${place.stateName} (${place.stateCode})`, x, y, { width });
    y = write(pdf, 'Tax payable on reverse charge: No', x, y + 2, { width });
    if (doc.reason) y = write(pdf, `Reason: ${doc.reason}`, x, y + 2, { width });
    return y;
  });

  const bottom = Math.max(leftBottom, rightBottom);
  pdf.lineWidth(0.75).strokeColor(LINE);
  pdf.rect(MARGIN, top, HALF_WIDTH, bottom - top).stroke();
  pdf.rect(rightX, top, HALF_WIDTH, bottom - top).stroke();
  return bottom;
}

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
}

const FIXED_COLUMNS = 22 + 58 + 62 + 80 + 112;
const COLUMNS: Column[] = [
  { title: '#', width: 22, align: 'left' },
  { title: 'Description', width: CONTENT_WIDTH - FIXED_COLUMNS, align: 'left' },
  { title: 'SAC', width: 58, align: 'left' },
  { title: 'Quantity', width: 62, align: 'right' },
  { title: 'Rate (INR)', width: 80, align: 'right' },
  { title: 'Taxable Value (INR)', width: 112, align: 'right' },
];
const CELL_PADDING = 6;

/** One row of cells; returns its bottom. */
function drawRow(
  pdf: PDFKit.PDFDocument,
  cells: string[],
  top: number,
  style: Omit<TextStyle, 'width'>,
): number {
  let x = MARGIN;
  let bottom = top;
  COLUMNS.forEach((column, i) => {
    const width = column.width - 2 * CELL_PADDING;
    const end = write(pdf, cells[i] ?? '', x + CELL_PADDING, top + CELL_PADDING, {
      ...style,
      width,
      align: column.align,
    });
    bottom = Math.max(bottom, end);
    x += column.width;
  });
  return bottom + CELL_PADDING - 1.5;
}

function drawLineTable(pdf: PDFKit.PDFDocument, doc: TaxDocument, top: number): number {
  const headerHeight = 22;
  pdf.rect(MARGIN, top, CONTENT_WIDTH, headerHeight).fill(SHADE);
  drawRow(
    pdf,
    COLUMNS.map((c) => c.title),
    top + 1,
    { bold: true, size: 8, color: MUTED },
  );
  const bodyTop = top + headerHeight;
  const cells = [
    '1',
    doc.description,
    doc.sac,
    formatCount(doc.quantity),
    figures(doc.unitRatePaise),
    figures(doc.taxableValuePaise),
  ];
  const bottom = drawRow(pdf, cells, bodyTop, { size: 9.5 });
  hr(pdf, top);
  hr(pdf, bodyTop);
  hr(pdf, bottom);
  return bottom;
}

function drawTotals(pdf: PDFKit.PDFDocument, doc: TaxDocument, labels: Labels, top: number): number {
  const width = 260;
  const x = MARGIN + CONTENT_WIDTH - width;
  const labelWidth = 150;
  const rows: [string, string][] = [['Taxable Value', figures(doc.taxableValuePaise)]];
  if (isInterState(doc)) {
    rows.push([`IGST @ ${percent(doc.taxRateBp * 10)}`, figures(doc.igstPaise)]);
  } else {
    // Each of CGST and SGST is charged at half the GST rate.
    const half = percent(doc.taxRateBp * 5);
    rows.push([`CGST @ ${half}`, figures(doc.cgstPaise)], [`SGST @ ${half}`, figures(doc.sgstPaise)]);
  }

  let y = top;
  for (const [label, amount] of rows) {
    write(pdf, label, x, y, { width: labelWidth, color: MUTED });
    y =
      write(pdf, amount, x + labelWidth, y, { width: width - labelWidth - CELL_PADDING, align: 'right' }) + 3;
  }
  hr(pdf, y, x, width);
  y += 6;
  const total = { bold: true, size: 11 } as const;
  write(pdf, labels.total, x, y, { ...total, width: labelWidth });
  y = write(pdf, `INR ${figures(doc.totalPaise)}`, x + labelWidth, y, {
    ...total,
    width: width - labelWidth - CELL_PADDING,
    align: 'right',
  });
  return y;
}

function drawAmountInWords(pdf: PDFKit.PDFDocument, doc: TaxDocument, top: number): number {
  const text = `Amount in words: ${rupeesInWords(doc.totalPaise)}`;
  const height = pdf
    .font('Helvetica-Bold')
    .fontSize(9)
    .heightOfString(text, { width: CONTENT_WIDTH - 2 * PADDING });
  pdf.rect(MARGIN, top, CONTENT_WIDTH, height + 2 * PADDING).fill(SHADE);
  write(pdf, text, MARGIN + PADDING, top + PADDING + 1, { width: CONTENT_WIDTH - 2 * PADDING, bold: true });
  return top + height + 2 * PADDING;
}

function drawSignature(pdf: PDFKit.PDFDocument, doc: TaxDocument, labels: Labels, top: number): void {
  const declaration = `We declare that the particulars given in this ${labels.noun} are true and correct.`;
  write(pdf, declaration, MARGIN, top, { width: HALF_WIDTH, size: 8, color: MUTED });

  const x = MARGIN + HALF_WIDTH + GAP;
  const right = { width: HALF_WIDTH, align: 'right' } as const;
  const y = write(pdf, `For ${doc.seller.name}`, x, top, { ...right, bold: true });
  // Room for a hand or digital signature above the signatory's name.
  write(pdf, `Authorised Signatory: ${doc.seller.signatory}`, x, y + 36, right);
}

function drawFooter(pdf: PDFKit.PDFDocument, labels: Labels): void {
  const y = PAGE_HEIGHT - MARGIN - 12;
  hr(pdf, y - 6);
  write(pdf, `This is a computer-generated ${labels.noun}.`, MARGIN, y, {
    width: CONTENT_WIDTH,
    size: 7.5,
    color: MUTED,
    align: 'center',
  });
}
