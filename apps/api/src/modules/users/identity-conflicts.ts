import { messages } from '@portal/shared';
import { AppError, tooManyRequests } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { countHit, countInWindow } from '../../core/rate-limits.repo.js';

/**
 * Usernames and emails are unique across the portal, so "already exists" tells a tenant that one is
 * in use, perhaps in another organization. That disclosure is bounded and audited (docs/decisions/
 * 023): each such refusal to a tenant's user is recorded in the organization's activity, and after
 * IDENTITY_CONFLICTS_PER_HOUR of them the organization's invitations and username changes all
 * answer 429 until the hour has passed, taken or not, so the pause itself tells nothing.
 */
export const IDENTITY_CONFLICTS_PER_HOUR = 10;
const IDENTITY_CONFLICT_WINDOW_MS = 60 * 60_000;

/** Refuses with 429 once the organization has had IDENTITY_CONFLICTS_PER_HOUR refusals this hour. */
async function refuseOverBound(deps: Deps, scope: string) {
  const key = `identity-conflicts:org:${scope}`;
  if ((await countInWindow(deps.db, key, IDENTITY_CONFLICT_WINDOW_MS)) >= IDENTITY_CONFLICTS_PER_HOUR) {
    throw tooManyRequests(messages.users.tooManyConflicts);
  }
}

/** One disclosure: counted toward the bound and recorded in the organization's activity. */
async function countDisclosure(deps: Deps, actor: Actor, scope: string, message: string) {
  await countHit(deps.db, `identity-conflicts:org:${scope}`, IDENTITY_CONFLICT_WINDOW_MS);
  await recordActivity(deps.db, {
    organizationId: scope,
    actorUserId: actor.userId,
    action: 'other',
    entityType: 'user',
    entityId: null,
    message,
  });
}

export async function boundIdentityConflicts<T>(
  deps: Deps,
  actor: Actor,
  tried: string,
  work: () => Promise<T>,
): Promise<T> {
  const scope = tenantScope(actor);
  if (scope === null) return work();
  await refuseOverBound(deps, scope);
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.message === messages.users.duplicate) {
      await countDisclosure(
        deps,
        actor,
        scope,
        `Refused: the username or email of ${tried} is already in use`,
      );
    }
    throw error;
  }
}

/**
 * A bulk import's dry run found these identities (described) held in other organizations: each counts
 * as one refusal toward the same hourly bound and is audited the same way, and one past the bound
 * refuses the whole dry run with 429. Call it outside the dry run's transaction, so the count stays.
 */
export async function boundImportConflicts(
  deps: Deps,
  actor: Actor,
  input: { tried: readonly string[] },
): Promise<void> {
  const scope = tenantScope(actor);
  if (scope === null) return;
  for (const tried of input.tried) {
    await refuseOverBound(deps, scope);
    await countDisclosure(
      deps,
      actor,
      scope,
      `Refused in an import: the username or email of ${tried} is already in use`,
    );
  }
}

/** What an audit entry names of a refused identity: the typed username and email, cut short. */
export function describeIdentity(input: { username?: unknown; email?: unknown }): string {
  const part = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 120) : '');
  return [part(input.username), part(input.email)].filter(Boolean).join(' / ') || 'a user';
}
