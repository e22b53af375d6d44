import { describe, expect, it } from 'vitest';
import { isoString } from './user-dto.repo.js';

describe('isoString', () => {
  it('writes every form PostgreSQL gives a timestamp exactly as Date#toISOString does', () => {
    const forms = [
      '2026-11-22T18:50:54.329123+00:00', // microseconds: truncated to milliseconds, like Date
      '2026-11-22T18:50:54.329999+00:00',
      '2026-11-22T18:50:54.3+00:00', // trailing zeros trimmed by PostgreSQL
      '2026-11-22T18:50:54.32+00:00',
      '2026-11-22T18:50:54+00:00', // a whole second
      '2026-11-22T23:50:54.32+05:30', // a session in another time zone
      '2026-11-22 18:50:54.329+00', // the column text form
    ];
    for (const form of forms) expect(isoString(form), form).toBe(new Date(form).toISOString());
    expect(isoString(new Date(Date.UTC(2026, 10, 22, 18, 50, 54, 7)))).toBe('2026-11-22T18:50:54.007Z');
  });
});
