import { z } from 'zod';
import { messages } from '../messages.js';
import { listQuerySchema } from './common.js';

export const POSITION_STATUSES = ['Open', 'Closed'] as const;
export const positionStatusSchema = z.enum(POSITION_STATUSES);
export type PositionStatus = z.infer<typeof positionStatusSchema>;

export const POSITION_TEXT_MAX = 120;
export const POSITION_OPENINGS_MAX = 1000;

const positionMessages = messages.positions;

const text = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(POSITION_TEXT_MAX, positionMessages.tooLong);

/** The create and edit form, shared by the dialog and the server. */
export const positionFormSchema = z.object({
  title: text(positionMessages.titleRequired),
  department: text(positionMessages.departmentRequired),
  location: text(positionMessages.locationRequired),
  openings: z
    .number({ error: positionMessages.openingsInvalid })
    .int(positionMessages.openingsInvalid)
    .min(1, positionMessages.openingsInvalid)
    .max(POSITION_OPENINGS_MAX, positionMessages.openingsTooMany),
});
export type PositionForm = z.infer<typeof positionFormSchema>;

export const createPositionBodySchema = positionFormSchema.extend({
  /** super_admin may create for any organization; others always create for their own. */
  organizationId: z.uuid().optional(),
});
export type CreatePositionBody = z.infer<typeof createPositionBodySchema>;

export const updatePositionBodySchema = positionFormSchema;
export type UpdatePositionBody = z.infer<typeof updatePositionBodySchema>;

export const POSITION_SORTS = ['title', 'department', 'location', 'openings', 'status', 'createdAt'] as const;

export const positionListQuerySchema = listQuerySchema.extend({
  status: positionStatusSchema.optional(),
  sort: z.enum(POSITION_SORTS).default('createdAt'),
  organizationId: z.uuid().optional(),
});
export type PositionListQuery = z.infer<typeof positionListQuerySchema>;

export const positionSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  title: z.string(),
  department: z.string(),
  location: z.string(),
  openings: z.number(),
  status: positionStatusSchema,
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Position = z.infer<typeof positionSchema>;
