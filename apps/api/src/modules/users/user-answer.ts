import { messages, type User } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { findUserDto } from '../../core/identity/users.repo.js';

/** A user as the API answers it, read after a change; 404 if it is gone. */
export async function userAnswer(db: Db, id: string): Promise<User> {
  const user = await findUserDto(db, id);
  if (!user) throw notFound(messages.users.notFound);
  return user;
}
