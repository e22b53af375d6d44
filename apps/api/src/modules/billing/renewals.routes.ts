import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  advanceClockBodySchema,
  billingPlanQuerySchema,
  clockAdvancedSchema,
  billingPlanSchema,
  billingPlanViewSchema,
  idParamsSchema,
  manualPaymentInputSchema,
  mandateOrderSchema,
  messages,
  orderCreatedSchema,
  pageSchema,
  planCancelledSchema,
  planTermsBodySchema,
  renewalListItemSchema,
  renewalListQuerySchema,
  renewalSchema,
  sandboxMandateBodySchema,
  successSchema,
  updateBillingPlanBodySchema,
  upgradePlanBodySchema,
  verifyPaymentBodySchema,
} from '@portal/shared';
import { systemActor } from '../../core/actor.js';
import { OffsetClock } from '../../core/clock.js';
import { access, requireActor } from '../../plugins/access.js';
import { readIdempotencyKey } from './idempotency-key.js';
import { createRenewalOrder, createUpgradeOrder } from './orders.service.js';
import {
  authorizeSandboxMandate,
  cancelMandate,
  confirmMandateAuthorization,
  startMandateAuthorization,
} from './mandates.service.js';
import {
  billingPlanView,
  cancelPlanNow,
  changePlanTerms,
  listRenewals,
  recordRenewalPayment,
  runRenewals,
  setAutoRenew,
  skipRenewal,
} from './renewals.service.js';

const tags = ['billing'];

/**
 * The monthly plan and its renewals (docs/product.md "Renewals"). The admin system role holds
 * Subscription Management READ and CREATE, so its own plan's choices (auto-renewal, skipping a debit,
 * the mandate) need CREATE, as its API keys do; recording a payment is the platform operator's.
 */
