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

/**
 * `count` organizations with one admin each and a monthly plan on a card mandate anchored at `anchor`
 * (10 credits at ₹100 + GST, ₹1,180 a month): the renewal figures' customers.
 */
export async function createRenewingOrganizations(
  db: Db,
  options: { count: number; anchor: Date; firstPeriodStart: Date; roleId: string; passwordHash: string },
) {
  await db.execute(sql`
    with o as (
      insert into organizations (name)
      select 'Renewing Org ' || g from generate_series(1, ${options.count}::int) g
      returning id, name
    ), u as (
      insert into users (organization_id, role_id, username, email, full_name, client, is_active, password_hash)
      select id, ${options.roleId}::uuid, 'renew-' || id, 'renew-' || id || '@bench.test', 'Renewing Admin', name, true,
             ${options.passwordHash}
      from o
    )
    insert into billing_plans (organization_id, credits_per_period, price_per_credit_paise, tax_rate_bp, amount_paise,
      auto_renew, collection, mandate_status, mandate_token, mandate_max_paise, anchor_at, next_period_start)
    select id, 10, 10000, 1800, 118000, true, 'mandate', 'authorized', 'token_' || substr(id::text, 1, 8), 118000,
      ${options.anchor.toISOString()}::timestamptz, ${options.firstPeriodStart.toISOString()}::timestamptz
    from o`);
}
