import type { FastifyInstance } from 'fastify';
import { messages, PROFILE_IMAGE_MIME_TYPES, type User } from '@portal/shared';
import { badRequest, conflict, isUniqueViolation, unauthorized } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import { recordOwnAccountChange } from '../../core/activity-log.repo.js';
import { deleteStoredFile } from '../files/files.repo.js';
import { withStoredFile } from '../files/files.service.js';
import { detectAllowedType, type Upload } from '../files/uploads.js';
import { findUserDto } from '../../core/identity/users.repo.js';
import { findProfileRow, replaceProfileImageId, updateProfileFields } from './profile.repo.js';
import { requireActiveSubscription } from './subscription-guard.js';

export interface ProfileChanges {
  fullName: string;
  email?: string | undefined;
  mobileNo: string;
  username?: string | undefined;
}

export async function getProfile(app: FastifyInstance, auth: Actor): Promise<User> {
  const user = await findUserDto(app.db, auth.userId);
  if (!user) throw unauthorized();
  return user;
}

/**
 * Full name, contact number and username of the signed-in user. The email is read-only here, as in
 * the user editor: sending a different one is refused
 * (docs/decisions/004-workspace-profile-files-support.md).
 */
export async function updateProfile(
  app: FastifyInstance,
  auth: Actor,
  changes: ProfileChanges,
): Promise<User> {
  await requireActiveSubscription(app.db, auth, auth.organizationId, 'profile');
  const current = await findProfileRow(app.db, auth.userId);
  if (!current) throw unauthorized();
  if (changes.email !== undefined && changes.email.toLowerCase() !== current.email.toLowerCase()) {
    throw badRequest(messages.users.emailLocked, { email: [messages.users.emailLocked] });
  }
  try {
    await app.db.transaction(async (tx) => {
      await updateProfileFields(tx, auth.userId, changes);
      await recordOwnAccountChange(
        tx,
        { organizationId: current.organizationId, userId: auth.userId },
        'Updated the profile',
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.users.duplicate);
    throw error;
  }
  return getProfile(app, auth);
}

/** Replaces the profile image (PNG, JPEG or WebP by content); the previous file is deleted. */
export async function replaceProfileImage(
  app: FastifyInstance,
  auth: Actor,
  upload: Upload | null,
): Promise<User> {
  await requireActiveSubscription(app.db, auth, auth.organizationId, 'profileImage');
  if (!upload || upload.data.length === 0) throw badRequest(messages.profile.imageRequired);
  const mimeType = await detectAllowedType(upload.data, upload.fileName, PROFILE_IMAGE_MIME_TYPES);
  if (!mimeType) throw badRequest(messages.profile.imageTypeRejected);
  // The image is stored before the transaction that sets it (docs/decisions/022).
  const file = {
    organizationId: auth.organizationId,
    ownerUserId: auth.userId,
    fileName: upload.fileName,
    mimeType,
    data: upload.data,
  };
  await withStoredFile(
    app.db,
    file,
    (fileId) =>
      app.db.transaction(async (tx) => {
        const previous = await replaceProfileImageId(tx, auth.userId, fileId);
        if (previous) await deleteStoredFile(tx, previous);
        await recordOwnAccountChange(tx, auth, 'Changed the profile image');
      }),
    { oneAtATime: app.dbKind === 'pglite' },
  );
  return getProfile(app, auth);
}
