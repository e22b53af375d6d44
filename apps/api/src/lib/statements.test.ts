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

  it.runIf(onPostgres)('prepares each text once per connection, under the name of its text', async () => {
    const text = dialect.sqlToQuery(sum(0, 0)).sql;
    for (let i = 0; i < 3; i++) await executePrepared(database.db, sum(i, i));
    const prepared = await executePrepared(
      database.db,
      sql`select name, statement from pg_prepared_statements where name = ${statementName(text)}`,
    );
    expect(prepared).toEqual([{ name: statementName(text), statement: text }]);
  });
});
