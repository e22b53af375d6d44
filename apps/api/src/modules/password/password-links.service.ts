import { INVITE_VALID_HOURS, messages, PASSWORD_RESET_VALID_HOURS } from '@portal/shared';
import { badRequest, tooManyRequests } from '../../lib/errors.js';
import { defineJob } from '../../core/jobs.js';
import { outboxHasSourceKey } from '../../core/outbox.repo.js';
import type { Actor, Visitor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { countHit, countInWindow } from '../../core/rate-limits.repo.js';
import { clearSignInFailures } from '../../core/sign-in-failures.repo.js';
import { revokeAllSessions } from '../sessions/index.js';
import {
  consumeOneTimeToken,
  findLiveOneTimeToken,
  issueOneTimeToken,
  issueOneTimeTokens,
  type TokenPurpose,
} from './one-time-tokens.repo.js';
import { findActiveUserByEmail, setPasswordHash } from './password.repo.js';

const VALID_HOURS: Record<TokenPurpose, number> = {
  invite: INVITE_VALID_HOURS,
  password_reset: PASSWORD_RESET_VALID_HOURS,
};

function resetLink(baseUrl: string, token: string): string {
  return `${baseUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * A link that sets the user's password (an invitation, or a reset), on the portal's configured public
 * origin; the user's earlier links of that purpose stop working. Call it inside the transaction that
 * mails it (`withDb(deps, tx)`).
 */
export async function issuePasswordLink(
  deps: Deps,
  _actor: Actor,
  input: { userId: string; purpose: TokenPurpose },
): Promise<string> {
  const token = await issueOneTimeToken(deps.db, input.userId, input.purpose, VALID_HOURS[input.purpose]);
  return resetLink(deps.env.publicOrigin, token);
}

/**
 * `issuePasswordLink` for several users at once (an import's invitations), in two statements whatever
 * their number; the links in the order of `userIds`.
 */
export async function issuePasswordLinks(
  deps: Deps,
  _actor: Actor,
  input: { userIds: readonly string[]; purpose: TokenPurpose },
): Promise<string[]> {
  const tokens = await issueOneTimeTokens(deps.db, input.userIds, input.purpose, VALID_HOURS[input.purpose]);
  return tokens.map((token) => resetLink(deps.env.publicOrigin, token));
}

/**
 * Answers the same, in body and in time, whether or not the email exists: after the address's limit,
 * it only queues the reset job (the lookup, token and email run there), a write the same for every
 * email (docs/decisions/015, 026).
 */
export async function forgotPassword(deps: Deps, actor: Visitor, input: { email: string }) {
  const { forgotPerAddress, windowMs } = deps.config.limits;
  if ((await countHit(deps.db, `forgot:ip:${actor.address}`, windowMs)) > forgotPerAddress) {
    throw tooManyRequests();
  }
  await deps.jobs.send(deps.db, passwordResetMailJob, { email: input.email });
}

/**
 * Forgot-password's work: the token and its mail, in one transaction. Keyed by the job, so a try run
 * again after its transaction committed (the process died before the job was marked done) writes no
 * second token or mail.
 */
export const passwordResetMailJob = defineJob<{ email: string }>({
  name: 'password.reset-mail',
  queue: () => ({ retryLimit: 5, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 60 }),
  batchSize: 5,
  async run(deps, _actor, job) {
    const user = await findActiveUserByEmail(deps.db, job.data.email);
    if (!user) return { sent: false };
    const sourceKey = `job:${job.id}`;
    await deps.db.transaction(async (tx) => {
      if (await outboxHasSourceKey(tx, sourceKey)) return;
      const token = await issueOneTimeToken(tx, user.id, 'password_reset', PASSWORD_RESET_VALID_HOURS);
      await deps.mailer.enqueue(tx, {
        kind: 'password_reset',
        to: user.email,
        organizationId: user.organizationId,
        sourceKey,
        subject: 'Reset your password',
        text: `A password reset was requested for your account.\n\nSet a new password: ${resetLink(deps.env.publicOrigin, token)}\n\nThe link works once and expires in ${PASSWORD_RESET_VALID_HOURS} hour. If you did not ask for it, ignore this email.`,
      });
    });
    return { sent: true };
  },
});

/**
 * Whether an invite or reset link's token can still set a password, without using it: the reset
 * (below) and the page that checks its link when it opens (`POST /reset-password/check`) ask alike.
 * Unknown, used and expired tokens answer alike, and each counts against the address's limit, which
 * only tokens that were not live spend: neither route is a cheaper way to guess than the other.
 */
export async function isLinkTokenLive(deps: Deps, actor: Visitor, input: { token: string }) {
  const { resetPerAddress, windowMs } = deps.config.limits;
  const failures = `reset:ip:${actor.address}`;
  if ((await countInWindow(deps.db, failures, windowMs)) >= resetPerAddress) throw tooManyRequests();
  const live = await findLiveOneTimeToken(deps.db, input.token);
  if (!live) await countHit(deps.db, failures, windowMs);
  return live;
}

/**
 * Sets the password from an invite or reset link; ends every session of the user and forgets their
 * failed sign-ins. The token is checked before the password is hashed, so a made-up token costs one
 * lookup, not a hash. The address's limit counts only tokens that were not live: an office behind
 * one address can accept any number of invitations.
 */
export async function resetPassword(deps: Deps, actor: Visitor, input: { token: string; password: string }) {
  if (!(await isLinkTokenLive(deps, actor, input))) throw badRequest(messages.login.resetInvalid);
  const passwordHash = await deps.hasher.hash(input.password);
  await deps.db.transaction(async (tx) => {
    const owner = await consumeOneTimeToken(tx, input.token);
    if (!owner) throw badRequest(messages.login.resetInvalid);
    const user = await setPasswordHash(tx, owner.userId, passwordHash);
    if (!user) throw badRequest(messages.login.resetInvalid);
    await revokeAllSessions(withDb(deps, tx), actor, { userId: owner.userId });
    await clearSignInFailures(tx, owner.userId);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: owner.userId,
      action: 'updated',
      entityType: 'user',
      entityId: owner.userId,
      message:
        owner.purpose === 'invite' ? 'Accepted the invitation and set a password' : 'Reset the password',
    });
  });
}
