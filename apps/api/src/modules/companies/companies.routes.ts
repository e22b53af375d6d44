import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companyAnswerSchema,
  companyDetailsBodySchema,
  companyDetailsSchema,
  messages,
  organizationIdParamsSchema,
  successSchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { getCompany, saveCompany } from './companies.service.js';

const tags = ['companies'];

export async function companiesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/companies/:organizationId',
    {
      config: { access: access.can('organizations', 'READ') },
      schema: {
        tags,
        summary:
          'Company details of an organization (own organization; any for super_admin); null if none yet, with the GST particulars given at onboarding to start from',
        params: organizationIdParamsSchema,
        response: { 200: companyAnswerSchema },
      },
    },
    async (request) => {
      const { details, onboarding } = await getCompany(app.deps, requireActor(request), request.params);
      return { success: true as const, data: details, onboarding };
    },
  );

  app.post(
    '/api/auth/companies',
    {
      config: { access: access.can('organizations', 'UPDATE') },
      schema: {
        tags,
        summary: 'Save (create or replace) the company details of an organization',
        body: companyDetailsBodySchema,
        response: { 200: successSchema(companyDetailsSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => ({
      success: true as const,
      message: messages.profile.companySaved,
      data: await saveCompany(app.deps, requireActor(request), request.body),
    }),
  );
}
