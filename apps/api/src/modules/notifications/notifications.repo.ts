import { and, eq } from 'drizzle-orm';
import { SYSTEM_ROLES } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { notifications, roles, users } from '../../db/schema/index.js';

export type NotificationKind = (typeof notifications.$inferInsert)['kind'];

export interface NotificationInput {
  kind: NotificationKind;
  title: string;
  body: string;
  link?: string | null;
  /** Set for periodic notices so each user gets them once. */
  dedupeKey?: string | null;
}

/** Notifies every active super administrator (new ticket). */
export async function notifySuperAdmins(db: Db, organizationId: string, input: NotificationInput) {
  const recipients = await db
    .select({ id: users.id, organizationId: users.organizationId })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.name, SYSTEM_ROLES.superAdmin), eq(users.isActive, true)));
  await insertNotifications(
    db,
    recipients.map((r) => ({ userId: r.id, organizationId })),
    input,
  );
}

/** Notifies the active admins of one organization (payment verified, subscription expiring or expired). */
export async function notifyOrganizationAdmins(db: Db, organizationId: string, input: NotificationInput) {
  const recipients = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(users.organizationId, organizationId),
        eq(roles.name, SYSTEM_ROLES.admin),
        eq(users.isActive, true),
      ),
    );
  await insertNotifications(
    db,
    recipients.map((r) => ({ userId: r.id, organizationId })),
    input,
  );
}

async function insertNotifications(
  db: Db,
  recipients: { userId: string; organizationId: string }[],
  input: NotificationInput,
) {
  if (recipients.length === 0) return;
  await db
    .insert(notifications)
    .values(
      recipients.map((r) => ({
        ...r,
        ...input,
        link: input.link ?? null,
        dedupeKey: input.dedupeKey ?? null,
      })),
    )
    .onConflictDoNothing();
}
