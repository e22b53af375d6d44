export { featuresRoutes } from './features.routes.js';
export { featureRows } from './features.service.js';
export type { FeatureRow } from './features.repo.js';
