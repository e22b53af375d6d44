import { sql } from 'drizzle-orm';
import { systemActor } from '../apps/api/src/core/actor.js';
import type { Deps } from '../apps/api/src/core/deps.js';
import { deriveTwoFactorKeys } from '../apps/api/src/core/secrets.js';
import { apiKeys, payments } from '../apps/api/src/db/schema/index.js';
import { issueInvoice } from '../apps/api/src/modules/invoices/index.js';
import { encryptSecret } from '../apps/api/src/modules/two-factor/totp.js';
import { randomToken, sha256Hex } from '../apps/api/src/lib/tokens.js';
import { saveBenchSellerProfile } from './api-bench.js';
import { enrolTotp } from './dataset.js';

/** One organization of the day, as the scenario's driver needs it. */
export interface Tenant {
  organizationId: string;
  /** Its admins' emails (each with the run's TOTP secret confirmed), for its admin's account pool. */
  admins: string[];
  /** A live API key of the organization, for its interview bot. */
  apiKey: string;
}

export interface TenantShape {
  organizations: number;
  /** Admins per organization: the accounts one simulated admin signs in with in turn. */
  admins: number;
  /** Other users per organization (role "Interviewer"): what the admin lists, pages and searches. */
  members: number;
  /** The credits each organization starts with, so its bot never runs dry in a run. */
  credits: number;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * `shape.organizations` tenants with their admins and members, one paid invoice each, a credit grant
 * and an API key, in set-based statements. The invoices are issued before any admin exists, so they
 * queue no mail: the run's mails are only those its own actions cause. Every admin has `totpSecret`
 * confirmed (its own ciphertext under the key `sessionSecret` derives), and every user `passwordHash`.
 */
export async function createTenants(
  deps: Deps,
  shape: TenantShape,
  options: { adminRoleId: string; passwordHash: string; sessionSecret: string; totpSecret: string },
): Promise<Tenant[]> {
  const { db } = deps;
  const organizations = rowsOf<{ id: string; n: number }>(
    await db.execute(sql`
      insert into organizations (name)
      select 'Tenant ' || lpad(g::text, 4, '0') from generate_series(1, ${shape.organizations}::int) g
      returning id, substr(name, 8)::int as n`),
  ).sort((a, b) => a.n - b.n);

  await saveBenchSellerProfile(deps);
  const actor = systemActor('bench');
  for (const { id } of organizations) {
    await db.transaction(async (tx) => {
      const [payment] = await tx
        .insert(payments)
        .values({ organizationId: id, amountPaise: 118_000, paymentDate: new Date() })
        .returning();
      await issueInvoice({ ...deps, db: tx }, actor, { payment: payment!, subscription: null });
    });
  }

  await db.execute(sql`
    insert into roles (organization_id, name)
    select id, 'Interviewer' from organizations where name like 'Tenant %'`);
  const perOrganization = shape.admins + shape.members;
  // Created a second apart, newest last, so each page of the list is a stable slice.
  await db.execute(sql`
    insert into users (organization_id, role_id, username, email, full_name, client, is_active, password_hash, created_at)
    select o.id,
           case when u <= ${shape.admins} then ${options.adminRoleId}::uuid else r.id end,
           't' || substr(o.name, 8) || '-' || case when u <= ${shape.admins} then 'admin' || u else 'user' || (u - ${shape.admins}) end,
           't' || substr(o.name, 8) || '-' || case when u <= ${shape.admins} then 'admin' || u else 'user' || (u - ${shape.admins}) end || '@tenant.test',
           case when u <= ${shape.admins} then 'Admin ' || u else 'Interviewer ' || (u - ${shape.admins}) end,
           o.name, true, ${options.passwordHash},
           now() - ((${perOrganization}::int - u) || ' seconds')::interval
    from organizations o
    join roles r on r.organization_id = o.id and r.name = 'Interviewer'
    cross join generate_series(1, ${perOrganization}::int) u
    where o.name like 'Tenant %'`);
  await db.execute(sql`
    insert into credit_ledger (organization_id, delta, reason, note)
    select id, ${shape.credits}::int, 'adjustment', 'Bench grant' from organizations where name like 'Tenant %'`);

  const admins = rowsOf<{ id: string; email: string; organization_id: string }>(
    await db.execute(sql`
      select u.id, u.email, u.organization_id from users u
      where u.role_id = ${options.adminRoleId}::uuid and u.email like '%@tenant.test'
      order by u.email`),
  );
  const { secretKey } = deriveTwoFactorKeys(options.sessionSecret);
  await enrolTotp(
    db,
    admins.map((a) => a.id),
    () => encryptSecret(secretKey, options.totpSecret),
  );

  const keys = organizations.map(({ id }) => ({ organizationId: id, key: `icp_${randomToken(32)}` }));
  await db.insert(apiKeys).values(
    keys.map(({ organizationId, key }) => ({
      organizationId,
      name: 'Interview bot',
      prefix: key.slice(0, 12),
      keyHash: sha256Hex(key),
    })),
  );
  for (const table of ['organizations', 'users', 'roles', 'credit_ledger', 'invoices', 'api_keys']) {
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  }
  return keys.map(({ organizationId, key }) => ({
    organizationId,
    admins: admins.filter((a) => a.organization_id === organizationId).map((a) => a.email),
    apiKey: key,
  }));
}
