export { notificationsRoutes } from './notifications.routes.js';
export { subscriptionNoticesJob } from './subscription-notices.job.js';
export {
  activeOrganizationAdmins,
  notifyOrganizationAdmins,
  notifySuperAdmins,
  notifyUser,
  type OrganizationNotice,
} from './notifications.service.js';
export type { NotificationInput } from './notifications.repo.js';
