import type { ApiSuccess, User } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { useProfileWrite } from './update-profile';

/** PUT /auth/profile/image, multipart: replaces the image (the server checks its content). */
export async function uploadProfileImage(file: File): Promise<User> {
  const form = new FormData();
  form.append('file', file);
  return (await api.put<ApiSuccess<User>>('/auth/profile/image', form)).data;
}

export function useUploadProfileImage() {
  return useProfileWrite(uploadProfileImage);
}
