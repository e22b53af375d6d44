export { twoFactorRoutes } from './two-factor.routes.js';
export {
  readSecondStep,
  resetSecondFactor,
  signInChallenge,
  twoFactorState,
  type SecondStepClaim,
} from './two-factor.service.js';
