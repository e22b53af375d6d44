import type { Env } from '../../../env.js';
import type { PaymentProvider } from './payment-provider.js';
import { createRazorpayProvider } from './razorpay-provider.js';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.js';

export type { PaymentProvider, ProviderOrder } from './payment-provider.js';
export type { SandboxProvider } from './sandbox-provider.js';

/**
 * The provider env.ts resolved: Razorpay when chosen or keyed, else the sandbox, which production
 * takes only with PAYMENT_PROVIDER=sandbox (docs/product.md, "Subscriptions and payments").
 */
export function createPaymentProvider(
  env: Env,
  sandboxSecret: () => Promise<string>,
): Promise<PaymentProvider> {
  if (env.paymentProvider === 'razorpay' && env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET) {
    return Promise.resolve(
      createRazorpayProvider({
        keyId: env.RAZORPAY_KEY_ID,
        keySecret: env.RAZORPAY_KEY_SECRET,
        webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? null,
      }),
    );
  }
  return sandboxSecret().then(createSandboxProvider);
}

export function isSandbox(provider: PaymentProvider): provider is SandboxProvider {
  return provider.name === 'sandbox';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the billing module: Razorpay or the sandbox. */
    paymentProvider: PaymentProvider;
  }
}
