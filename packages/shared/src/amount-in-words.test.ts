import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUPEES_IN_WORDS_MAX_PAISE, rupeesInWords } from './amount-in-words.js';

const cases: [paise: number, words: string][] = [
  [0, 'Rupees Zero Only'],
  [1, 'Rupees Zero and One Paisa Only'],
  [2, 'Rupees Zero and Two Paise Only'],
  [50, 'Rupees Zero and Fifty Paise Only'],
  [99, 'Rupees Zero and Ninety-Nine Paise Only'],
  [100, 'Rupees One Only'],
  [101, 'Rupees One and One Paisa Only'],
  [1_100, 'Rupees Eleven Only'],
  [2_000, 'Rupees Twenty Only'],
  [2_300, 'Rupees Twenty-Three Only'],
  [10_000, 'Rupees One Hundred Only'],
  [10_100, 'Rupees One Hundred One Only'],
  [11_000, 'Rupees One Hundred Ten Only'],
  [99_900, 'Rupees Nine Hundred Ninety-Nine Only'],
  [100_000, 'Rupees One Thousand Only'],
  [100_100, 'Rupees One Thousand One Only'],
  [118_000, 'Rupees One Thousand One Hundred Eighty Only'],
  [118_050, 'Rupees One Thousand One Hundred Eighty and Fifty Paise Only'],
  [1_000_000, 'Rupees Ten Thousand Only'],
  [9_999_999, 'Rupees Ninety-Nine Thousand Nine Hundred Ninety-Nine and Ninety-Nine Paise Only'],
  [10_000_000, 'Rupees One Lakh Only'],
  [10_000_100, 'Rupees One Lakh One Only'],
  [10_100_000, 'Rupees One Lakh One Thousand Only'],
  [100_000_000, 'Rupees Ten Lakh Only'],
  [123_456_700, 'Rupees Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven Only'],
  [1_000_000_000, 'Rupees One Crore Only'],
  [1_000_000_001, 'Rupees One Crore and One Paisa Only'],
  [1_010_000_000, 'Rupees One Crore One Lakh Only'],
  [2_500_000_050, 'Rupees Two Crore Fifty Lakh and Fifty Paise Only'],
  [
    12_345_678_901,
    'Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine and One Paisa Only',
  ],
  [10_000_000_000, 'Rupees Ten Crore Only'],
  [
    99_999_999_900,
    'Rupees Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine Only',
  ],
  // Above 99 crore the crores are themselves counted in hundreds and thousands.
  [100_000_000_000, 'Rupees One Hundred Crore Only'],
  [1_000_000_000_000, 'Rupees One Thousand Crore Only'],
  [1_234_000_000_000, 'Rupees One Thousand Two Hundred Thirty-Four Crore Only'],
  [
    RUPEES_IN_WORDS_MAX_PAISE,
    'Rupees Nine Thousand Nine Hundred Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand ' +
      'Nine Hundred Ninety-Nine and Ninety-Nine Paise Only',
  ],
];

// prettier-ignore
const SMALL: Record<string, number> = {
  One: 1, Two: 2, Three: 3, Four: 4, Five: 5, Six: 6, Seven: 7, Eight: 8, Nine: 9, Ten: 10,
  Eleven: 11, Twelve: 12, Thirteen: 13, Fourteen: 14, Fifteen: 15, Sixteen: 16, Seventeen: 17,
  Eighteen: 18, Nineteen: 19, Twenty: 20, Thirty: 30, Forty: 40, Fifty: 50, Sixty: 60, Seventy: 70,
  Eighty: 80, Ninety: 90,
};

/** Reads an Indian-system number back ("Two Thousand Crore Five Lakh Six"), independently of the code. */
function parseIndian(words: string): number {
  let crores = 0;
  let group = 0;
  let small = 0;
  for (const word of words.split(/[ -]/)) {
    if (word === 'Zero') continue;
    if (word === 'Hundred') small *= 100;
    else if (word === 'Thousand') [group, small] = [group + small * 1_000, 0];
    else if (word === 'Lakh') [group, small] = [group + small * 100_000, 0];
    else if (word === 'Crore') [crores, group, small] = [group + small, 0, 0];
    else if (word in SMALL) small += SMALL[word]!;
    else throw new Error(`unexpected word ${word}`);
  }
  return crores * 10_000_000 + group + small;
}

function parseRupeesInWords(text: string): number {
  const match = /^Rupees (.+?)(?: and (.+) Paisa| and (.+) Paise)? Only$/.exec(text);
  if (!match) throw new Error(`unexpected shape: ${text}`);
  return parseIndian(match[1]!) * 100 + parseIndian(match[2] ?? match[3] ?? 'Zero');
}

describe('rupeesInWords', () => {
  it.each(cases)('%i paise → %s', (paise, words) => {
    expect(rupeesInWords(paise)).toBe(words);
  });

  it('reads back as the same amount, with single spaces and no "Zero" beside other words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: RUPEES_IN_WORDS_MAX_PAISE }), (paise) => {
        const words = rupeesInWords(paise);
        expect(parseRupeesInWords(words)).toBe(paise);
        expect(words).not.toMatch(/ {2}|- | -/);
        if (paise >= 100) expect(words).not.toContain('Zero');
      }),
      { numRuns: 2_000, seed: 20_260_401 },
    );
  });

  it.each([-1, -100, 0.5, 100.25, Number.NaN, Infinity, RUPEES_IN_WORDS_MAX_PAISE + 1, 2 ** 53])(
    'refuses %s with a RangeError',
    (paise) => {
      expect(() => rupeesInWords(paise)).toThrow(RangeError);
    },
  );
});
