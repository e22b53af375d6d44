import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ProfileUpdateBody, SessionUser, User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { userQueryKey } from '../../../lib/session/api/get-user';
import { profileQueryKey } from './get-profile';

export async function updateProfile(body: ProfileUpdateBody): Promise<User> {
  return (await api.put<ApiSuccess<User>>('/auth/profile', body)).data;
}

/** Keeps the profile and the signed-in user (top bar, local storage) in step with the answer. */
export function useProfileWrite<T>(mutationFn: (input: T) => Promise<User>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (user) => {
      queryClient.setQueryData(profileQueryKey, user);
      // The signed-in user keeps its two-factor state, which a profile answer does not carry.
      queryClient.setQueryData<SessionUser>(
        userQueryKey(user.id),
        (current) => current && { ...current, ...user },
      );
    },
  });
}

export function useUpdateProfile() {
  return useProfileWrite(updateProfile);
}
