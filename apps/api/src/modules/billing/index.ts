export { billingRoutes } from './billing.routes.js';
export { authenticateApiKey, type ApiClient } from './api-keys.service.js';
export { pruneIdempotencyKeys } from './idempotency.service.js';
export { mandateAuthorizationRefundJob, mandateTokenCancelJob } from './mandates.service.js';
export { renewalChargeJob } from './renewal-charges.service.js';
export { renewalRunJob } from './renewals.service.js';
export { onboardIn, type Onboarded } from './onboarding.service.js';
