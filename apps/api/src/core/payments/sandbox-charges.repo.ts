import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sandboxMandateCharges } from '../../db/schema/index.js';

export type SandboxCharge = typeof sandboxMandateCharges.$inferSelect;

/** Records a mandate charge unless its receipt has one already; answers the charge on record. */
export async function recordSandboxCharge(
  db: Db,
  charge: { receipt: string; providerPaymentId: string | null; amountPaise: number; failure: string | null },
): Promise<SandboxCharge> {
  await db.insert(sandboxMandateCharges).values(charge).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(sandboxMandateCharges)
    .where(eq(sandboxMandateCharges.receipt, charge.receipt));
  return row!;
}
