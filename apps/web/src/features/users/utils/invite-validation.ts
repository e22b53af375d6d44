import { EMAIL_PATTERN, MOBILE_PATTERN, USERNAME_PATTERN, messages } from '@portal/shared';

export interface InviteFormValues {
  username: string;
  email: string;
  mobileNo: string;
  client: string;
}

/**
 * The first broken rule of the invite or edit form, in the order of SPEC.md §5 (each is shown as an
 * error toast, one at a time), or null when the form may be submitted.
 */
export function firstInviteError(
  values: InviteFormValues,
  context: { adminRoleId: string | null; editMode: boolean; userLoaded: boolean },
): string | null {
  if (!EMAIL_PATTERN.test(values.email.trim())) return messages.users.invalidEmail;
  if (!USERNAME_PATTERN.test(values.username.trim())) return messages.users.invalidUsername;
  if (!MOBILE_PATTERN.test(values.mobileNo.trim())) return messages.users.invalidMobile;
  if (!values.client.trim()) return messages.users.companyRequired;
  if (!context.adminRoleId) return messages.users.adminRoleIdMissing;
  if (context.editMode && !context.userLoaded) return messages.users.userNotLoaded;
  return null;
}
