import { describe, expect, it } from 'vitest';
import { extractErrorMessage } from './error-message';

const withBody = (body: unknown) => Object.assign(new Error('raw error'), { body });

describe('extractErrorMessage (order of the sources)', () => {
  it.each([
    ['message first', { message: 'Server says no', errors: ['x'] }, 'Server says no'],
    ['then the errors array', { errors: ['a', { message: 'b' }] }, 'a, b'],
    ['then the errors object', { errors: { f: ['one'], g: ['two'] } }, 'one, two'],
    ['then the raw JSON', { detail: 'x' }, '{"detail":"x"}'],
    ['then the error message', null, 'raw error'],
  ])('%s', (_name, body, expected) => {
    expect(extractErrorMessage(withBody(body))).toBe(expected);
  });

  it('falls back to the generic text', () => {
    expect(extractErrorMessage(undefined)).toBe('An unexpected error occurred');
  });
});
