export { supportRoutes } from './support.routes.js';
