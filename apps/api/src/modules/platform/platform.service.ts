import type { Visitor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { pingDatabase } from './platform.repo.js';

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
