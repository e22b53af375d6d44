export { platformRoutes } from './platform.routes.js';
export { housekeepingJob } from './housekeeping.job.js';
export { runHousekeeping, type Pruner } from './housekeeping.service.js';
