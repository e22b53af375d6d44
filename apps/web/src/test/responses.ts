import { HttpResponse, type JsonBodyType } from 'msw';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, pageSchema, successSchema, type ApiError, type PageMeta } from '@portal/shared';

/**
 * The API's answers, for MSW handlers. Each body is parsed by the zod schema the API's route declares
 * for it (apps/api/src/modules/x/x.routes.ts, `response`), as the API's serializer does: a fixture that
 * drifts from the contract fails the test instead of passing against a shape the API never sends.
 */

function json(schema: z.ZodType, body: unknown, status: number, headers?: HeadersInit) {
  return HttpResponse.json(schema.parse(body) as JsonBodyType, { status, headers });
}

/** A whole body parsed by `schema`: for the few routes whose envelope is their own (notifications). */
export function answer<S extends z.ZodType>(schema: S, body: z.input<S>, status = 200) {
  return json(schema, body, status);
}

/** `{success: true, data}` (`successSchema(schema)`), with the route's `message` when it has one. */
export function ok<S extends z.ZodType>(
  schema: S,
  data: z.input<S>,
  options: { status?: number; message?: string; headers?: HeadersInit } = {},
) {
  const { status = 200, message, headers } = options;
  return message === undefined
    ? json(successSchema(schema), { success: true, data }, status, headers)
    : json(
        successSchema(schema).extend({ message: z.string() }),
        { success: true, data, message },
        status,
        headers,
      );
}

/** `{success: true, message}` (`okSchema`): routes that answer no data. */
export function done(message?: string) {
  return answer(z.object({ success: z.literal(true), message: z.string().optional() }), {
    success: true,
    message,
  });
}

/** `{success: true, data, meta}` (`pageSchema(schema)`): one page, `total` the whole list's length. */
export function page<S extends z.ZodType>(schema: S, items: z.input<S>[], meta: Partial<PageMeta> = {}) {
  const body = {
    success: true,
    data: items,
    meta: { page: 1, pageSize: DEFAULT_PAGE_SIZE, total: items.length, ...meta },
  };
  return json(pageSchema(schema), body, 200);
}

/** The page of `all` that `request` asks for by its `page` and `pageSize`, as the API slices a list. */
export function pageOf<S extends z.ZodType>(schema: S, all: z.input<S>[], request: Request) {
  const query = new URL(request.url).searchParams;
  const number = Number(query.get('page') ?? 1);
  const size = Number(query.get('pageSize') ?? DEFAULT_PAGE_SIZE);
  return page(schema, all.slice((number - 1) * size, number * size), {
    page: number,
    pageSize: size,
    total: all.length,
  });
}

/** A refusal, `{success: false, message, errors}`, as the API's error handler writes it. */
export function refusal(status: number, message: string, errors: Record<string, string[]> = {}) {
  const body: ApiError = { success: false, message, errors };
  return HttpResponse.json(body, { status });
}

/** A file the API generates (an export, a PDF), named as its `Content-Disposition` names it. */
export function file(name: string, contentType: string, content = 'file') {
  return new HttpResponse(content, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  });
}

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
