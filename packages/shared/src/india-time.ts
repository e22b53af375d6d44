/**
 * India Standard Time, the one place its offset is applied. Business days, "this month", the
 * financial year and every time shown to people are India's, whatever the time zone of the server
 * or the browser. Formatting to text is format.ts; these give the calendar fields.
 */

/** Business days, "this month" and every time shown are in India Standard Time. */
export const BUSINESS_TIME_ZONE = 'Asia/Kolkata';
/** India Standard Time has had no daylight saving since 1945: a fixed UTC+05:30. */
export const IST_OFFSET_MINUTES = 330;

const IST_OFFSET_MS = IST_OFFSET_MINUTES * 60_000;

/**
 * The moment as India's wall clock: a Date whose UTC fields (`getUTCFullYear`, `getUTCMonth`,
 * `getUTCDate`, `getUTCHours`…) read the calendar date and time in India. A spreadsheet cell, which
 * holds a time without a zone, takes it as is.
 */
export function istWallClock(moment: Date | number): Date {
  return new Date((moment instanceof Date ? moment.getTime() : moment) + IST_OFFSET_MS);
}

/** `2026-04-01`: the calendar day in India of a moment. */
export function istDate(moment: Date): string {
  return istWallClock(moment).toISOString().slice(0, 10);
}

/** The calendar month in India (month 1–12) that a moment falls in. */
export function istMonthOf(moment: Date): { year: number; month: number } {
  const wall = istWallClock(moment);
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1 };
}

/**
 * The first moment of a calendar month in India (month 1–12), as a Date. A month outside 1–12 counts
 * on from the year given (0 is the December before it, 13 the January after it), so
 * `istMonthStart(year, month + n)` is `n` months on.
 */
export function istMonthStart(year: number, month: number): Date {
  return new Date(Date.UTC(year, month - 1, 1) - IST_OFFSET_MS);
}
