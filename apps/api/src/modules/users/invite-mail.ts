import { INVITE_VALID_HOURS } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { issuePasswordLink, issuePasswordLinks } from '../password/index.js';

/** The invitation: a one-time set-password link, valid INVITE_VALID_HOURS. */
export function inviteMail(to: string, link: string) {
  return {
    kind: 'invitation' as const,
    to,
    subject: 'You are invited to the Interview Credits Portal',
    text: `An account has been created for you on the Interview Credits Portal.\n\nSet your password to sign in: ${link}\n\nThe link works once and expires in ${INVITE_VALID_HOURS} hours. If it has expired, ask your administrator to send a new one.`,
  };
}

/**
 * Writes the invitation (a new set-password link; the user's earlier invite links stop working) to
 * the outbox in `deps.db`, the caller's transaction; it is delivered once that commits.
 */
export async function enqueueInvite(
  deps: Deps,
  actor: Actor,
  user: { id: string; email: string; organizationId: string },
): Promise<void> {
  const link = await issuePasswordLink(deps, actor, { userId: user.id, purpose: 'invite' });
  await deps.mailer.enqueue(deps.db, {
    ...inviteMail(user.email, link),
    organizationId: user.organizationId,
  });
}

/**
 * `enqueueInvite` for users created together (an import's batch): their links, outbox mails and
 * delivery jobs are written a few statements for all, in `deps.db`, the caller's transaction.
 */
export async function enqueueInvites(
  deps: Deps,
  actor: Actor,
  users: readonly { id: string; email: string; organizationId: string }[],
): Promise<void> {
  const links = await issuePasswordLinks(deps, actor, {
    userIds: users.map((user) => user.id),
    purpose: 'invite',
  });
  await deps.mailer.enqueueMany(
    deps.db,
    users.map((user, i) => ({ ...inviteMail(user.email, links[i]!), organizationId: user.organizationId })),
  );
}
