import { z } from 'zod';
import { MOBILE_DIGITS, USERNAME_MAX, USERNAME_MIN } from '../constants.js';
import { messages } from '../messages.js';
import { SCOPES } from '../permissions.js';

/** Field rules of SPEC.md §5 with their messages, used by forms and by the server. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USERNAME_PATTERN = new RegExp(`^[A-Za-z0-9._-]{${USERNAME_MIN},${USERNAME_MAX}}$`);
export const MOBILE_PATTERN = new RegExp(`^\\d{${MOBILE_DIGITS}}$`);

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .regex(EMAIL_PATTERN, messages.users.invalidEmail)
  .transform((v) => v.toLowerCase());
export const usernameSchema = z.string().trim().regex(USERNAME_PATTERN, messages.users.invalidUsername);
export const mobileSchema = z.string().trim().regex(MOBILE_PATTERN, messages.users.invalidMobile);
export const companyNameSchema = z.string().trim().min(1, messages.users.companyRequired).max(200);

export const permissionEntrySchema = z.object({
  id: z.string(),
  featureId: z.string(),
  featureName: z.string(),
  permissionScopes: z.array(z.enum(SCOPES)),
});

export const roleSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  isSystem: z.boolean(),
  permissions: z.array(permissionEntrySchema),
});

export const inviteStatusSchema = z.enum(['pending', 'accepted', 'expired']);
export type InviteStatus = z.infer<typeof inviteStatusSchema>;

/** A user as every API answer carries it. Never a password or a hash. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  mobileNo: z.string().nullable(),
  enabled: z.boolean(),
  isActive: z.boolean(),
  isSubscription: z.boolean(),
  client: z.string().nullable(),
  roleId: z.string(),
  role: roleSummarySchema,
  organizationId: z.string(),
  isAdmin: z.boolean(),
  inviteStatus: inviteStatusSchema,
  profileImage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;
export type RoleSummary = z.infer<typeof roleSummarySchema>;
