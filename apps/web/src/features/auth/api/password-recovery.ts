import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

interface Ok {
  success: true;
  message: string;
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => api.post<Ok>('/auth/forgot-password', { email }) });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => api.post<Ok>('/auth/reset-password', input),
  });
}
