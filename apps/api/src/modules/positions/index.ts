export { positionsRoutes } from './positions.routes.js';
