import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { getOrCreateSecret } from '../../core/settings.repo.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { creditsRoutes } from './credits.routes.js';
import { onboardingRoutes } from './onboarding.routes.js';
import { ordersRoutes } from './orders.routes.js';
import { paymentsRoutes } from './payments.routes.js';
import { createPaymentProvider } from './provider/index.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { webhookRoutes } from './webhook.routes.js';

/**
 * Subscriptions, payments, onboarding, online orders, webhooks, the credit ledger and API keys
 * (see README.md beside this file). Wrapped with fastify-plugin so `app.paymentProvider` is visible
 * to the whole app (tests replace its methods); each route group stays its own plugin.
 */
async function billing(app: FastifyInstance) {
  app.decorate(
    'paymentProvider',
    await createPaymentProvider(app.env, () => getOrCreateSecret(app.db, 'sandbox_payment_secret')),
  );
  await app.register(subscriptionsRoutes);
  await app.register(paymentsRoutes);
  await app.register(onboardingRoutes);
  await app.register(ordersRoutes);
  await app.register(webhookRoutes);
  await app.register(creditsRoutes);
  await app.register(apiKeysRoutes);
}

export const billingRoutes = fp(billing, { name: 'billing' });
