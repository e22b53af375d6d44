import { messages, type BillingPlan } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { toPlanDto } from './dto.js';
import { findPlan, owedPaise, type PlanRow } from './renewals.repo.js';

/**
 * Changes the organization's plan under its row lock, in one transaction (`change` answers the plan
 * as it leaves it), then answers it as the API shows it. 404 when the organization has no plan.
 */
export async function changePlan(
  deps: Deps,
  organizationId: string,
  change: (tx: Db, current: PlanRow, now: Date) => Promise<PlanRow>,
): Promise<BillingPlan> {
  const now = deps.clock.now();
  const plan = await deps.db.transaction(async (tx) => {
    const current = await findPlan(tx, organizationId, true);
    if (!current) throw notFound(messages.renewals.planNotFound);
    return change(tx, current, now);
  });
  return toPlanDto(plan, now, await owedPaise(deps.db, organizationId, now));
}

/** A change of the plan, in the organization's activity (and its subscription timeline). */
export function notePlanChange(
  db: Deps['db'],
  entry: { organizationId: string; actorUserId: string | null; message: string },
) {
  return recordActivity(db, {
    ...entry,
    action: 'updated',
    entityType: 'billing_plan',
    entityId: entry.organizationId,
  });
}
