export { profileRoutes } from './profile.routes.js';
export { requireActiveSubscription, type SubscriptionGuardedChange } from './subscription-guard.js';
