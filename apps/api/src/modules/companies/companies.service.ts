import type { FastifyInstance } from 'fastify';
import { messages, type CompanyDetails, type CompanyDetailsFields } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { requireActiveSubscription } from '../profile/subscription-guard.js';
import { findCompanyDetails, organizationExists, upsertCompanyDetails } from './companies.repo.js';

/** Own organization only (any for super_admin); another tenant's answers 404 like a missing one. */
async function requireReachableOrganization(db: Db, auth: Actor, organizationId: string) {
  const scope = tenantScope(auth);
  if ((scope && scope !== organizationId) || !(await organizationExists(db, organizationId))) {
    throw notFound(messages.company.organizationNotFound);
  }
}

/** The organization's company details, or null while none were saved. */
export async function getCompany(
  app: FastifyInstance,
  auth: Actor,
  organizationId: string,
): Promise<CompanyDetails | null> {
  await requireReachableOrganization(app.db, auth, organizationId);
  return findCompanyDetails(app.db, organizationId);
}

export async function saveCompany(
  app: FastifyInstance,
  auth: Actor,
  organizationId: string,
  fields: CompanyDetailsFields,
): Promise<CompanyDetails> {
  await requireReachableOrganization(app.db, auth, organizationId);
  await requireActiveSubscription(app.db, auth, organizationId, 'company');
  return app.db.transaction(async (tx) => {
    const { details, created } = await upsertCompanyDetails(tx, organizationId, fields, auth.userId);
    await recordActivity(tx, {
      organizationId,
      actorUserId: auth.userId,
      action: created ? 'created' : 'updated',
      entityType: 'company',
      entityId: organizationId,
      message: `${created ? 'Added' : 'Updated'} the company details of ${details.name}`,
    });
    return details;
  });
}
