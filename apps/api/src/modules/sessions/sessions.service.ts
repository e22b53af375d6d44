import type { FastifyInstance } from 'fastify';
import { messages, REQUIREMENTS, meets, type ActiveSession } from '@portal/shared';
import { deviceName } from '../../lib/device-name.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { listActiveFamilies, revokeFamilyOfUser, revokeUserSessions } from '../auth/sessions.repo.js';
import { findUserRecord } from '../users/users.repo.js';
import { assertManageable } from '../users/users.service.js';

/** The signed-in user's browsers, newest use first; `current` is the one asking. */
export async function listSessions(app: FastifyInstance, auth: Actor): Promise<ActiveSession[]> {
  const families = await listActiveFamilies(app.db, auth.userId);
  return families.map((f) => ({
    id: f.familyId,
    device: deviceName(f.userAgent),
    address: f.ipAddress,
    signedInAt: f.signedInAt.toISOString(),
    lastUsedAt: f.lastUsedAt.toISOString(),
    current: f.familyId === auth.familyId,
  }));
}

/**
 * Ends one of the user's own sessions: that browser is refused at its next request, on any API
 * process, because every request reads its session from the database.
 */
export async function endSession(app: FastifyInstance, auth: Actor, familyId: string) {
  if (!(await revokeFamilyOfUser(app.db, auth.userId, familyId))) throw notFound(messages.sessions.notFound);
}

export async function endOtherSessions(app: FastifyInstance, auth: Actor): Promise<number> {
  return revokeUserSessions(app.db, auth.userId, auth.familyId);
}

/** The platform operator signs a user out everywhere (a lost laptop, a departing employee). */
export async function endUserSessions(app: FastifyInstance, auth: Actor, userId: string): Promise<number> {
  if (!meets(auth, REQUIREMENTS.endUserSessions)) throw forbidden();
  const user = (await findUserRecord(app.db, userId))?.user;
  if (!user) throw notFound(messages.users.notFound);
  await assertManageable(app.db, auth, user.roleId);
  return app.db.transaction(async (tx) => {
    const ended = await revokeUserSessions(tx, user.id);
    await recordActivity(tx, {
      organizationId: user.organizationId,
      actorUserId: auth.userId,
      action: 'updated',
      entityType: 'user',
      entityId: user.id,
      message: `Ended every session of ${user.username}`,
    });
    return ended;
  });
}
