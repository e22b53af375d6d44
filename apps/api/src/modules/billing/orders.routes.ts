import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createOrderBodySchema,
  orderCreatedSchema,
  paymentVerifiedSchema,
  sandboxPayBodySchema,
  successSchema,
  verifyPaymentBodySchema,
} from '@portal/shared';
import { access, requireActor } from '../../plugins/access.js';
import { createOrder, sandboxPay, verifyPayment } from './orders.service.js';

const tags = ['billing'];

export async function ordersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/admin/payment/order',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Create an online payment order for credits (priced on the server)',
        body: createOrderBodySchema,
        response: { 201: successSchema(orderCreatedSchema) },
      },
    },
    async (request, reply) => {
      const data = await createOrder(app.deps, requireActor(request), {
        body: request.body,
      });
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.post(
    '/api/admin/payment/verify',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: 'Verify a checkout signature; grants the credits once',
        body: verifyPaymentBodySchema,
        response: { 200: successSchema(paymentVerifiedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await verifyPayment(app.deps, requireActor(request), {
        body: request.body,
      }),
    }),
  );

  app.post(
    '/api/admin/payment/sandbox/pay',
    {
      config: { access: access.can('subscriptions', 'CREATE') },
      schema: {
        tags,
        summary: "The sandbox's test checkout (404 unless the sandbox provider is active)",
        body: sandboxPayBodySchema,
        response: {
          200: successSchema(
            z.object({
              razorpay_order_id: z.string(),
              razorpay_payment_id: z.string(),
              razorpay_signature: z.string(),
            }),
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sandboxPay(app.deps, requireActor(request), {
        body: request.body,
      }),
    }),
  );
}
