import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import type { Metrics } from './metrics.js';

/**
 * The node-postgres pool of this process (read when scraped) and the time of each statement sent
 * through it; answers how to stop timing (the app's close). On PGlite the pool holds one connection,
 * so `waiting` is the queue of requests for the embedded database.
 */
export function observeDatabase(metrics: Metrics, database: Database): () => void {
  const registry: Registry = metrics.registry;
  const gauge = (name: string, help: string, read: (stats: ReturnType<Database['poolStats']>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(database.poolStats()));
      },
    });
  gauge('portal_db_pool_connections', 'Connections the pool holds open', (s) => s.total);
  gauge('portal_db_pool_idle_connections', 'Open connections not in use', (s) => s.idle);
  gauge('portal_db_pool_waiting_requests', 'Requests waiting for a connection', (s) => s.waiting);
  gauge('portal_db_pool_max_connections', 'Largest number of connections the pool opens', (s) => s.max);
  const failed = { outcome: 'failed' };
  const ok = { outcome: 'ok' };
  return database.onStatement((seconds, refused) =>
    metrics.dbStatementDuration.observe(refused ? failed : ok, seconds),
  );
}
