export { companiesRoutes } from './companies.routes.js';
export {
  companyTaxParticulars,
  getCompany,
  saveCompany,
  type CompanyTaxParticulars,
} from './companies.service.js';
