import { describe, expect, it } from 'vitest';
import { istDate, istMonthOf, istMonthStart, istWallClock } from './india-time.js';

describe('India time', () => {
  it("reads India's wall clock, 5:30 ahead of UTC, from the UTC fields", () => {
    const wall = istWallClock(new Date('2025-12-31T20:00:00Z')); // 1 Jan 2026 01:30 IST
    expect([wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()]).toEqual([2026, 0, 1]);
    expect([wall.getUTCHours(), wall.getUTCMinutes()]).toEqual([1, 30]);
    expect(istWallClock(Date.UTC(2026, 10, 25, 18, 29)).toISOString()).toBe('2026-11-25T23:59:00.000Z');
  });

  it('dates a moment by the calendar day in India', () => {
    expect(istDate(new Date('2026-03-31T18:29:59.999Z'))).toBe('2026-03-31');
    expect(istDate(new Date('2026-03-31T18:30:00.000Z'))).toBe('2026-04-01');
  });

  it('gives the month in India a moment falls in', () => {
    expect(istMonthOf(new Date('2025-01-31T18:29:59.999Z'))).toEqual({ year: 2025, month: 1 });
    expect(istMonthOf(new Date('2025-01-31T20:00:00Z'))).toEqual({ year: 2025, month: 2 });
    expect(istMonthOf(new Date('2025-12-31T18:30:00Z'))).toEqual({ year: 2026, month: 1 });
  });

  it('starts months at midnight India time, counting on across years', () => {
    const { year, month } = istMonthOf(new Date('2025-01-31T20:00:00Z')); // 1 Feb 01:30 IST
    expect(istMonthStart(year, month).toISOString()).toBe('2025-01-31T18:30:00.000Z');
    expect(istMonthStart(year, month - 1).toISOString()).toBe('2024-12-31T18:30:00.000Z');
    expect(istMonthStart(year, month + 1).toISOString()).toBe('2025-02-28T18:30:00.000Z');
    expect(istMonthStart(2025, 0).toISOString()).toBe('2024-11-30T18:30:00.000Z');
    expect(istMonthStart(2025, 13).toISOString()).toBe('2025-12-31T18:30:00.000Z');
    expect(istMonthStart(2025, 2 - 12).toISOString()).toBe('2024-01-31T18:30:00.000Z');
  });
});
