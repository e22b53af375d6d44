import { messages } from '@portal/shared';
import { badRequest, unauthorized } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { findOwnAccount, replaceProfileImageId, updateProfileFields } from './users.repo.js';

export interface OwnProfileChanges {
  fullName: string;
  email?: string | undefined;
  mobileNo: string;
  username?: string | undefined;
}

/**
 * The actor's full name, contact number and username (the profile page). The email is read-only, as
 * in the user editor: a different one is refused. Answers the actor's organization. A taken username
 * fails with the database's unique violation, for the caller to answer.
 */
export async function updateOwnProfile(
  deps: Deps,
  actor: Actor,
  changes: OwnProfileChanges,
): Promise<{ organizationId: string }> {
  const current = await findOwnAccount(deps.db, actor.userId);
  if (!current) throw unauthorized();
  if (changes.email !== undefined && changes.email.toLowerCase() !== current.email.toLowerCase()) {
    throw badRequest(messages.users.emailLocked, { email: [messages.users.emailLocked] });
  }
  await updateProfileFields(deps.db, actor.userId, changes);
  return { organizationId: current.organizationId };
}

/**
 * Points the actor's profile image at a stored file; answers the previous image's file id, for the
 * caller to delete in the same transaction. The user's row stays locked until that commits.
 */
export function replaceOwnProfileImage(
  deps: Deps,
  actor: Actor,
  input: { fileId: string },
): Promise<string | null> {
  return deps.db.transaction((tx) => replaceProfileImageId(tx, actor.userId, input.fileId));
}