export async function renewalsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/auth/billing-plan',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: "The organization's monthly plan and its latest renewals",
        querystring: billingPlanQuerySchema,
        response: { 200: successSchema(billingPlanViewSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await billingPlanView(app.deps, requireActor(request), request.query),
    }),
  );

  app.put(
    '/api/auth/billing-plan',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Turn automatic renewal on or off',
        querystring: billingPlanQuerySchema,
        body: updateBillingPlanBodySchema,
        response: { 200: successSchema(billingPlanSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await setAutoRenew(app.deps, requireActor(request), {
        organizationId: request.query.organizationId,
        autoRenew: request.body.autoRenew,
      }),
    }),
  );

  app.put(
    '/api/auth/billing-plan/terms',
    {
      // The price, GST and rollover cap also need Organization Management CREATE (the operator).
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: "The plan's terms from its next renewal not yet announced",
        querystring: billingPlanQuerySchema,
        body: planTermsBodySchema,
        response: { 200: successSchema(billingPlanSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await changePlanTerms(app.deps, requireActor(request), {
        organizationId: request.query.organizationId,
        body: request.body,
      }),
    }),
  );

  app.post(
    '/api/auth/billing-plan/upgrade',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary:
          "More credits a month from now: an order for the period's prorated share, then the usual checkout",
        querystring: billingPlanQuerySchema,
        body: upgradePlanBodySchema,
        response: { 201: successSchema(orderCreatedSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        success: true as const,
        data: await createUpgradeOrder(app.deps, requireActor(request), {
          organizationId: request.query.organizationId,
          creditsPerPeriod: request.body.creditsPerPeriod,
        }),
      }),
  );

  app.post(
    '/api/auth/billing-plan/mandate/cancel',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Cancel the card mandate: nothing is debited from it again',
        querystring: billingPlanQuerySchema,
        response: { 200: successSchema(billingPlanSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await cancelMandate(app.deps, requireActor(request), {
        organizationId: request.query.organizationId,
      }),
    }),
  );

  app.post(
    '/api/auth/billing-plan/mandate/order',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary:
          'Razorpay: the order that authorizes a card mandate in Checkout (₹1, refunded; 404 with the sandbox)',
        response: { 200: successSchema(mandateOrderSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await startMandateAuthorization(app.deps, requireActor(request), {}),
    }),
  );

  app.post(
    '/api/auth/billing-plan/mandate/verify',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: "Razorpay: Checkout's answer for the authorization order; its token becomes the mandate",
        body: verifyPaymentBodySchema,
        response: { 200: successSchema(billingPlanSchema).extend({ message: z.string() }) },
      },
    },
    async (request) => ({
      success: true as const,
      message: messages.renewals.mandateAuthorized,
      data: await confirmMandateAuthorization(app.deps, requireActor(request), {
        orderId: request.body.razorpay_order_id,
        paymentId: request.body.razorpay_payment_id,
        signature: request.body.razorpay_signature,
      }),
    }),
  );

  app.post(
    '/api/auth/billing-plan/cancel-now',
    {
      // Also needs Organization Management CREATE and the refund requirement, checked in the service.
      config: { access: access.can('subscriptions', 'UPDATE') },
      schema: {
        tags,
        summary:
          'Cancel the plan now (Idempotency-Key required): the rest of the running period refunded with its credit notes',
        querystring: billingPlanQuerySchema,
        response: { 200: successSchema(planCancelledSchema).extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const result = await cancelPlanNow(app.deps, requireActor(request), {
        organizationId: request.query.organizationId,
        key: readIdempotencyKey(request, true),
      });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.status as 200).send(result.body);
    },
  );

  app.get(
    '/api/auth/renewals',
    {
      config: { access: access.can('subscriptions', 'READ') },
      schema: {
        tags,
        summary: 'Renewals by what needs doing (every organization for the platform operator)',
        querystring: renewalListQuerySchema,
        response: { 200: pageSchema(renewalListItemSchema) },
      },
    },
    async (request) => listRenewals(app.deps, requireActor(request), request.query),
  );

  app.post(
    '/api/auth/renewals/:id/order',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'An online payment order for a renewal waiting for the customer (then the usual checkout)',
        params: idParamsSchema,
        response: { 201: successSchema(orderCreatedSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        success: true as const,
        data: await createRenewalOrder(app.deps, requireActor(request), { id: request.params.id }),
      }),
  );

  app.post(
    '/api/auth/renewals/:id/skip',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Skip one announced renewal before it is charged',
        params: idParamsSchema,
        response: { 200: successSchema(renewalSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await skipRenewal(app.deps, requireActor(request), { id: request.params.id }),
    }),
  );

  app.post(
    '/api/auth/renewals/:id/payments',
    {
      // Also needs Organization Management CREATE (platform operator), checked in the service.
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Record a payment received for a renewal: its invoice and the period’s credits',
        params: idParamsSchema,
        body: manualPaymentInputSchema,
        response: { 201: successSchema(renewalSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        success: true as const,
        data: await recordRenewalPayment(app.deps, requireActor(request), {
          id: request.params.id,
          body: request.body,
        }),
      }),
  );

  // Only on a portal started with TEST_CLOCK=on (never in production): browser tests see months pass.
  const clock = app.deps.clock;
  if (clock instanceof OffsetClock) {
    app.post(
      '/api/auth/test-clock',
      {
        config: { access: access.can('organizations', 'CREATE') },
        schema: {
          tags,
          summary: 'Test portals only: move the billing clock forward, then run renewals and their debits',
          body: advanceClockBodySchema,
          response: { 200: successSchema(clockAdvancedSchema) },
        },
      },
      async (request) => {
        clock.advance(request.body.hours * 3_600_000);
        await runRenewals(app.deps, systemActor('test-clock'));
        await app.deps.jobs.settled();
        return { success: true as const, data: { now: clock.now().toISOString() } };
      },
    );
  }

  app.post(
    '/api/admin/payment/sandbox/mandate',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: "The sandbox's checkout registers a card mandate (404 unless the sandbox is active)",
        body: sandboxMandateBodySchema,
        response: { 200: successSchema(billingPlanSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await authorizeSandboxMandate(app.deps, requireActor(request), request.body),
    }),
  );
}
