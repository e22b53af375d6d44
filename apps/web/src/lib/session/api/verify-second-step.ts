import {
  messages,
  USER_ID_HEADER,
  type ApiSuccess,
  type SecondStepBody,
  type SessionUser,
} from '@portal/shared';
import { api, ApiError } from '../../api-client';
import type { SignedIn } from './login';

/**
 * POST /auth/auth-session/two-factor: the second step of a sign-in, with the password step's
 * challenge and a code from the authenticator app or a recovery code. Answers the signed-in user.
 */
export async function verifySecondStepRequest(body: SecondStepBody): Promise<SignedIn> {
  const { body: answer, headers } = await api.withHeaders<ApiSuccess<SessionUser> | null>(
    'POST',
    '/auth/auth-session/two-factor',
    body,
    { fallbackMessage: messages.login.failed },
  );
  if (!answer?.data) throw new ApiError(200, messages.login.otherError, answer);
  return { userId: headers.get(USER_ID_HEADER), user: answer.data };
}
