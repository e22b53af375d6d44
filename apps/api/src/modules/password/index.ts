export { passwordRoutes } from './password.routes.js';
export { issuePasswordLink } from './password-links.service.js';
export type { TokenPurpose } from './one-time-tokens.repo.js';
