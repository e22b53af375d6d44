export { createMetrics, type JobOutcome, type Metrics } from './metrics.js';
export type { BusinessMetrics } from './business.js';
export { observeDatabase } from './database.js';
export { observeSharedState } from './shared-state.js';
export { listenForScrapes, type ScrapeServer } from './scrape-server.js';
