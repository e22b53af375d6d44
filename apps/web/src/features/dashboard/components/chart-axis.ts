import { formatCount, formatMonth, formatWholeRupees, type StatFormat } from '@portal/shared';

/** The smallest step of 1, 2, 2.5 or 5 × 10ⁿ (whole units) at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const step = m * magnitude;
    if (step >= raw && Number.isInteger(step)) return step;
  }
  return Math.max(1, 10 * magnitude);
}

/**
 * The value axis: 0, one step and two steps, two steps covering the largest value. Steps are whole
 * rupees for amounts (paise underneath) and whole units for counts.
 */
export function valueAxis(format: StatFormat, max: number): { top: number; ticks: number[] } {
  const unit = format === 'paise' ? 100 : 1;
  const step = niceStep(max / unit / 2) * unit;
  return { top: 2 * step, ticks: [0, step, 2 * step] };
}

/** An axis label: `₹1,50,000` (whole rupees) or `1,500`. */
export function tickLabel(format: StatFormat, value: number): string {
  return format === 'paise' ? formatWholeRupees(value) : formatCount(value);
}

/**
 * A month on the chart's axis, one format for every month and width: `Nov ’26` (short month name,
 * two-digit year after an apostrophe, so it does not read as the 26th). Short enough to stay on one
 * line beside the bars at 375 px; the screen-reader table keeps `Nov 2026`.
 */
export function axisMonth(month: string): string {
  const full = formatMonth(month);
  // formatMonth answers anything that is not a month as it was given.
  if (full === month) return month;
  return `${formatMonth(month, { short: true })} ’${month.slice(2, 4)}`;
}
