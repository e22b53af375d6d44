import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;
type ZodRoute = Parameters<typeof zodSerializerCompiler>[0];

/** fast-json-stringify for the schema's JSON Schema, or null when the schema has no JSON form. */
function compileFastWriter(schema: unknown): Serialize | null {
  if (!(schema instanceof z.ZodType)) return null;
  try {
    // `throw`: a transform or other output JSON Schema cannot describe keeps zod's own writer.
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}

/**
 * Writes each answer with fast-json-stringify, compiled from the route's zod schema through its JSON
 * Schema (the one the OpenAPI document shows). The type provider's own writer encoded every answer
 * with zod before `JSON.stringify`: on a bare Fastify, a small route ran at 0.80 of its rate without
 * a schema with that writer, and at 1.05 with this one (docs/decisions/009).
 *
 * Like zod's, it writes only the schema's fields, so a field a handler left on a row (a password
 * hash) never leaves, and it fails on a missing required field. Unlike zod's, it does not check
 * types: with `checkAgainstZod` (development and tests), every answer is also written by zod and the
 * two compared, so a handler's wrong value, or any difference between the two writers, fails the
 * request that showed it. Each route's writer is compiled on its first answer, not at start.
 */
export function createResponseSerializerCompiler(options: {
  checkAgainstZod: boolean;
}): FastifySerializerCompiler<unknown> {
  return (route) => {
    let fast: Serialize | null | undefined;
    let zod: Serialize | undefined;
    const zodWriter = () => (zod ??= zodSerializerCompiler(route as ZodRoute) as Serialize);
    return (data) => {
      if (fast === undefined) fast = compileFastWriter(route.schema);
      if (fast === null) return zodWriter()(data);
      const json = fast(data);
      if (options.checkAgainstZod) {
        const expected = zodWriter()(data);
        if (!isDeepStrictEqual(JSON.parse(json), JSON.parse(expected))) {
          throw new Error(`${route.method} ${route.url}: the fast writer wrote ${json}, zod ${expected}`);
        }
      }
      return json;
    };
  };
}
