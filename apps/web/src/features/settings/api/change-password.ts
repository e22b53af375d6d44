import { useMutation } from '@tanstack/react-query';
import { messages, type PasswordChangeField } from '@portal/shared';
import { api, ApiError } from '../../../lib/api-client';
import { messageFromBody } from '../../../lib/error-message';

export interface ChangePasswordInput {
  userId: string;
  currentPassword: string;
  newPassword: string;
}

/** PUT /auth/users/password. The server ends the user's other sessions. */
export async function changePassword(input: ChangePasswordInput): Promise<void> {
  await api.put('/auth/users/password', input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

export interface PasswordChangeFailure {
  /** The field the message belongs under; none means a message above the form. */
  field?: PasswordChangeField;
  message: string;
}

/** What to show for a failed password change, and under which field. */
export function passwordChangeFailure(error: unknown): PasswordChangeFailure {
  if (!(error instanceof ApiError)) return { message: messages.common.unexpectedRetry };
  if (error.status === null) return { message: messages.password.network };
  if (error.status === 401) return { field: 'currentPassword', message: messages.password.currentIncorrect };
  const serverMessage = messageFromBody(error.body);
  if (error.status === 400) {
    const message = serverMessage ?? messages.password.invalidFormat;
    const onNewPassword = message === messages.password.sameAsCurrent || message === messages.password.weak;
    return onNewPassword ? { field: 'newPassword', message } : { message };
  }
  return { message: serverMessage ?? messages.password.updateFailed };
}
