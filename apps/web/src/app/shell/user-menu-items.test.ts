import { describe, expect, it } from 'vitest';
import { userMenuFor } from './user-menu-items';

describe('user menu', () => {
  it('gives super_admin its five entries, matching the role name case-insensitively', () => {
    expect(userMenuFor('SUPER_ADMIN').map((i) => i.label)).toEqual([
      'My Profile',
      'Add User',
      'Support',
      'Settings',
      'Logout',
    ]);
  });

  it('treats a missing role as guest', () => {
    expect(userMenuFor(undefined).map((i) => i.label)).toEqual(['Logout']);
  });

  it('gives a custom role the entries every user may use', () => {
    expect(userMenuFor('Recruiter').map((i) => i.label)).toEqual([
      'My Profile',
      'Support',
      'Settings',
      'Logout',
    ]);
  });
});
