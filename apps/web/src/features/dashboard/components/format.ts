import {
  formatCount,
  formatDate,
  formatRupees,
  messages,
  type StatCard,
  type StatFormat,
} from '@portal/shared';

export function formatValue(format: StatFormat, value: number | string | null): string {
  if (value === null) return format === 'date' ? messages.dashboard.noValidUntil : '—';
  if (format === 'paise') return formatRupees(Number(value));
  if (format === 'date') return formatDate(value);
  return formatCount(Number(value));
}

export function formatStat(card: StatCard): string {
  return formatValue(card.format, card.value);
}
