export { activityRoutes } from './activity.routes.js';
export { recentActivities } from './activity.service.js';
