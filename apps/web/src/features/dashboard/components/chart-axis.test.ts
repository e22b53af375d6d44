import { describe, expect, it } from 'vitest';
import { axisMonth, niceStep, tickLabel, valueAxis } from './chart-axis';

describe('the home chart value axis', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten, in whole units', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(0.4)).toBe(1);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(17)).toBe(20);
    expect(niceStep(21)).toBe(25);
    expect(niceStep(84_000)).toBe(1_00_000);
  });

  it('covers the largest amount with two steps of whole rupees', () => {
    // ₹1,68,000 → steps of ₹1,00,000: 0, ₹1,00,000, ₹2,00,000.
    expect(valueAxis('paise', 16_800_000)).toEqual({ top: 20_000_000, ticks: [0, 10_000_000, 20_000_000] });
    expect(valueAxis('count', 7)).toEqual({ top: 10, ticks: [0, 5, 10] });
    expect(valueAxis('count', 1)).toEqual({ top: 2, ticks: [0, 1, 2] });
  });

  it('labels amounts in whole rupees and counts with Indian grouping', () => {
    expect(tickLabel('paise', 10_000_000)).toBe('₹1,00,000');
    expect(tickLabel('count', 150_000)).toBe('1,50,000');
  });
});

describe('the home chart month labels', () => {
  it('read one short way for every month: month name and two-digit year', () => {
    expect(axisMonth('2026-11')).toBe('Nov ’26');
    expect(axisMonth('2025-05')).toBe('May ’25');
    expect(axisMonth('2025-09')).toBe('Sep ’25');
    const labels = Array.from({ length: 12 }, (_, i) => axisMonth(`2025-${String(i + 1).padStart(2, '0')}`));
    expect(new Set(labels.map((l) => l.length))).toEqual(new Set([7]));
  });

  it('leave anything that is not a month as it is', () => {
    expect(axisMonth('2025-13')).toBe('2025-13');
  });
});
