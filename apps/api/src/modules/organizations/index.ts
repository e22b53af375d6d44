export { organizationsRoutes } from './organizations.routes.js';
export {
  createOrganizationIfMissing,
  findOrganization,
  type OrganizationSummary,
} from './organizations.service.js';
