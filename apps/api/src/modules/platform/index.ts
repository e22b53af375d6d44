export { platformRoutes } from './platform.routes.js';
export { runHousekeeping, type Pruner } from './housekeeping.service.js';
