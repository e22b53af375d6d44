export { billingRoutes } from './billing.routes.js';
export { authenticateApiKey, type ApiClient } from './api-keys.service.js';
export { pruneIdempotencyKeys } from './idempotency.service.js';
export { renewalChargeJob, renewalRunJob } from './renewals.service.js';
