import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { JOB_SCHEMA } from '../jobs.js';

export interface QueueState {
  queue: string;
  /** pg-boss's states before a job is finished, and `failed` (kept an hour before it is archived). */
  state: 'created' | 'retry' | 'active' | 'failed';
  jobs: number;
  /** Age of the oldest job of this state that may run now; null when none may yet (a retry's delay). */
  oldestReadySeconds: number | null;
}

/**
 * The job queues as every process shares them: jobs per queue and state (0 included, so an empty
 * queue is a series too), read from pg-boss's live table. Finished jobs are left out by state (they
 * leave the table after an hour, docs/decisions/026).
 */
export async function readQueueStates(db: Db): Promise<QueueState[]> {
  const schema = sql.raw(JOB_SCHEMA);
  const result = await db.execute<{
    queue: string;
    state: QueueState['state'];
    jobs: number;
    oldest_ready_seconds: number | null;
  }>(sql`
    select q.name as queue, s.state, count(j.id)::int as jobs,
      extract(epoch from now() - min(j.created_on) filter (where j.start_after <= now()))::float8 as oldest_ready_seconds
    from ${schema}.queue q
    cross join (values ('created'), ('retry'), ('active'), ('failed')) as s(state)
    left join ${schema}.job j on j.name = q.name and j.state = s.state::${schema}.job_state
    group by q.name, s.state`);
  return result.rows.map((row) => ({
    queue: row.queue,
    state: row.state,
    jobs: Number(row.jobs),
    oldestReadySeconds: row.oldest_ready_seconds === null ? null : Number(row.oldest_ready_seconds),
  }));
}
