import { api, ApiError } from '../../../lib/api-client';
import { USER_ID_HEADER, messages, type ApiSuccess, type User } from '@portal/shared';

export interface LoginResult {
  userId: string | null;
  user: User;
}

/**
 * Signs in; the user id comes from the `x-user-id` header. A refusal without a message of its own
 * reads 'Login failed' (docs/product.md, "Sign-in and passwords").
 */
export async function loginRequest(identifier: string, password: string): Promise<LoginResult> {
  const { body, headers } = await api.withHeaders<ApiSuccess<User> | null>(
    'POST',
    '/auth/auth-session/login',
    { identifier, password },
    { fallbackMessage: messages.login.failed },
  );
  if (!body?.data) throw new ApiError(200, messages.login.otherError, body);
  return { userId: headers.get(USER_ID_HEADER), user: body.data };
}
