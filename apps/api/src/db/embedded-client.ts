import {
  messages,
  parse,
  PGlite,
  protocol,
  types,
  type PGliteOptions,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

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

/** What a named statement needs on each run: its parameters' types and the shape of its rows. */
interface PreparedStatement {
  paramTypes: number[];
  rowDescription: messages.RowDescriptionMessage | undefined;
}

/** Named statements kept per client; past this the oldest is closed (a text per filter shape). */
const MAX_PREPARED = 500;

/**
 * PGlite with drizzle's parsers set once on the client instead of on each query. Given parsers with
 * a query, PGlite 0.5 copies its whole parser table (318 entries, one per type and array type) to
 * merge them: 0.14 ms a query, more than half of what a one-row select costs it, on every statement
 * of every request (docs/decisions/007).
 *
 * It also runs named prepared statements (`executeNamed`), which PGlite's `query` does not: `query`
 * parses, analyses and plans the text on every call, in five calls into WASM (parse, describe,
 * bind, describe, execute). A named statement is parsed and described once; each run is then one
 * call (bind, execute, sync) against a plan PostgreSQL may keep. The users page went from about
 * 500 to 290 µs of the API's thread (docs/decisions/007).
 */
class EmbeddedClient extends PGlite {
  readonly #prepared = new Map<string, PreparedStatement>();

  override query<T>(query: string, params?: unknown[], options?: QueryOptions) {
    return super.query<T>(query, params, withoutDrizzleParsers(options));
  }

  /** Runs `text` as the prepared statement `name` (one text per name), after any open transaction. */
  executeNamed<T>(name: string, text: string, params: unknown[]): Promise<Results<T>> {
    return this._runExclusiveTransaction(() => this.#runNamed<T>(name, text, params, true));
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
          executeNamed: {
            value: <R>(name: string, text: string, params: unknown[]) => {
              if (tx.closed) throw new Error('Transaction is closed');
              // Inside the transaction, which holds the client; its COMMIT writes to the file system.
              return this.#runNamed<R>(name, text, params, false);
            },
          },
        }) as Transaction,
      ),
    );
  }

  #runNamed<T>(name: string, text: string, params: unknown[], syncToFs: boolean): Promise<Results<T>> {
    return this._runExclusiveQuery(async () => {
      const statement = this.#prepared.get(name) ?? (await this.#prepare(name, text));
      // Values serialized as PGlite's `query` does, by the type the database gave each parameter.
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = this.serializers[statement.paramTypes[i]!];
        return serializer ? serializer(value) : String(value);
      });
      // One buffer, one call into WASM; with Sync in it, a failed statement still ends its exchange.
      const answer = await this.execProtocolStream(
        Buffer.concat([
          protocol.serialize.bind({ statement: name, values }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      if (syncToFs) await this.syncToFs();
      const described = statement.rowDescription ? [statement.rowDescription, ...answer] : answer;
      return parse.parseResults(described, this.parsers, { rowMode: 'object' })[0] as Results<T>;
    });
  }

  async #prepare(name: string, text: string): Promise<PreparedStatement> {
    const close: Uint8Array[] = [];
    if (this.#prepared.size >= MAX_PREPARED) {
      const oldest = this.#prepared.keys().next().value!;
      this.#prepared.delete(oldest);
      close.push(protocol.serialize.close({ type: 'S', name: oldest }));
    }
    const answer = await this.execProtocolStream(
      Buffer.concat([
        ...close,
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement: PreparedStatement = {
      paramTypes: parse.parseDescribeStatementResults(answer),
      rowDescription: answer.find(
        (m): m is messages.RowDescriptionMessage => m instanceof messages.RowDescriptionMessage,
      ),
    };
    this.#prepared.set(name, statement);
    return statement;
  }
}

/** A client that runs named prepared statements itself (the embedded one; node-postgres names its own). */
export interface NamedStatementRunner {
  executeNamed<T>(name: string, text: string, params: unknown[]): Promise<Results<T>>;
}

export function runsNamedStatements(client: unknown): client is NamedStatementRunner {
  return typeof (client as Partial<NamedStatementRunner> | null)?.executeNamed === 'function';
}

/** Embedded PostgreSQL in `dataDir` (in memory when undefined), ready for queries. */
export async function openEmbeddedClient(dataDir: string | undefined, options: PGliteOptions) {
  const client = new EmbeddedClient(dataDir, options);
  await client.waitReady;
  // After start-up, which registers a parser for every array type (it would replace ours).
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = keepText;
  return client;
}
