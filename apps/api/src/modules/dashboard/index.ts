export { dashboardRoutes } from './dashboard.routes.js';
