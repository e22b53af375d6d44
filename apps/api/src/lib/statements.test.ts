import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgresDatabase } from '../../test/harness.js';
import { openDatabase, type Database } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { executePrepared, renderedOnce, statementName } from './statements.js';

const dialect = new PgDialect();
const onPostgres = process.env.TEST_DATABASE === 'postgres';

describe('renderedOnce', () => {
  it('gives a statement the same text and values as the fragment rendered in place', () => {
    const fragment = sql`lower(${users.username} || ${users.email})`;
    const inPlace = dialect.sqlToQuery(sql`select ${fragment} from ${users} where ${users.id} = ${'x'}`);
    const once = dialect.sqlToQuery(
      sql`select ${renderedOnce(fragment)} from ${users} where ${users.id} = ${'x'}`,
    );
    expect(once).toEqual(inPlace);
    expect(once.sql).toContain('lower("users"."username" || "users"."email")');
  });

  it('refuses a fragment holding a value, which would be lost from the statement', () => {
    expect(() => renderedOnce(sql`${users.id} = ${'x'}`)).toThrow(/with values/);
  });
});

describe('statementName', () => {
  it('names one text alike every time, two texts apart, within PostgreSQL’s 63-byte identifiers', () => {
    const a = statementName('select 1');
    expect(statementName('select 1')).toBe(a);
    expect(statementName('select 2')).not.toBe(a);
    expect(a).toMatch(/^p_[0-9a-f]{32}$/);
  });
});

describe(`executePrepared on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  let database: Database;
  let drop = async () => {};
  beforeAll(async () => {
    if (onPostgres) {
      const scratch = await createScratchPostgresDatabase();
      drop = scratch.drop;
      // One connection, so the catalog read below sees the statements this connection prepared.
      database = await openDatabase({ pool: new pg.Pool({ connectionString: scratch.url, max: 1 }) });
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
    }
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  const sum = (a: number, b: number) => sql`select ${a}::int + ${b}::int as "n", 'x'::text as "t"`;

  it('answers the rows of the statement with its values bound', async () => {
    expect(await executePrepared(database.db, sum(1, 2))).toEqual([{ n: 3, t: 'x' }]);
    expect(await executePrepared(database.db, sum(40, 2))).toEqual([{ n: 42, t: 'x' }]);
  });

  it('fails with the database error, each time, and the connection goes on serving', async () => {
    const failure = { cause: expect.objectContaining({ message: 'division by zero' }) };
    for (let i = 0; i < 2; i++) {
      await expect(executePrepared(database.db, sql`select 1 / ${0}::int`)).rejects.toMatchObject(failure);
    }
    expect(await executePrepared(database.db, sql`select 1 / ${1}::int as "n"`)).toEqual([{ n: 1 }]);
  });

  it('prepares each text once per connection, under the name of its text', async () => {
    const text = dialect.sqlToQuery(sum(0, 0)).sql;
    for (let i = 0; i < 3; i++) await executePrepared(database.db, sum(i, i));
    const prepared = await executePrepared(
      database.db,
      sql`select name, statement from pg_prepared_statements where name = ${statementName(text)}`,
    );
    expect(prepared).toEqual([{ name: statementName(text), statement: text }]);
  });

  it('binds each value by its parameter’s type: arrays, json, booleans, nulls, timestamps', async () => {
    const ids = ['0b9c3e4e-0d35-4a4e-9d55-0f3c3b0b6b01', '0b9c3e4e-0d35-4a4e-9d55-0f3c3b0b6b02'];
    const [row] = await executePrepared<Record<string, unknown>>(
      database.db,
      sql`select cardinality(${sql.param(ids)}::uuid[]) as "ids", (${JSON.stringify({ a: [1] })}::jsonb) -> 'a' as "json",
        not ${true}::boolean as "flipped", ${null}::text is null as "isNull",
        ${'2026-11-24T10:00:00.000Z'}::timestamptz as "at"`,
    );
    // Timestamps read as text on both databases, as drizzle reads them.
    expect(row).toEqual({
      ids: 2,
      json: [1],
      flipped: false,
      isNull: true,
      at: expect.stringMatching(/^2026-11-24 10:00:00(\.000)?\+00$/),
    });
  });

  it('runs inside a transaction: sees its rows, and a failure there rolls back only that transaction', async () => {
    await database.db.execute(sql`create table if not exists prepared_probe (id int primary key)`);
    const count = (db: typeof database.db) =>
      executePrepared<{ n: number }>(db, sql`select count(*)::int as "n" from prepared_probe`);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into prepared_probe values (1)`);
      expect(await count(tx)).toEqual([{ n: 1 }]);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await executePrepared(tx, sql`insert into prepared_probe values (${2})`);
        await executePrepared(tx, sql`insert into prepared_probe values (${1})`);
      }),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23505' }) });
    expect(await count(database.db)).toEqual([{ n: 1 }]);
  });

  it.runIf(!onPostgres)(
    'waits for an open transaction before it runs, as PGlite’s own query does',
    async () => {
      await database.db.execute(sql`create table if not exists prepared_wait (id int)`);
      let outside: Promise<unknown> | undefined;
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into prepared_wait values (1)`);
        outside = executePrepared(database.db, sql`select count(*)::int as "n" from prepared_wait`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.execute(sql`insert into prepared_wait values (2)`);
      });
      expect(await outside).toEqual([{ n: 2 }]);
    },
  );

  it.runIf(!onPostgres)('keeps at most 500 named statements, closing the oldest', async () => {
    for (let i = 0; i < 505; i++) await executePrepared(database.db, sql.raw(`select ${i} as "n"`));
    const [kept] = await executePrepared<{ n: number }>(
      database.db,
      sql`select count(*)::int as "n" from pg_prepared_statements`,
    );
    expect(kept!.n).toBe(500);
    // A closed statement prepares again when it comes back.
    expect(await executePrepared(database.db, sql.raw(`select 0 as "n"`))).toEqual([{ n: 0 }]);
  });
});
