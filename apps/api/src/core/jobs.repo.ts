import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '../db/client.js';

/**
 * pg-boss's statements run through drizzle on `db`: the pool, or a transaction's connection. Its
 * `$n` placeholders become drizzle parameters, so one code path serves both databases and transactions.
 */
export function executorOn(db: Db): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const query: SQL =
        values.length === 0
          ? sql.raw(text)
          : sql.join(
              text
                .split(/\$(\d+)/)
                .map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1]))),
            );
      const result = (await db.execute(query)) as unknown as { rows: unknown[] } | { rows: unknown[] }[];
      return Array.isArray(result) ? result[result.length - 1]! : result;
    },
  };
}
