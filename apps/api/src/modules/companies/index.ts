export { companiesRoutes } from './companies.routes.js';
