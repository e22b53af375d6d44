import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/auth.routes.js';
import { featuresRoutes } from './features/features.routes.js';
import { rolesRoutes } from './roles/roles.routes.js';
import { usersRoutes } from './users/users.routes.js';

/** Every module's routes. A new module adds one line here. */
export async function registerModules(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(featuresRoutes);
  await app.register(rolesRoutes);
  await app.register(usersRoutes);
}
