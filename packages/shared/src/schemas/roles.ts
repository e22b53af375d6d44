import { z } from 'zod';
import { ROLE_NAME_MIN_LENGTH } from '../constants.js';
import { featureDescription, messages } from '../messages.js';
import { normalizeScopes, scopesFromBitmask, type Scope } from '../permissions.js';
import { listQuerySchema } from './common.js';
import { permissionEntrySchema } from './users.js';

/** Letters, digits, spaces, underscore, dot and hyphen. */
export const ROLE_NAME_PATTERN = /^[A-Za-z0-9 _.-]+$/;
export const ROLE_NAME_MAX_LENGTH = 100;

/**
 * The role name rule, checked in this order: trimmed, required, at least 3 characters,
 * allowed characters. The first issue is the one a form or the API shows.
 */
export const roleNameSchema = z
  .string()
  .trim()
  .min(1, messages.roles.nameRequired)
  .min(ROLE_NAME_MIN_LENGTH, messages.roles.nameTooShort)
  .max(ROLE_NAME_MAX_LENGTH, messages.roles.nameTooLong)
  .regex(ROLE_NAME_PATTERN, messages.roles.nameInvalid);

/** The first broken rule of a role name, or null when it is valid (for validate-on-blur). */
export function roleNameError(value: string): string | null {
  const result = roleNameSchema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? messages.roles.nameRequired);
}

/**
 * One permission entry as a client sends it: the list shape (`permissionScopes`), or the legacy
 * shape with a numeric bitmask in `permissions` (READ=1 … IMPORT=32). The feature is named by id
 * or by name. Unknown scope strings are ignored.
 */
export const permissionInputSchema = z
  .object({
    id: z.string().max(100).optional(),
    featureId: z.string().trim().max(100).optional(),
    featureName: z.string().trim().max(200).optional(),
    permissionScopes: z.array(z.string().max(40)).max(50).optional(),
    permissions: z.number().int().min(0).max(63).optional(),
  })
  .refine((p) => p.featureId || p.featureName, {
    message: messages.roles.featureRequired,
    path: ['featureId'],
  });
export type PermissionInput = z.infer<typeof permissionInputSchema>;

/** The scopes one input entry grants, whichever shape it uses. */
export function scopesOfInput(entry: Pick<PermissionInput, 'permissionScopes' | 'permissions'>): Scope[] {
  const fromList = normalizeScopes(entry.permissionScopes ?? []);
  const fromMask = typeof entry.permissions === 'number' ? scopesFromBitmask(entry.permissions) : [];
  return normalizeScopes([...fromList, ...fromMask]);
}

/**
 * Role payload (`code`, `name`, `permissions`, `isSystem`). `code` always equals the
 * name and `isSystem` is always false for roles made through the API, so both are accepted and
 * ignored. `organizationId` lets the super administrator create a role for a tenant.
 */
export const roleInputSchema = z.object({
  name: roleNameSchema,
  code: z.string().max(200).optional(),
  isSystem: z.boolean().optional(),
  organizationId: z.uuid().optional(),
  permissions: z
    .array(permissionInputSchema)
    .max(100)
    .refine((list) => list.some((p) => scopesOfInput(p).length > 0), messages.roles.permissionRequired),
});
export type RoleInput = z.infer<typeof roleInputSchema>;

/**
 * PUT /api/auth/roles/{id}/two-factor: whether the role's users must sign in with a second factor.
 * The platform operator's policy (REQUIREMENTS.requireTwoFactor), for any role, system roles too,
 * apart from the super administrator's, which always requires it.
 */
export const roleTwoFactorBodySchema = z.object({ required: z.boolean() });

/** A role as every API answer carries it. `code` equals `name`; permissions use the list shape. */
export const roleSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  isSystem: z.boolean(),
  organizationId: z.string().nullable(),
  /** The custom role's organization (null for a system role). */
  organizationName: z.string().nullable(),
  permissions: z.array(permissionEntrySchema),
  /** Its users must sign in with a second factor (always, for the super administrator's role). */
  requireTwoFactor: z.boolean(),
  /** Users of the caller's view (their organization, or all for the super administrator) holding it. */
  userCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const roleListQuerySchema = listQuerySchema.extend({
  /** Matches the role name or id (a leading `#` is ignored, as ids are shown `#id`). */
  search: z.string().trim().max(200).optional(),
  /** Without `sort`: system roles first, then by name. */
  sort: z.enum(['name', 'createdAt', 'status']).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
  /** Super administrator only: system roles plus this organization's roles. */
  organizationId: z.uuid().optional(),
});
export type RoleListQuery = z.infer<typeof roleListQuerySchema>;

export const featureSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type Feature = z.infer<typeof featureSchema>;

/** Feature defaults: name 'Unknown Feature', description '{name} functionality'. */
export function normalizeFeature(raw: { id: unknown; name?: unknown; description?: unknown }): Feature {
  const name =
    typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : messages.roles.unknownFeature;
  const description =
    typeof raw.description === 'string' && raw.description.trim() !== ''
      ? raw.description
      : featureDescription(name);
  return { id: String(raw.id), name, description };
}

/** UI labels of the six scopes (view, create, update, delete, export, import). */
export const roleScopeLabels: Record<Scope, string> = {
  READ: messages.roles.view,
  CREATE: messages.roles.create,
  UPDATE: messages.roles.update,
  DELETE: messages.roles.delete,
  EXPORT: messages.roles.export,
  IMPORT: messages.roles.import,
};
