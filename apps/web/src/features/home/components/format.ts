import { formatRupees, messages, type StatCard, type StatFormat } from '@portal/shared';

const countFormat = new Intl.NumberFormat('en-IN');
const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' });
const monthFormat = new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortMonthFormat = new Intl.DateTimeFormat('en-IN', { month: 'short', timeZone: 'UTC' });

export function formatValue(format: StatFormat, value: number | string | null): string {
  if (value === null) return format === 'date' ? messages.dashboard.noValidUntil : '—';
  if (format === 'paise') return formatRupees(Number(value));
  if (format === 'date') return dateFormat.format(new Date(value));
  return countFormat.format(Number(value));
}

export function formatStat(card: StatCard): string {
  return formatValue(card.format, card.value);
}

function monthDate(month: string): Date {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, (m ?? 1) - 1, 1));
}

/** `2025-03` → `Mar 2025` */
export function formatMonth(month: string): string {
  return monthFormat.format(monthDate(month));
}

/** `2025-03` → `Mar` */
export function formatShortMonth(month: string): string {
  return shortMonthFormat.format(monthDate(month));
}
