import { describe, expect, it } from 'vitest';
import { avatarInitials } from './avatar-initials';

const as = (name: string) => ({ role: { name } });

describe('avatar initials', () => {
  it('derive from the role name, for the top bar and My Profile alike', () => {
    expect(avatarInitials(as('super_admin'))).toBe('SA');
    expect(avatarInitials(as('admin'))).toBe('A');
    expect(avatarInitials(as('Hiring manager'))).toBe('HM');
    expect(avatarInitials(as('team-lead-east'))).toBe('TL');
  });

  it('read G (guest) without a user or a role name', () => {
    expect(avatarInitials(null)).toBe('G');
    expect(avatarInitials(undefined)).toBe('G');
    expect(avatarInitials(as(''))).toBe('G');
  });
});
