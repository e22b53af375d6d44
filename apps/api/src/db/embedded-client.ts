import { PGlite, types, type PGliteOptions, type QueryOptions, type Transaction } from '@electric-sql/pglite';

const keepText = (value: string) => value;

/**
 * The types drizzle's PGlite driver reads as PostgreSQL's text (timestamps, dates, intervals and the
 * arrays numeric[], timestamp[], timestamptz[], interval[], date[]): it passes these parsers with
 * every query it sends (drizzle-orm 0.45, `PglitePreparedQuery`).
 */
const DRIZZLE_TEXT_TYPES = new Set<number>([
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
]);

/**
 * A query's options without parsers when they are drizzle's text parsers, which the client already
 * applies to every query. Any other parsers are kept.
 */
export function withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((oid) => DRIZZLE_TEXT_TYPES.has(Number(oid)))) return options;
  const { parsers: _applied, ...rest } = options;
  return rest;
}

/**
 * PGlite with drizzle's parsers set once on the client instead of on each query. Given parsers with
 * a query, PGlite 0.5 copies its whole parser table (318 entries, one per type and array type) to
 * merge them: 0.14 ms a query, more than half of what a one-row select costs it, on every statement
 * of every request (docs/decisions/007).
 */
class EmbeddedClient extends PGlite {
  override query<T>(query: string, params?: unknown[], options?: QueryOptions) {
    return super.query<T>(query, params, withoutDrizzleParsers(options));
  }

  override transaction<T>(callback: (tx: Transaction) => Promise<T>) {
    return super.transaction((tx) =>
      callback(
        // The transaction's own object underneath, so its `closed` getter stays live.
        Object.create(tx, {
          query: {
            value: <R>(query: string, params?: unknown[], options?: QueryOptions) =>
              tx.query<R>(query, params, withoutDrizzleParsers(options)),
          },
        }) as Transaction,
      ),
    );
  }
}

/** Embedded PostgreSQL in `dataDir` (in memory when undefined), ready for queries. */
export async function openEmbeddedClient(dataDir: string | undefined, options: PGliteOptions) {
  const client = new EmbeddedClient(dataDir, options);
  await client.waitReady;
  // After start-up, which registers a parser for every array type (it would replace ours).
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = keepText;
  return client;
}
