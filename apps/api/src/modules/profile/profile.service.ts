import { messages, PROFILE_IMAGE_MIME_TYPES, type User } from '@portal/shared';
import { badRequest, conflict, isUniqueViolation, unauthorized } from '../../lib/errors.js';
import { detectAllowedType, type Upload } from '../../lib/upload.js';
import type { Actor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { recordOwnAccountChange } from '../../core/activity-log.repo.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { deleteStoredFile, withStoredFile } from '../files/index.js';
import { replaceOwnProfileImage, updateOwnProfile, type OwnProfileChanges } from '../users/index.js';
import { requireActiveSubscription } from './subscription-guard.js';

export type ProfileChanges = OwnProfileChanges;

export async function getProfile(deps: Deps, actor: Actor): Promise<User> {
  const user = await findUserDto(deps.db, actor.userId);
  if (!user) throw unauthorized();
  return user;
}

/**
 * Full name, contact number and username of the signed-in user. The email is read-only here, as in
 * the user editor: sending a different one is refused
 * (docs/decisions/004-workspace-profile-files-support.md).
 */
export async function updateProfile(deps: Deps, actor: Actor, changes: ProfileChanges): Promise<User> {
  await requireActiveSubscription(deps, actor, { organizationId: actor.organizationId, change: 'profile' });
  try {
    await deps.db.transaction(async (tx) => {
      const { organizationId } = await updateOwnProfile(withDb(deps, tx), actor, changes);
      await recordOwnAccountChange(tx, { organizationId, userId: actor.userId }, 'Updated the profile');
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.users.duplicate);
    throw error;
  }
  return getProfile(deps, actor);
}

/** Replaces the profile image (PNG, JPEG or WebP by content); the previous file is deleted. */
export async function replaceProfileImage(deps: Deps, actor: Actor, upload: Upload | null): Promise<User> {
  await requireActiveSubscription(deps, actor, {
    organizationId: actor.organizationId,
    change: 'profileImage',
  });
  if (!upload || upload.data.length === 0) throw badRequest(messages.profile.imageRequired);
  const mimeType = await detectAllowedType(upload.data, upload.fileName, PROFILE_IMAGE_MIME_TYPES);
  if (!mimeType) throw badRequest(messages.profile.imageTypeRejected);
  // The image is stored before the transaction that sets it (docs/decisions/022).
  const file = {
    organizationId: actor.organizationId,
    ownerUserId: actor.userId,
    fileName: upload.fileName,
    mimeType,
    data: upload.data,
  };
  await withStoredFile(deps, actor, {
    file,
    link: (fileId) =>
      deps.db.transaction(async (tx) => {
        const inTx = withDb(deps, tx);
        const previous = await replaceOwnProfileImage(inTx, actor, { fileId });
        if (previous) await deleteStoredFile(inTx, actor, { id: previous });
        await recordOwnAccountChange(tx, actor, 'Changed the profile image');
      }),
  });
  return getProfile(deps, actor);
}
