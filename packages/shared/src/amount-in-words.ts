/**
 * The amount of a tax invoice in words, as Indian documents write it: the Indian numbering system
 * (thousand, lakh, crore), "Rupees … and … Paise Only".
 */

/** ₹99,99,99,99,999.99 (crores up to 9,999): far beyond any invoice, well inside a safe integer. */
export const RUPEES_IN_WORDS_MAX_PAISE = 9_999_999_999_999;

const UNITS = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 1–99: "Seven", "Nineteen", "Forty", "Twenty-Three". */
function belowHundred(n: number): string {
  if (n < 20) return UNITS[n]!;
  const unit = n % 10;
  const tens = TENS[Math.floor(n / 10)]!;
  return unit === 0 ? tens : `${tens}-${UNITS[unit]}`;
}

/** A positive whole number of rupees; the part above a crore is itself counted in thousands and lakhs. */
function indianWords(n: number): string {
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor(n / 100_000) % 100;
  const thousand = Math.floor(n / 1_000) % 100;
  const hundred = Math.floor(n / 100) % 10;
  const rest = n % 100;
  const parts: string[] = [];
  if (crore > 0) parts.push(`${indianWords(crore)} Crore`);
  if (lakh > 0) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand > 0) parts.push(`${belowHundred(thousand)} Thousand`);
  if (hundred > 0) parts.push(`${UNITS[hundred]} Hundred`);
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(' ');
}

/**
 * 118000 → "Rupees One Thousand One Hundred Eighty Only"; 250 → "Rupees Two and Fifty Paise Only";
 * 1 → "Rupees Zero and One Paisa Only"; 0 → "Rupees Zero Only".
 */
export function rupeesInWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0 || paise > RUPEES_IN_WORDS_MAX_PAISE) {
    throw new RangeError(`paise must be a whole number from 0 to ${RUPEES_IN_WORDS_MAX_PAISE}`);
  }
  const rupees = Math.floor(paise / 100);
  const cents = paise % 100;
  const rupeeWords = rupees === 0 ? 'Zero' : indianWords(rupees);
  const paiseWords = cents === 0 ? '' : ` and ${belowHundred(cents)} ${cents === 1 ? 'Paisa' : 'Paise'}`;
  return `Rupees ${rupeeWords}${paiseWords} Only`;
}
