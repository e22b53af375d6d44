import type { z } from 'zod';
import {
  MANUAL_PAYMENT_RECEIVED_BY,
  meets,
  messages,
  REQUIREMENTS,
  type OnboardingResult,
  type onboardingBodySchema,
} from '@portal/shared';
import { forbidden, notFound } from '../../lib/errors.js';
import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { createUserIn } from '../users/index.js';
import { toPaymentDto, toSubscriptionDto } from './dto.js';
import { runIdempotent } from './idempotency.service.js';
import { creditBalance, lockOrganization } from './ledger.repo.js';
import { findAdminRoleId } from './onboarding.repo.js';
import { countManualPayment } from './business-metrics.js';
import { recordManualPayment } from './payments.service.js';
import { checkAmounts, newPeriod } from './rules.js';
import { setUpPlan } from './renewals.service.js';
import { updateSubscriptionRow } from './subscriptions.repo.js';
import { grantSubscriptionCredits, insertSubscriptionRecord } from './subscriptions.service.js';

type OnboardingInput = z.output<typeof onboardingBodySchema>;

export const ONBOARDING_ROUTE = 'POST /api/auth/onboarding';

/**
 * Onboarding (invite, subscription, and the manual payment when there is one) as ONE transaction: the
 * organization (made by createUserIn when new), its admin user (invite link emailed, no password), the
 * subscription, the manual payment record linked both ways, and the ledger grants. Either all of it
 * is committed or none of it; the Idempotency-Key makes a retry answer the first result.
 */
export async function onboard(deps: Deps, actor: Actor, input: { body: OnboardingInput; key: string }) {
  const { body, key } = input;
  // The route needs User Management CREATE; a new tenant needs all of this (the web shows it so too).
  if (!meets(actor, REQUIREMENTS.onboardOrganization)) throw forbidden();
  const amounts = checkAmounts(body.subscription);

  return runIdempotent<{ success: true; data: OnboardingResult }>(deps, actor, {
    key,
    route: ONBOARDING_ROUTE,
    payload: body,
    work: async (txDeps) => {
      const tx = txDeps.db;
      const roleId = body.user.roleId ?? (await findAdminRoleId(tx));
      if (!roleId) throw notFound(messages.users.adminRoleNotFound);
      const paid = body.payment !== undefined;
      const created = await createUserIn(txDeps, actor, {
        ...body.user,
        roleId,
        isSubscription: true,
      });
      const organizationId = created.user.organizationId;
      await lockOrganization(tx, organizationId);

      let subscription = await insertSubscriptionRecord(txDeps, actor, {
        organizationId,
        terms: body.subscription,
        amounts,
        paymentId: null,
        paid,
        ...newPeriod(txDeps.clock.now()),
      });

      let payment = null;
      if (body.payment) {
        const transactionId = body.payment.transactionId;
        ({ payment } = await recordManualPayment(txDeps, actor, {
          organizationId,
          subscriptionId: subscription.id,
          amountPaise: subscription.grandTotalAmountPaise,
          paymentMethod: body.payment.paymentMethod.toUpperCase() as Uppercase<
            typeof body.payment.paymentMethod
          >,
          paymentCapture: true,
          manualReferenceNumber: transactionId,
          paymentProofReference: transactionId,
          receivedBy: MANUAL_PAYMENT_RECEIVED_BY,
          paymentNotes: body.payment.remarks || messages.payment.defaultNotes,
          paymentDate: new Date(body.payment.paymentDate),
        }));
        subscription = await updateSubscriptionRow(tx, subscription.id, { paymentId: payment.id });
      }
      await grantSubscriptionCredits(txDeps, actor, { subscription });
      await setUpPlan(txDeps, actor, {
        organizationId,
        terms: body.subscription,
        validFrom: subscription.validFrom,
        autoRenew: body.autoRenew,
      });

      const data: OnboardingResult = {
        user: {
          id: created.user.id,
          username: created.user.username,
          email: created.user.email,
          organizationId,
        },
        subscription: toSubscriptionDto(subscription),
        payment: payment ? toPaymentDto(payment) : null,
        creditBalance: await creditBalance(tx, organizationId),
      };
      return {
        status: 201,
        body: { success: true as const, data },
        afterCommit: async () => {
          deps.metrics.business.creditsSold('subscription', subscription.totalInterviewCredits);
          if (payment) countManualPayment(deps.metrics.business, payment);
        },
      };
    },
  });
}
