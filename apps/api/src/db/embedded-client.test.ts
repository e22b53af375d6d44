import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from './client.js';
import { withoutDrizzleParsers } from './embedded-client.js';

// A statement reading each type drizzle keeps as text, and one it parses (json).
const everyKeptType = sql`
  select '2026-11-23 10:00:00+00'::timestamptz as "timestamptz", '2026-11-23 10:00:00'::timestamp as "timestamp",
    '2026-11-23'::date as "date", '1 day'::interval as "interval", '{1.5}'::numeric[] as "numerics",
    '{2026-11-23}'::date[] as "dates", '{"a":1}'::json as "json"`;
const asText = {
  timestamptz: '2026-11-23 10:00:00+00',
  timestamp: '2026-11-23 10:00:00',
  date: '2026-11-23',
  interval: '1 day',
  numerics: '{1.5}',
  dates: '{2026-11-23}',
  json: { a: 1 },
};

describe('the embedded client', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(() => database.close());

  it('recognises the parsers drizzle sends with each query, so a drizzle upgrade that changes them shows here', () => {
    const prepared = database.db._.session.prepareQuery(
      { sql: 'select 1', params: [] },
      undefined,
      undefined,
      false,
    ) as unknown as Record<'queryConfig' | 'rawQueryConfig', QueryOptions>;
    for (const config of [prepared.queryConfig, prepared.rawQueryConfig]) {
      expect(config.parsers).toBeDefined();
      expect(withoutDrizzleParsers(config)).toEqual({ rowMode: config.rowMode });
    }
  });

  it('keeps parsers other than drizzle’s', () => {
    const options = { parsers: { 25: (value: string) => value.toUpperCase() } };
    expect(withoutDrizzleParsers(options)).toBe(options);
  });

  it('sends drizzle’s queries to PGlite without per-query parsers', async () => {
    const query = vi.spyOn(PGlite.prototype, 'query');
    try {
      await database.db.execute(sql`select 1`);
      expect(query).toHaveBeenCalledTimes(1);
      expect(query.mock.calls[0]![2]).toEqual({ rowMode: 'object' });
    } finally {
      query.mockRestore();
    }
  });

  it('sends a transaction’s queries without per-query parsers', async () => {
    await database.db.transaction(async (tx) => {
      // drizzle's client here is our view of PGlite's transaction object, which is its prototype.
      const view = (tx as unknown as { session: { client: object } }).session.client;
      const query = vi.spyOn(Object.getPrototypeOf(view) as Transaction, 'query');
      await tx.execute(sql`select 1`);
      expect(query).toHaveBeenCalledTimes(1);
      expect(query.mock.calls[0]![2]).toEqual({ rowMode: 'object' });
    });
  });

  it('reads timestamps, dates, intervals and their arrays as text, as drizzle’s own parsers did', async () => {
    const firstRow = (result: unknown) => (result as { rows: unknown[] }).rows[0];
    expect(firstRow(await database.db.execute(everyKeptType))).toEqual(asText);
    expect(firstRow(await database.db.transaction((tx) => tx.execute(everyKeptType)))).toEqual(asText);
  });
});
