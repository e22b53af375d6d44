import { createHash } from 'node:crypto';
import { DrizzleQueryError, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { runsNamedStatements } from '../db/embedded-client.js';

/** Renders as both drivers' dialect does (the database handles are made without a casing option). */
const dialect = new PgDialect();

/**
 * A fragment without values rendered to SQL text once, to embed in statements as a raw chunk. drizzle
 * renders every column and table reference each time a statement runs: the users page (fourteen
 * fields, the search expression, the order) took 40 µs a request to render, against 8 with its fixed
 * parts rendered here (docs/decisions/007). Column references come out qualified by their table's
 * name (`"users"."id"`), so the fragment belongs in statements where that table is not aliased.
 */
export function renderedOnce<T>(fragment: SQL<T>): SQL<T> {
  const query = dialect.sqlToQuery(fragment);
  if (query.params.length > 0)
    throw new Error('renderedOnce: a fragment with values is rendered per statement');
  return sql.raw(query.sql) as SQL<T>;
}

const MAX_NAMES = 1_000;
const names = new Map<string, string>();

/** A statement's name: from a digest of its text, so one text has one name and no two texts share one. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    if (names.size >= MAX_NAMES) names.delete(names.keys().next().value!);
    names.set(text, name);
  }
  return name;
}

/**
 * Runs a statement on the request path as a named prepared statement, and answers its rows. On
 * PostgreSQL each connection then parses and analyses the text once, not on every call: the users
 * page went from 0.22 to 0.12 ms of database time (docs/decisions/007). The planner still plans
 * per call until a generic plan proves no costlier than the plans for the actual values, which is
 * PostgreSQL's own rule for prepared statements. A connection keeps each text it prepared, so a
 * statement's text must not vary with a value: values are parameters, lists one array parameter.
 * PGlite's driver sends no names, so the embedded client runs them itself (db/embedded-client.ts).
 */
export async function executePrepared<Row>(db: Db, statement: SQL): Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const name = statementName(query.sql);
  const embedded = (db._.session as unknown as { client: unknown }).client;
  if (runsNamedStatements(embedded)) {
    try {
      return (await embedded.executeNamed<Row>(name, query.sql, query.params)).rows;
    } catch (error) {
      // Wrapped as drizzle wraps a failed statement, so callers see one shape on both databases.
      throw new DrizzleQueryError(query.sql, query.params, error as Error);
    }
  }
  const prepared = db._.session.prepareQuery(query, undefined, name, false);
  return ((await prepared.execute()) as { rows: Row[] }).rows;
}
