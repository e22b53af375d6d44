import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { successSchema, userSchema, type User } from '@portal/shared';
import { createResponseSerializerCompiler } from './response-serializer.js';

const user: User = {
  id: 'u1',
  username: 'asha',
  email: 'asha@example.test',
  fullName: null,
  mobileNo: '9876543210',
  enabled: true,
  isActive: true,
  isSubscription: false,
  client: 'Acme',
  roleId: 'r1',
  role: {
    id: 'r1',
    name: 'admin',
    isSystem: true,
    permissions: [
      { id: 'p1', featureId: 'users', featureName: 'User Management', permissionScopes: ['READ'] },
    ],
  },
  organizationId: 'o1',
  isAdmin: true,
  inviteStatus: 'accepted',
  profileImage: null,
  createdAt: '2026-11-24T07:00:00.000Z',
  updatedAt: '2026-11-24T07:00:00.000Z',
};

function writer(schema: z.ZodType, checkAgainstZod: boolean) {
  const compile = createResponseSerializerCompiler({ checkAgainstZod });
  return compile({ schema, method: 'GET', url: '/test', httpStatus: '200' }) as (data: unknown) => string;
}

describe.each([true, false])('response writer (checked against zod: %s)', (checkAgainstZod) => {
  const write = writer(successSchema(userSchema), checkAgainstZod);

  it('writes exactly what zod writes', () => {
    const answer = { success: true as const, data: user };
    expect(write(answer)).toBe(JSON.stringify(z.encode(successSchema(userSchema), answer)));
  });

  it('writes no field the schema does not have, at any depth', () => {
    const leaky = { ...user, passwordHash: 'argon2-secret', role: { ...user.role, internal: 'x' } };
    const json = write({ success: true, data: leaky });
    expect(json).not.toContain('argon2-secret');
    expect(json).not.toContain('internal');
  });

  it('refuses an answer missing a required field', () => {
    const { email: _email, ...withoutEmail } = user;
    expect(() => write({ success: true, data: withoutEmail })).toThrow();
  });

  it("leaves a schema JSON Schema cannot describe (a codec) to zod's writer", () => {
    const at = z.codec(z.iso.datetime(), z.date(), {
      decode: (text) => new Date(text),
      encode: (date) => date.toISOString(),
    });
    const encoded = writer(z.object({ at }), checkAgainstZod);
    expect(encoded({ at: new Date('2026-11-24T07:00:00.000Z') })).toBe('{"at":"2026-11-24T07:00:00.000Z"}');
  });
});

describe('response writer in development and tests', () => {
  it('refuses a value of the wrong type, which the fast writer alone would coerce', () => {
    const write = writer(successSchema(userSchema), true);
    expect(() => write({ success: true, data: { ...user, username: 42 } })).toThrow();
  });
});
