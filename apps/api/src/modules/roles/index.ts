export { rolesRoutes } from './roles.routes.js';
