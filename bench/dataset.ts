import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.js';
import { userTotp } from '../apps/api/src/db/schema/index.js';

/**
 * Grows the benchmark data set with set-based inserts: organizations, admin users spread over them,
 * activity entries. Every bench user has the same password hash (hashing is measured separately).
 * Each growth ends with VACUUM ANALYZE, so PostgreSQL's autovacuum does not start on the new rows in
 * the middle of a measurement and take a core from whichever side of a ratio is running.
 */
export async function createOrganizations(db: Db, count: number) {
  await db.execute(
    sql`insert into organizations (name) select 'Bench Org ' || g from generate_series(1, ${count}::int) g`,
  );
}

export async function growUsers(
  db: Db,
  options: { from: number; to: number; roleId: string; passwordHash: string },
) {
  await db.execute(sql`
    with o as (
      select id, name, row_number() over (order by id) - 1 as n
      from organizations where not is_platform
    ), c as (select count(*) as total from o)
    insert into users (organization_id, role_id, username, email, full_name, client, is_active, password_hash, created_at)
    select o.id, ${options.roleId}::uuid, 'bench' || g, 'bench' || g || '@bench.test', 'Bench User ' || g, o.name, true,
           ${options.passwordHash}, now() - (g || ' seconds')::interval
    from generate_series(${options.from}::int, ${options.to}::int) g
    cross join c
    join o on o.n = g % c.total`);
  await db.execute(sql`vacuum analyze users`);
}

export async function growActivity(db: Db, count: number) {
  await db.execute(sql`
    with o as (
      select id, row_number() over (order by id) - 1 as n from organizations where not is_platform
    ), c as (select count(*) as total from o)
    insert into activity_entries (organization_id, action, entity_type, message, created_at)
    select o.id, 'updated', 'user', 'Bench activity ' || g, now() - (g || ' seconds')::interval
    from generate_series(1, ${count}::int) g cross join c join o on o.n = g % c.total`);
  await db.execute(sql`vacuum analyze activity_entries`);
}

/** A confirmed TOTP secret for each user, as enrolment leaves it; `encrypt` gives each its own ciphertext. */
export async function enrolTotp(db: Db, userIds: string[], encrypt: () => string) {
  const confirmedAt = new Date();
  await db
    .insert(userTotp)
    .values(userIds.map((userId) => ({ userId, secretCiphertext: encrypt(), confirmedAt })));
  await db.execute(sql`vacuum analyze user_totp`);
}
