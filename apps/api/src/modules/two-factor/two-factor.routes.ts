import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  confirmTwoFactorBodySchema,
  enableTwoFactorBodySchema,
  messages,
  okSchema,
  recoveryCodesSchema,
  successSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import {
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  replaceAuthenticator,
  startSetup,
  twoFactorStatus,
} from './two-factor.service.js';

const tags = ['two-factor'];
const withMessage = successSchema(recoveryCodesSchema).extend({ message: z.string() });

/** The signed-in user's own second factor. Status and enrolment are open to a user who must enrol. */
export async function twoFactorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/two-factor',
    {
      config: { access: access.beforeEnrolment },
      schema: {
        tags,
        summary: 'Whether two-factor sign-in is on, required, and recovery codes left',
        response: { 200: successSchema(twoFactorStatusSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await twoFactorStatus(app.deps, requireActor(request)),
    }),
  );

  app.post(
    '/api/auth/two-factor/setup',
    {
      config: { access: access.beforeEnrolment },
      schema: {
        tags,
        summary: 'A new secret to scan (replaces one not yet confirmed)',
        response: { 200: successSchema(twoFactorSetupSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await startSetup(app.deps, requireActor(request)) }),
  );

  app.post(
    '/api/auth/two-factor/enable',
    {
      config: { access: access.beforeEnrolment },
      schema: {
        tags,
        summary: 'Confirm the new secret with a code; answers the recovery codes, shown this once',
        body: enableTwoFactorBodySchema,
        response: { 200: withMessage },
      },
    },
    async (request) => {
      const recoveryCodes = await enableTwoFactor(app.deps, requireActor(request), request.body);
      return { success: true as const, message: messages.twoFactor.enabled, data: { recoveryCodes } };
    },
  );

  app.post(
    '/api/auth/two-factor/disable',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off (the password and a current code)',
        body: confirmTwoFactorBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await disableTwoFactor(app.deps, requireActor(request), request.body);
      return { success: true as const, message: messages.twoFactor.disabled };
    },
  );

  app.post(
    '/api/auth/two-factor/recovery-codes',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'New recovery codes (the password and a current code); the old ones stop working',
        body: confirmTwoFactorBodySchema,
        response: { 200: withMessage },
      },
    },
    async (request) => {
      const recoveryCodes = await regenerateRecoveryCodes(app.deps, requireActor(request), request.body);
      return {
        success: true as const,
        message: messages.twoFactor.recoveryCodesMade,
        data: { recoveryCodes },
      };
    },
  );

  app.post(
    '/api/auth/two-factor/replace',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary:
          'Set up a new authenticator for a lost one (the password and a current code or a recovery code); answers the new secret, confirmed by /enable',
        body: confirmTwoFactorBodySchema,
        response: { 200: successSchema(twoFactorSetupSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => ({
      success: true as const,
      message: messages.twoFactor.replaceStarted,
      data: await replaceAuthenticator(app.deps, requireActor(request), request.body),
    }),
  );
}
