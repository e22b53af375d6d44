import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@portal/shared';
import { markJustLoggedIn, settleJustLoggedIn } from './storage';

const flag = () => sessionStorage.getItem(storageKeys.justLoggedIn);

beforeEach(() => {
  sessionStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('justLoggedIn (set on sign-in, false after 10 s)', () => {
  it('turns false 10 s after the sign-in', () => {
    markJustLoggedIn();
    expect(flag()).toBe('true');
    vi.advanceTimersByTime(9_999);
    expect(flag()).toBe('true');
    vi.advanceTimersByTime(1);
    expect(flag()).toBe('false');
  });

  it('after a reload within the 10 s, still turns false 10 s after the sign-in, not never', () => {
    const signedIn = Date.now();
    const cancel = markJustLoggedIn(signedIn);
    cancel(); // the page that set it is gone
    vi.advanceTimersByTime(4_000);
    settleJustLoggedIn(); // the reloaded page
    expect(flag()).toBe('true');
    vi.advanceTimersByTime(6_000);
    expect(flag()).toBe('false');
  });

  it('after a reload later than that, is false at once', () => {
    markJustLoggedIn(Date.now() - 15_000)();
    expect(flag()).toBe('true');
    settleJustLoggedIn();
    expect(flag()).toBe('false');
  });
});
