export { organizationsRoutes } from './organizations.routes.js';
export {
  createOrganizationIfMissing,
  findOrganization,
  organizationsByIdOrName,
  recordTaxParticulars,
  type MatchableOrganization,
  type OrganizationSummary,
  type OrganizationTaxParticulars,
} from './organizations.service.js';
