import type { Db } from '../../db/client.js';
import type { Env } from '../../env.js';
import { getOrCreateSecret } from '../settings.repo.js';
import type { MandateDebits, MandateRegistration, PaymentProvider } from './payment-provider.js';
import { createRazorpayProvider, type RazorpayProvider } from './razorpay-provider.js';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.js';

export type {
  Mandate,
  MandateCharge,
  MandateDebits,
  MandateRegistration,
  PaymentProvider,
  ProviderOrder,
} from './payment-provider.js';
export { razorpayRefusal, type RazorpayApi } from './razorpay-api.js';
export { createRazorpayProvider, type RazorpayProvider } from './razorpay-provider.js';
export type { SandboxProvider } from './sandbox-provider.js';

/**
 * The provider env.ts resolved: Razorpay when chosen or keyed, else the sandbox, which production
 * takes only with PAYMENT_PROVIDER=sandbox (docs/product.md, "Subscriptions and payments"). The
 * sandbox's secret is kept in app_settings, so every API process on the database signs alike.
 */
export function createPaymentProvider(deps: { env: Env; db: Db }): Promise<PaymentProvider> {
  const { env } = deps;
  if (env.paymentProvider === 'razorpay' && env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET) {
    return Promise.resolve(
      createRazorpayProvider({
        keyId: env.RAZORPAY_KEY_ID,
        keySecret: env.RAZORPAY_KEY_SECRET,
        webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? null,
      }),
    );
  }
  return getOrCreateSecret(deps.db, 'sandbox_payment_secret').then((secret) =>
    createSandboxProvider(secret, deps.db),
  );
}

export function isSandbox(provider: PaymentProvider): provider is SandboxProvider {
  return provider.name === 'sandbox';
}

function isRazorpay(provider: PaymentProvider): provider is RazorpayProvider {
  return provider.name === 'razorpay';
}

/** The provider's mandate debits (both providers offer them; docs/decisions/027). */
export function mandateDebitsOf(provider: PaymentProvider): MandateDebits | null {
  return isSandbox(provider) || isRazorpay(provider) ? provider : null;
}

/** Registration of a mandate in the provider's own checkout: Razorpay's (the sandbox has its own form). */
export function mandateRegistrationOf(provider: PaymentProvider): MandateRegistration | null {
  return isRazorpay(provider) ? provider : null;
}
