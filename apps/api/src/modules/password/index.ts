export { passwordRoutes } from './password.routes.js';
export { issuePasswordLink, issuePasswordLinks, passwordResetMailJob } from './password-links.service.js';
export type { TokenPurpose } from './one-time-tokens.repo.js';
