/**
 * How the portal shows dates, times and counts to people: Indian English, India Standard Time, the
 * same text in every browser and on the server (exports, emails, notices). Amounts are
 * `formatRupees` in money.ts.
 *
 * Dates and times are built here from fixed month names rather than by `Intl.DateTimeFormat`,
 * whose text for en-IN changes with the ICU version ("Sep" or "Sept", "am" or "AM", which space
 * before it), so two browsers or a browser and Node would not otherwise agree.
 */

import { istWallClock } from './india-time.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const countFormat = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });
const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_ONLY = /^(\d{4})-(\d{2})$/;

export type DateInput = Date | string | number;

interface WallClock {
  year: number;
  month: number; // 0-11
  day: number;
  hour: number;
  minute: number;
}

/** The IST calendar date and time of an instant; a bare `YYYY-MM-DD` is that calendar day. */
function wallClockOf(value: DateInput): WallClock | null {
  if (typeof value === 'string') {
    const day = DAY_ONLY.exec(value);
    if (day) return { year: +day[1]!, month: +day[2]! - 1, day: +day[3]!, hour: 0, minute: 0 };
  }
  const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(time)) return null;
  const wall = istWallClock(time);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth(),
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  };
}

function dayText(w: WallClock): string {
  return `${w.day} ${MONTHS[w.month]} ${w.year}`;
}

/** `25 Nov 2026` (the IST calendar date). Text that is not a date comes back unchanged. */
export function formatDate(value: DateInput): string {
  const w = wallClockOf(value);
  return w ? dayText(w) : String(value);
}

/** `25 Nov 2026, 1:11 am` (IST, 12-hour clock). Text that is not a date comes back unchanged. */
export function formatDateTime(value: DateInput): string {
  const w = wallClockOf(value);
  if (!w) return String(value);
  const hour = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${dayText(w)}, ${hour}:${String(w.minute).padStart(2, '0')} ${w.hour < 12 ? 'am' : 'pm'}`;
}

const DAY_MONTH_YEAR = /^(\d{1,2})[\s/.-]+([a-z]+|\d{1,2})[\s/.,-]+(\d{4})$/i;

/**
 * A calendar day typed the portal's way, day first: `27 Nov 2026`, `27 November 2026`, `27/11/2026`,
 * `27-11-2026`, or `2026-11-27`; as `YYYY-MM-DD`, or null when it is not a real day.
 */
export function parseDay(text: string): string | null {
  const trimmed = text.trim();
  let year: number;
  let month: number;
  let day: number;
  const iso = DAY_ONLY.exec(trimmed);
  const dmy = iso ? null : DAY_MONTH_YEAR.exec(trimmed);
  if (iso) {
    [year, month, day] = [+iso[1]!, +iso[2]!, +iso[3]!];
  } else if (dmy) {
    const monthText = dmy[2]!;
    month = /^\d+$/.test(monthText)
      ? +monthText
      : MONTHS.findIndex(
          (m) => monthText.length >= 3 && m.toLowerCase() === monthText.slice(0, 3).toLowerCase(),
        ) + 1;
    [year, day] = [+dmy[3]!, +dmy[1]!];
  } else {
    return null;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    month < 1 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  return date.toISOString().slice(0, 10);
}

/** A `YYYY-MM` month key: `Mar 2025`, or `Mar` with `{ short: true }`. */
export function formatMonth(month: string, options: { short?: boolean } = {}): string {
  const m = MONTH_ONLY.exec(month);
  const name = m ? MONTHS[+m[2]! - 1] : undefined;
  if (!m || !name) return month;
  return options.short ? name : `${name} ${m[1]}`;
}

/** A count with Indian digit grouping: `1,00,000`, `1,23,45,678`. */
export function formatCount(value: number): string {
  return countFormat.format(value);
}
