import { ApiError } from '../../../lib/api-client';
import {
  API_BASE_PATH,
  API_TIMEOUT_MS,
  CSRF_COOKIE,
  CSRF_HEADER,
  USER_ID_HEADER,
  messages,
  type ApiSuccess,
  type User,
} from '@portal/shared';
import { readCookie } from '../../../lib/cookies';
import { messageFromBody } from '../../../lib/error-message';

export interface LoginResult {
  userId: string | null;
  user: User;
}

/**
 * Sign-in reads the user id from the `x-user-id` header, so it uses fetch directly rather than the
 * JSON helper. Errors carry the sign-in page's texts (docs/product.md, "Sign-in and passwords").
 */
export async function loginRequest(identifier: string, password: string): Promise<LoginResult> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  let response: Response;
  try {
    response = await fetch(`${API_BASE_PATH}/auth/auth-session/login`, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify({ identifier, password }),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(null, messages.login.noResponse);
  }
  const body: unknown = await response.json().catch(() => {
    throw new ApiError(response.status, messages.login.otherError);
  });
  if (!response.ok) {
    const b = body as { message?: unknown };
    throw new ApiError(
      response.status,
      typeof b?.message === 'string' && b.message ? b.message : messages.login.failed,
      body,
    );
  }
  const data = (body as ApiSuccess<User>).data;
  if (!data) throw new ApiError(response.status, messageFromBody(body) ?? messages.login.otherError, body);
  return { userId: response.headers.get(USER_ID_HEADER), user: data };
}
