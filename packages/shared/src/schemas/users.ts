import { z } from 'zod';
import { MOBILE_DIGITS, USERNAME_MAX, USERNAME_MIN } from '../constants.js';
import { messages } from '../messages.js';
import { SCOPES } from '../permissions.js';
import { listQuerySchema } from './common.js';

/** Field rules with their messages, used by forms and by the server. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USERNAME_PATTERN = new RegExp(`^[A-Za-z0-9._-]{${USERNAME_MIN},${USERNAME_MAX}}$`);
export const MOBILE_PATTERN = new RegExp(`^\\d{${MOBILE_DIGITS}}$`);

// A missing field fails with the rule's own message, so the server answers as the form would.
export const emailSchema = z
  .string({ error: messages.users.invalidEmail })
  .trim()
  .max(254)
  .regex(EMAIL_PATTERN, messages.users.invalidEmail)
  .transform((v) => v.toLowerCase());
export const usernameSchema = z
  .string({ error: messages.users.invalidUsername })
  .trim()
  .regex(USERNAME_PATTERN, messages.users.invalidUsername);
export const mobileSchema = z
  .string({ error: messages.users.invalidMobile })
  .trim()
  .regex(MOBILE_PATTERN, messages.users.invalidMobile);
export const companyNameSchema = z
  .string({ error: messages.users.companyRequired })
  .trim()
  .min(1, messages.users.companyRequired)
  .max(200);

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
  /** Whether the user has a second factor: on the Users screen's list and a user read by id. */
  twoFactorEnabled: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;
export type RoleSummary = z.infer<typeof roleSummarySchema>;

/** A required id whose absence answers with the given text ('organizationId is required'). */
function requiredId(required: string, invalid: string) {
  return z.uuid({
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === '' ? required : invalid,
  });
}

/**
 * POST /api/auth/users/as/admin and POST /api/auth/auth-session/register. Keys are in the order the
 * invite form checks them (docs/product.md, "Users and invitations"), so the first failing rule is
 * the message the server answers with. A `password` sent by an old client is accepted and ignored:
 * users set their own through the invite link.
 */
export const createUserBodySchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  mobileNo: mobileSchema,
  client: companyNameSchema,
  organizationId: requiredId(messages.users.organizationIdRequired, messages.users.organizationIdInvalid),
  roleId: requiredId(messages.users.roleIdRequired, messages.users.roleIdInvalid),
  fullName: z.string().trim().max(100).nullish(),
  isAdmin: z.boolean().optional(),
  isSubscription: z.boolean().optional(),
  isActive: z.boolean().optional(),
  enabled: z.boolean().optional(),
  password: z.string().max(200).optional(),
});
export type CreateUserBody = z.input<typeof createUserBodySchema>;

/**
 * The invite, edit and register forms' contact fields, in the order they are checked (email,
 * username, mobile, company): the web app reports the first broken one as a toast.
 */
export const userContactFieldsSchema = createUserBodySchema.pick({
  email: true,
  username: true,
  mobileNo: true,
  client: true,
});
export type CreateUserInput = z.output<typeof createUserBodySchema>;

/**
 * PUT /api/auth/users/:id. Profile fields (username, fullName, mobileNo) on one's own record; the
 * rest needs User Management UPDATE. `email` may be sent but must equal the stored one.
 * `password`, `role`, `profileImage` and `isSubscription` are accepted and ignored (other routes own them).
 */
export const updateUserBodySchema = z.object({
  email: z.string().max(254).optional(),
  username: usernameSchema.optional(),
  fullName: z.string().trim().min(1).max(100).nullish(),
  mobileNo: mobileSchema.optional(),
  client: companyNameSchema.optional(),
  roleId: z.uuid({ error: messages.users.roleIdInvalid }).optional(),
  organizationId: z.string().optional(),
  isActive: z.boolean().optional(),
  enabled: z.boolean().optional(),
  isAdmin: z.boolean().optional(),
  isSubscription: z.boolean().optional(),
  password: z.string().max(200).optional(),
  role: z.unknown().optional(),
  profileImage: z.unknown().optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const USER_SORT_FIELDS = ['username', 'email', 'client', 'createdAt', 'status'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const USER_STATUS_FILTERS = ['active', 'inactive'] as const;

/** Filters shared by GET /api/auth/users and its export. `role` is a role name or id. */
export const userFilterSchema = z.object({
  search: z.string().trim().max(200).optional(),
  role: z.string().trim().min(1).max(100).optional(),
  status: z.enum(USER_STATUS_FILTERS).optional(),
  organizationId: z.uuid().optional(),
  sort: z.enum(USER_SORT_FIELDS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});

export const userListQuerySchema = listQuerySchema.extend(userFilterSchema.shape);
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const userExportQuerySchema = userFilterSchema.extend({
  format: z.enum(['xlsx', 'csv']).default('xlsx'),
});
export type UserExportQuery = z.infer<typeof userExportQuerySchema>;

/**
 * What the invite screen keeps in session storage under `pendingUserData` for the
 * subscription screen. No password: the invited user sets one through the emailed link.
 */
export const pendingUserDataSchema = z.object({
  username: z.string(),
  email: z.string(),
  mobileNo: z.string(),
  client: z.string(),
  organizationId: z.string(),
  roleId: z.string(),
  isSubscription: z.boolean(),
  isActive: z.boolean(),
  createAsAdmin: z.boolean(),
});
export type PendingUserData = z.infer<typeof pendingUserDataSchema>;

/** An organization as GET /api/auth/organizations lists it. */
export const organizationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  isPlatform: z.boolean(),
  createdAt: z.string(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;
