import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatMonth, parseDay } from './format.js';
import { formatRupees, formatWholeRupees } from './money.js';

describe('dates and times (India Standard Time)', () => {
  it('shows a date-time as "25 Nov 2026, 1:11 am"', () => {
    expect(formatDateTime('2026-11-24T19:41:01Z')).toBe('25 Nov 2026, 1:11 am');
    expect(formatDateTime(new Date('2026-11-25T06:30:00Z'))).toBe('25 Nov 2026, 12:00 pm');
    expect(formatDateTime(Date.UTC(2026, 10, 25, 18, 29))).toBe('25 Nov 2026, 11:59 pm');
    expect(formatDateTime('2026-11-24T18:30:00Z')).toBe('25 Nov 2026, 12:00 am');
  });

  it('shows a date as "25 Nov 2026"', () => {
    expect(formatDate('2026-11-25T10:00:00Z')).toBe('25 Nov 2026');
    expect(formatDate('2026-09-05T10:00:00Z')).toBe('5 Sep 2026');
  });

  it('gives the IST date of an instant shortly before midnight UTC, which is already the next day', () => {
    // 31 Dec 2025 20:00 UTC is 1 Jan 2026 01:30 IST.
    expect(formatDate('2025-12-31T20:00:00Z')).toBe('1 Jan 2026');
    expect(formatDateTime('2025-12-31T20:00:00.000Z')).toBe('1 Jan 2026, 1:30 am');
    // 18:29 UTC is still the same day in India.
    expect(formatDate('2025-12-31T18:29:59Z')).toBe('31 Dec 2025');
  });

  it('keeps a bare calendar day as that day', () => {
    expect(formatDate('2026-03-01')).toBe('1 Mar 2026');
  });

  it('answers text that is not a date unchanged', () => {
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDateTime('')).toBe('');
  });

  it('dates an instant by its IST calendar day, whatever the machine’s time zone', () => {
    // 00:45 IST on 27 Nov is still 26 Nov in UTC and in every American zone.
    expect(formatDate('2026-11-26T19:15:00Z')).toBe('27 Nov 2026');
    expect(formatDate(new Date('2026-11-26T18:29:59Z'))).toBe('26 Nov 2026');
  });

  it('reads a day typed day first, as the portal shows it', () => {
    for (const text of ['27 Nov 2026', ' 27 november 2026 ', '27/11/2026', '27-11-2026', '2026-11-27']) {
      expect(parseDay(text)).toBe('2026-11-27');
    }
    expect(parseDay(formatDate('2026-02-05'))).toBe('2026-02-05');
    for (const text of ['31 Nov 2026', '29 Feb 2026', '27 Foo 2026', '11/27', '', 'yesterday']) {
      expect(parseDay(text)).toBeNull();
    }
  });

  it('names months from their YYYY-MM key', () => {
    expect(formatMonth('2025-03')).toBe('Mar 2025');
    expect(formatMonth('2025-12', { short: true })).toBe('Dec');
    expect(formatMonth('2025-13')).toBe('2025-13');
  });
});

describe('counts and amounts (Indian digit grouping)', () => {
  it('groups counts in thousands, lakhs and crores', () => {
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_000)).toBe('1,000');
    expect(formatCount(1_00_000)).toBe('1,00,000');
    expect(formatCount(12_34_567)).toBe('12,34,567');
    expect(formatCount(1_00_00_000)).toBe('1,00,00,000');
    expect(formatCount(-25_000)).toBe('-25,000');
  });

  it('shows amounts in rupees with the ₹ sign, paise and Indian grouping', () => {
    expect(formatRupees(11_800_000)).toBe('₹1,18,000.00');
    expect(formatRupees(1_000_000_000)).toBe('₹1,00,00,000.00');
    expect(formatRupees(5)).toBe('₹0.05');
    expect(formatRupees(0)).toBe('₹0.00');
    expect(formatWholeRupees(15_000_000)).toBe('₹1,50,000');
    expect(formatWholeRupees(1_000_000_050)).toBe('₹1,00,00,001');
  });
});
