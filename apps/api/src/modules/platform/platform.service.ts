import type { Visitor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { appliedMigrationCount, shippedMigrationCount } from '../../db/migration-state.js';
import { within } from '../../lib/within.js';
import { pingDatabase } from './platform.repo.js';

/** A database that has not answered by then counts as unreachable. */
const READY_DATABASE_TIMEOUT_MS = 2_000;

/** Public settings the web app needs before sign-in (links from configuration). */
export function publicSettings(deps: Deps, _actor: Visitor) {
  const { env } = deps;
  const razorpay = env.paymentProvider === 'razorpay';
  return {
    productUrl: env.PRODUCT_URL,
    chatbotUrl: env.CHATBOT_URL,
    // 'sandbox' makes every screen show "Test mode".
    paymentProvider: env.paymentProvider,
    razorpayKeyId: razorpay ? (env.RAZORPAY_KEY_ID ?? null) : null,
  };
}

/** Liveness: the database answers; which kind it is (pglite or postgres). */
export async function checkHealth(deps: Deps, _actor: Visitor): Promise<{ database: string }> {
  await pingDatabase(deps.db);
  return { database: deps.dbKind };
}

export interface Readiness {
  ready: boolean;
  /** What stops it, each with the operator's reading: the database, its migrations, the shutdown. */
  problems: Record<string, string[]>;
}

/**
 * Readiness, for a load balancer or orchestrator: not ready while the database does not answer within
 * READY_DATABASE_TIMEOUT_MS, while migrations are pending (another process is applying them), or once
 * the process is draining after SIGTERM.
 */
export async function checkReadiness(deps: Deps, _actor: Visitor): Promise<Readiness> {
  const problems: Record<string, string[]> = {};
  if (deps.lifecycle.draining) problems.draining = ['The process is shutting down.'];
  try {
    const applied = await within(READY_DATABASE_TIMEOUT_MS, appliedMigrationCount(deps.db));
    const pending = shippedMigrationCount() - applied;
    if (pending > 0) problems.migrations = [`${pending} migration(s) not yet applied.`];
  } catch {
    problems.database = [`The database did not answer within ${READY_DATABASE_TIMEOUT_MS} ms.`];
  }
  return { ready: Object.keys(problems).length === 0, problems };
}
