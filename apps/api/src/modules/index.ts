import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from '../core/jobs.js';
import { authRoutes } from './auth/index.js';
import {
  billingRoutes,
  mandateAuthorizationRefundJob,
  mandateTokenCancelJob,
  pruneIdempotencyKeys,
  renewalChargeJob,
  renewalRunJob,
} from './billing/index.js';
import { activityRoutes } from './activity/index.js';
import { dashboardRoutes } from './dashboard/index.js';
import { notificationsRoutes, subscriptionNoticesJob } from './notifications/index.js';
import { positionsRoutes } from './positions/index.js';
import { housekeepingJob, platformRoutes, type Pruner } from './platform/index.js';
import { mailDeliveryJob, mailRoutes } from './mail/index.js';
import { featuresRoutes } from './features/index.js';
import { rolesRoutes } from './roles/index.js';
import { usersRoutes } from './users/index.js';
import { importCommitJob, importsRoutes } from './imports/index.js';
import { organizationsRoutes } from './organizations/index.js';
import { companiesRoutes } from './companies/index.js';
import { filesRoutes, pruneUnreferencedFiles } from './files/index.js';
import { passwordResetMailJob, passwordRoutes } from './password/index.js';
import { profileRoutes } from './profile/index.js';
import { supportRoutes } from './support/index.js';
import { invoicesRoutes } from './invoices/index.js';
import { pruneEndedSessions, sessionsRoutes } from './sessions/index.js';
import { twoFactorRoutes } from './two-factor/index.js';

/**
 * Every module's routes. A new module adds one line here.
 *
 * Each /api/auth/<area> is served by the module of that name, but for SPEC URLs kept as they were:
 * - auth: /api/auth/auth-session/* (sign-in, refresh, sign-out, who-am-I, register, which asks
 *   users to invite) and /api/refresh, the refresh's alias.
 * - password: /api/auth/forgot-password, /api/auth/reset-password(/check), PUT /api/auth/users/password.
 * - users: /api/auth/users/:id/end-sessions and /two-factor/reset (the operator's acts on a user; it
 *   asks sessions and two-factor).
 * - platform: /api/health.
 */
/** Each module's share of the hourly housekeeping (it writes only its own tables). */
export const housekeepingPruners: readonly Pruner[] = [
  { name: 'sessions', prune: pruneEndedSessions },
  { name: 'unreferencedFiles', prune: pruneUnreferencedFiles },
  { name: 'idempotencyKeys', prune: pruneIdempotencyKeys },
];

/** Every module's background work (core/jobs.ts): a new kind of job adds one line here. */
export const jobDefinitions: readonly JobDefinition[] = [
  mailDeliveryJob,
  passwordResetMailJob,
  housekeepingJob(housekeepingPruners),
  subscriptionNoticesJob,
  renewalRunJob,
  renewalChargeJob,
  mandateAuthorizationRefundJob,
  mandateTokenCancelJob,
  importCommitJob,
];

export async function registerModules(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(platformRoutes);
  await app.register(featuresRoutes);
  await app.register(rolesRoutes);
  await app.register(usersRoutes);
  await app.register(importsRoutes);
  await app.register(organizationsRoutes);
  await app.register(filesRoutes);
  await app.register(profileRoutes);
  await app.register(companiesRoutes);
  await app.register(passwordRoutes);
  await app.register(supportRoutes);
  await app.register(activityRoutes);
  await app.register(notificationsRoutes);
  await app.register(dashboardRoutes);
  await app.register(positionsRoutes);
  await app.register(billingRoutes);
  await app.register(invoicesRoutes);
  await app.register(twoFactorRoutes);
  await app.register(sessionsRoutes);
  await app.register(mailRoutes);
}
