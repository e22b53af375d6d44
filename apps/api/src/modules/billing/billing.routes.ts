import type { FastifyInstance } from 'fastify';
import { apiKeysRoutes } from './api-keys.routes.js';
import { creditsRoutes } from './credits.routes.js';
import { onboardingRoutes } from './onboarding.routes.js';
import { ordersRoutes } from './orders.routes.js';
import { paymentsRoutes } from './payments.routes.js';
import { refundsRoutes } from './refunds.routes.js';
import { renewalsRoutes } from './renewals.routes.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { webhookRoutes } from './webhook.routes.js';

/**
 * Subscriptions, payments and their refunds, onboarding, online orders, webhooks, the credit ledger
 * and API keys (see README.md beside this file), each route group a plugin of its own.
 */
export async function billingRoutes(app: FastifyInstance) {
  await app.register(subscriptionsRoutes);
  await app.register(paymentsRoutes);
  await app.register(refundsRoutes);
  await app.register(onboardingRoutes);
  await app.register(ordersRoutes);
  await app.register(webhookRoutes);
  await app.register(creditsRoutes);
  await app.register(apiKeysRoutes);
  await app.register(renewalsRoutes);
}
