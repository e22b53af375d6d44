import { messages, SYSTEM_ROLES } from '@portal/shared';

export interface UserMenuItem {
  label: string;
  /** Absolute path, or 'logout'. */
  to: string;
}

const profile = { label: messages.shell.myProfile, to: '/dashboard/profile' };
const addUser = { label: messages.shell.addUser, to: '/dashboard/usermanagement' };
const support = { label: messages.shell.support, to: '/dashboard/support' };
const settings = { label: messages.shell.settings, to: '/dashboard/settings' };
const logout = { label: messages.shell.logout, to: 'logout' };

/** The menu is chosen by the lower-cased role name; a missing role counts as guest, any other as member. */
const menuByRole: Record<string, UserMenuItem[]> = {
  [SYSTEM_ROLES.superAdmin]: [profile, addUser, support, settings, logout],
  [SYSTEM_ROLES.admin]: [profile, addUser, support, settings, logout],
  member: [profile, support, settings, logout],
  guest: [logout],
};

export function userMenuFor(roleName: string | null | undefined): UserMenuItem[] {
  const role = roleName?.toLowerCase() ?? 'guest';
  return menuByRole[role] ?? menuByRole.member!;
}
