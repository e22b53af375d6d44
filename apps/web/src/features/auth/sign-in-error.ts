import { messages } from '@portal/shared';
import { ApiError } from '../../lib/api-client';

/** Sign-in error texts, for either step: the server message, else 'Login failed'; no response; anything else. */
export function signInErrorText(error: unknown): string {
  if (error instanceof ApiError)
    return error.status === null ? messages.login.noResponse : error.message || messages.login.failed;
  return messages.login.otherError;
}

/** The second step's challenge has run out (or is unknown): the password step starts again. */
export function isChallengeExpired(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 401 && error.message === messages.twoFactor.challengeExpired
  );
}
