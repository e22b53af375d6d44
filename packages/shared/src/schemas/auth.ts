import { z } from 'zod';
import { messages } from '../messages.js';
import { strongPasswordSchema } from '../password.js';

const identifierField = z.string().trim().min(1).max(254);

/** Email or username; `email` and `username` are accepted as aliases. */
export const loginBodySchema = z
  .object({
    identifier: identifierField.optional(),
    email: identifierField.optional(),
    username: identifierField.optional(),
    password: z.string().min(1).max(200),
  })
  .refine((b) => b.identifier ?? b.email ?? b.username, {
    message: 'Email or username is required',
    path: ['identifier'],
  });
export type LoginBody = z.infer<typeof loginBodySchema>;

export const forgotPasswordBodySchema = z.object({
  email: z.string().trim().min(1).max(254),
});

export const resetPasswordBodySchema = z.object({
  token: z.string().min(20).max(200),
  password: strongPasswordSchema,
});

export const changePasswordBodySchema = z.object({
  userId: z.string().optional(),
  currentPassword: z.string().min(1, messages.password.currentRequired).max(200),
  newPassword: z.string().min(1, messages.password.newRequired).pipe(strongPasswordSchema),
});
