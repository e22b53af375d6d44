import { describe, expect, it } from 'vitest';
import { returnPathAfterSignIn } from './return-path';

describe('where a sign-in returns to', () => {
  it('the page that was asked for, with its query', () => {
    expect(returnPathAfterSignIn({ from: '/dashboard/usermanagement' })).toBe('/dashboard/usermanagement');
    expect(returnPathAfterSignIn({ from: '/logindashboard/support?x=1#top' })).toBe(
      '/logindashboard/support?x=1#top',
    );
  });

  it('never another site, nor the sign-in screens', () => {
    for (const from of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/auth/login',
      42,
      '',
    ]) {
      expect(returnPathAfterSignIn({ from }), String(from)).toBe('/dashboard');
    }
    expect(returnPathAfterSignIn(null)).toBe('/dashboard');
  });
});
