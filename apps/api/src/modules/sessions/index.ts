export { sessionsRoutes } from './sessions.routes.js';
export {
  endOtherSessions,
  endSessionFamily,
  endUserSessions,
  findSession,
  issueSession,
  markSecondFactor,
  revokeAllSessions,
  rotateSession,
} from './sessions.service.js';

export { pruneEndedSessions } from './sessions.service.js';
