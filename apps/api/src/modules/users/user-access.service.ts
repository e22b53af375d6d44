import { meets, messages, REQUIREMENTS } from '@portal/shared';
import { forbidden, notFound } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { endUserSessions } from '../sessions/index.js';
import { resetSecondFactor } from '../two-factor/index.js';
import { assertManageable } from './rules.js';
import { findUserRecord } from './users.repo.js';

/**
 * The user another user's act is on, once the actor may manage them (no wider role): 404 when there
 * is none. Any tenant's user: these acts are the platform operator's.
 */
async function manageableUser(deps: Deps, actor: Actor, userId: string) {
  const user = (await findUserRecord(deps.db, userId))?.user;
  if (!user) throw notFound(messages.users.notFound);
  await assertManageable(deps.db, actor, user.roleId);
  return user;
}

/**
 * POST /api/auth/users/:id/end-sessions: the platform operator signs a user out everywhere (a lost
 * laptop, a departing employee); answers how many sessions ended. Who may is checked first, as
 * sessions checks it, so a refusal reveals nothing of the user.
 */
export async function endSessionsOfUser(deps: Deps, actor: Actor, input: { id: string }): Promise<number> {
  if (!meets(actor, REQUIREMENTS.endUserSessions)) throw forbidden();
  const user = await manageableUser(deps, actor, input.id);
  return endUserSessions(deps, actor, { userId: user.id });
}

/**
 * POST /api/auth/users/:id/two-factor/reset: removes another user's second factor (lost
 * authenticator and recovery codes); two-factor ends their sessions, records it and mails them.
 */
export async function resetTwoFactorOfUser(deps: Deps, actor: Actor, input: { id: string }): Promise<void> {
  if (!meets(actor, REQUIREMENTS.resetUserTwoFactor)) throw forbidden();
  if (actor.userId === input.id) throw forbidden(messages.twoFactor.cannotResetOwn);
  const user = await manageableUser(deps, actor, input.id);
  await resetSecondFactor(deps, actor, { userId: user.id });
}
