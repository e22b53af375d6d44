import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/auth.routes.js';
import { billingRoutes } from './billing/billing.routes.js';
import { activityRoutes } from './activity/activity.routes.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { notificationsRoutes } from './notifications/notifications.routes.js';
import { positionsRoutes } from './positions/positions.routes.js';
import { platformRoutes } from './platform/platform.routes.js';
import { featuresRoutes } from './features/features.routes.js';
import { rolesRoutes } from './roles/roles.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { organizationsRoutes } from './organizations/organizations.routes.js';
import { companiesRoutes } from './companies/companies.routes.js';
import { filesRoutes } from './files/files.routes.js';
import { passwordRoutes } from './password/password.routes.js';
import { profileRoutes } from './profile/profile.routes.js';
import { supportRoutes } from './support/support.routes.js';
import { invoicesRoutes } from './invoices/invoices.routes.js';
import { sessionsRoutes } from './sessions/sessions.routes.js';
import { twoFactorRoutes } from './two-factor/two-factor.routes.js';

/** Every module's routes. A new module adds one line here. */
export async function registerModules(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(platformRoutes);
  await app.register(featuresRoutes);
  await app.register(rolesRoutes);
  await app.register(usersRoutes);
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
}
