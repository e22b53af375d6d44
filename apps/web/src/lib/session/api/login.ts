import { api, ApiError } from '../../api-client';
import {
  USER_ID_HEADER,
  messages,
  type ApiSuccess,
  type LoginResult,
  type SessionUser,
  type SignInChallenge,
} from '@portal/shared';

/**
 * Whether the password step answered a challenge (two-factor sign-in on). Here, not beside the
 * schemas in the shared package: importing a function from that module would bring every schema it
 * builds into the first script, before zod is told to run without `eval` (lib/zod-config.ts).
 */
export function isSignInChallenge(result: LoginResult): result is SignInChallenge {
  return 'twoFactorRequired' in result && result.twoFactorRequired === true;
}

/** A finished sign-in: the user, and their id from the `x-user-id` header when the answer carries it. */
export interface SignedIn {
  userId: string | null;
  user: SessionUser;
}

/**
 * The password step: the signed-in user, or a challenge for the second step when the account has
 * two-factor sign-in on. A refusal without a message of its own reads 'Login failed'
 * (docs/product.md, "Sign-in and passwords").
 */
export async function loginRequest(
  identifier: string,
  password: string,
): Promise<{ userId: string | null; result: LoginResult }> {
  const { body, headers } = await api.withHeaders<ApiSuccess<LoginResult> | null>(
    'POST',
    '/auth/auth-session/login',
    { identifier, password },
    { fallbackMessage: messages.login.failed },
  );
  if (!body?.data) throw new ApiError(200, messages.login.otherError, body);
  return { userId: headers.get(USER_ID_HEADER), result: body.data };
}
