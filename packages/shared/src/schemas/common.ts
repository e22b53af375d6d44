import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';

/** Success and error envelopes (docs/product.md, "Messages"). */
export interface ApiSuccess<T> {
  success: true;
  data: T;
}
export interface PageMeta {
  page: number;
  pageSize: number;
  total: number;
}
export interface ApiPage<T> extends ApiSuccess<T[]> {
  meta: PageMeta;
}
export interface ApiError {
  success: false;
  message: string;
  errors?: Record<string, string[]> | { field: string; message: string }[];
}

export const uuidSchema = z.uuid();
export const idParamsSchema = z.object({ id: z.uuid() });

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
  sort: z.string().max(40).optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export function pageMetaSchema() {
  return z.object({ page: z.number(), pageSize: z.number(), total: z.number() });
}

export function successSchema<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), meta: pageMetaSchema() });
}

export const okSchema = z.object({ success: z.literal(true), message: z.string().optional() });
