export { mailRoutes } from './mail.routes.js';
export { mailDeliveryJob } from './mail-delivery.job.js';
