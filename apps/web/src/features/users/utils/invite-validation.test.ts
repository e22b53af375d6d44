import { describe, expect, it } from 'vitest';
import { messages } from '@portal/shared';
import { firstInviteError, type InviteFormValues } from './invite-validation';

const valid: InviteFormValues = {
  username: 'new.admin',
  email: 'new.admin@acme.test',
  mobileNo: '9876543210',
  client: 'Acme',
};
const ctx = { adminRoleId: 'role-id', editMode: false, userLoaded: false };

describe('firstInviteError', () => {
  it('reports the rules in the order of SPEC.md §5, one at a time', () => {
    let values: InviteFormValues = { username: 'x', email: 'bad', mobileNo: '1', client: ' ' };
    const seen: (string | null)[] = [];
    const context = { adminRoleId: null as string | null, editMode: true, userLoaded: false };
    seen.push(firstInviteError(values, context));
    values = { ...values, email: 'ok@acme.test' };
    seen.push(firstInviteError(values, context));
    values = { ...values, username: 'okname' };
    seen.push(firstInviteError(values, context));
    values = { ...values, mobileNo: '9876543210' };
    seen.push(firstInviteError(values, context));
    values = { ...values, client: 'Acme' };
    seen.push(firstInviteError(values, context));
    context.adminRoleId = 'r';
    seen.push(firstInviteError(values, context));
    context.userLoaded = true;
    seen.push(firstInviteError(values, context));
    expect(seen).toEqual([
      messages.users.invalidEmail,
      messages.users.invalidUsername,
      messages.users.invalidMobile,
      messages.users.companyRequired,
      messages.users.adminRoleIdMissing,
      messages.users.userNotLoaded,
      null,
    ]);
  });

  it.each([
    ['username of 2 characters', { username: 'ab' }, messages.users.invalidUsername],
    ['username of 51 characters', { username: 'a'.repeat(51) }, messages.users.invalidUsername],
    ['username with @', { username: 'a@b' }, messages.users.invalidUsername],
    ['mobile of 9 digits', { mobileNo: '987654321' }, messages.users.invalidMobile],
    ['mobile with +91', { mobileNo: '+919876543210' }, messages.users.invalidMobile],
    ['email without a dot', { email: 'a@b' }, messages.users.invalidEmail],
  ])('refuses a %s', (_name, over, expected) => {
    expect(firstInviteError({ ...valid, ...over }, ctx)).toBe(expected);
  });

  it('accepts a valid form', () => {
    expect(firstInviteError({ ...valid, username: 'a_b-c.d' }, ctx)).toBeNull();
  });
});
