import type { z } from 'zod';
import {
  MANUAL_PAYMENT_RECEIVED_BY,
  meets,
  messages,
  REQUIREMENTS,
  type Amounts,
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

/** The route's and the import's one check before onboarding: who may, and the amounts recomputed. */
function checkOnboarding(actor: Actor, body: OnboardingInput): Amounts {
  // The route needs User Management CREATE; a new tenant needs all of this (the web shows it so too).
  if (!meets(actor, REQUIREMENTS.onboardOrganization)) throw forbidden();
  return checkAmounts(body.subscription);
}

/** What one onboarding made: its answer, and what to count once its transaction has committed. */
export interface Onboarded {
  data: OnboardingResult;
  /** Business metrics; run it after the commit only (a rolled-back onboarding counts nothing). */
  afterCommit: () => Promise<void>;
}

/**
 * One onboarding in the caller's transaction (`deps.db`): the organization (made by createUserIn when
 * new), its admin user (invite link emailed, no password), the subscription, the manual payment record
 * linked both ways when there is one, the ledger grants and the plan. The route's `onboard` and the
 * organizations import both come here. Throws the screens' AppErrors: 403 (not the platform's
 * operator), 400 (amounts that do not add up, a broken field), 404 (no admin role), 409
 * `messages.users.duplicate` (username or email taken).
 */
export async function onboardIn(deps: Deps, actor: Actor, body: OnboardingInput): Promise<Onboarded> {
  const amounts = checkOnboarding(actor, body);
  const tx = deps.db;
  const roleId = body.user.roleId ?? (await findAdminRoleId(tx));
  if (!roleId) throw notFound(messages.users.adminRoleNotFound);
  const paid = body.payment !== undefined;
  const created = await createUserIn(deps, actor, {
    ...body.user,
    roleId,
    isSubscription: true,
  });
  const organizationId = created.user.organizationId;
  await lockOrganization(tx, organizationId);

  let subscription = await insertSubscriptionRecord(deps, actor, {
    organizationId,
    terms: body.subscription,
    amounts,
    paymentId: null,
    paid,
    ...newPeriod(deps.clock.now()),
  });

  let payment = null;
  if (body.payment) {
    const transactionId = body.payment.transactionId;
    ({ payment } = await recordManualPayment(deps, actor, {
      organizationId,
      subscriptionId: subscription.id,
      amountPaise: subscription.grandTotalAmountPaise,
      paymentMethod: body.payment.paymentMethod.toUpperCase() as Uppercase<typeof body.payment.paymentMethod>,
      paymentCapture: true,
      manualReferenceNumber: transactionId,
      paymentProofReference: transactionId,
      receivedBy: MANUAL_PAYMENT_RECEIVED_BY,
      paymentNotes: body.payment.remarks || messages.payment.defaultNotes,
      paymentDate: new Date(body.payment.paymentDate),
    }));
    subscription = await updateSubscriptionRow(tx, subscription.id, { paymentId: payment.id });
  }
  await grantSubscriptionCredits(deps, actor, { subscription });
  await setUpPlan(deps, actor, {
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
  const metrics = deps.metrics.business;
  return {
    data,
    afterCommit: async () => {
      metrics.creditsSold('subscription', subscription.totalInterviewCredits);
      if (payment) countManualPayment(metrics, payment);
    },
  };
}

/**
 * POST /api/auth/onboarding: `onboardIn` as ONE transaction, so either all of it is committed or none
 * of it; the Idempotency-Key makes a retry answer the first result.
 */
export async function onboard(deps: Deps, actor: Actor, input: { body: OnboardingInput; key: string }) {
  const { body, key } = input;
  // Refused before the key is claimed, as the route always has.
  checkOnboarding(actor, body);
  return runIdempotent<{ success: true; data: OnboardingResult }>(deps, actor, {
    key,
    route: ONBOARDING_ROUTE,
    payload: body,
    work: async (txDeps) => {
      const { data, afterCommit } = await onboardIn(txDeps, actor, body);
      return { status: 201, body: { success: true as const, data }, afterCommit };
    },
  });
}
