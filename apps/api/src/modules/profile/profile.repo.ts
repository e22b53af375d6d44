import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

export async function findProfileRow(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      email: users.email,
      username: users.username,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export async function updateProfileFields(
  db: Db,
  userId: string,
  values: { fullName: string; mobileNo: string; username?: string | undefined },
): Promise<void> {
  await db
    .update(users)
    .set({
      fullName: values.fullName,
      mobileNo: values.mobileNo,
      ...(values.username !== undefined ? { username: values.username } : {}),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

/**
 * Points the user at a new profile image and returns the previous one's id. The row lock makes two
 * replacements at once run one after the other, so neither leaves its predecessor behind.
 */
export async function replaceProfileImageId(db: Db, userId: string, fileId: string): Promise<string | null> {
  const [current] = await db
    .select({ old: users.profileImageFileId })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  await db
    .update(users)
    .set({ profileImageFileId: fileId, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return current?.old ?? null;
}
