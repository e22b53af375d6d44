import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict } from '../lib/errors.js';
import errorsPlugin from './errors.js';

async function appWithRoutes() {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/boom', async () => {
    throw new Error('connection string postgres://secret@db');
  });
  typed.get('/taken', async () => {
    throw conflict('A user with this username or email already exists.');
  });
  typed.post(
    '/echo',
    { schema: { body: z.object({ name: z.string().min(3, 'Name is too short') }) } },
    async (r) => r.body,
  );
  return app;
}

describe('error handler', () => {
  it('hides the details of a 5xx behind a generic message', async () => {
    const app = await appWithRoutes();
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      message: 'Something went wrong on our side. Please try again.',
      errors: {},
    });
    expect(res.body).not.toContain('secret');
  });

  it('passes a rule’s own message and status through', async () => {
    const res = await (await appWithRoutes()).inject({ url: '/taken' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A user with this username or email already exists.');
  });

  it('answers a validation failure with 400, the first message and the field errors', async () => {
    const res = await (
      await appWithRoutes()
    ).inject({ method: 'POST', url: '/echo', payload: { name: 'ab' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'Name is too short',
      errors: { name: ['Name is too short'] },
    });
  });

  it('answers malformed JSON with 400 in the same shape', async () => {
    const res = await (
      await appWithRoutes()
    ).inject({
      method: 'POST',
      url: '/echo',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errors: {} });
  });
});
