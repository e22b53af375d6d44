import { api } from '../../api-client';

export function logoutRequest(): Promise<unknown> {
  return api.post('/auth/auth-session/logout');
}
