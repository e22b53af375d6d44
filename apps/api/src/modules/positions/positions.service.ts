import {
  messages,
  type CreatePositionBody,
  type Position,
  type PositionListQuery,
  type UpdatePositionBody,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../lib/errors.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import * as repo from './positions.repo.js';

const text = messages.positions;

export async function listPositions(deps: Deps, actor: Actor, query: PositionListQuery) {
  const scope = tenantScope(actor);
  if (scope && query.organizationId && query.organizationId !== scope)
    throw notFound(text.organizationNotFound);
  return repo.listPositions(deps.db, {
    organizationId: scope ?? query.organizationId ?? null,
    search: query.search || undefined,
    status: query.status,
    sort: query.sort,
    order: query.order,
    page: query.page,
    pageSize: query.pageSize,
  });
}

async function visiblePosition(db: Db, actor: Actor, id: string, lock = false): Promise<Position> {
  const position = await repo.findPosition(db, id, tenantScope(actor), lock);
  if (!position) throw notFound(text.notFound);
  return position;
}

export function getPosition(deps: Deps, actor: Actor, input: { id: string }): Promise<Position> {
  return visiblePosition(deps.db, actor, input.id);
}

/** Lookups in bulk: at most this many titles a statement. */
const TITLE_CHUNK = 1_000;

/**
 * The organization's positions holding any of these titles, compared without case (positions are
 * not unique by title: one title may answer several). Another tenant's organization is a 404.
 */
export async function positionsByTitles(
  deps: Deps,
  actor: Actor,
  input: { organizationId: string; titles: readonly string[] },
): Promise<Position[]> {
  const scope = tenantScope(actor);
  if (scope && input.organizationId !== scope) throw notFound(text.organizationNotFound);
  const titles = [...new Set(input.titles.map((t) => t.trim().toLowerCase()))];
  const found: Position[] = [];
  for (let i = 0; i < titles.length; i += TITLE_CHUNK) {
    found.push(
      ...(await repo.findPositionsByTitles(deps.db, input.organizationId, titles.slice(i, i + TITLE_CHUNK))),
    );
  }
  return found;
}

/**
 * For the caller's transaction (`deps.db`), whoever else creates the organization's positions by
 * title in bulk waits: a bulk import looks a title up, then creates it, and two imports of the same
 * file committed at once must not both find it free.
 */
export async function holdPositionTitles(deps: Deps, actor: Actor, input: { organizationId: string }) {
  const scope = tenantScope(actor);
  if (scope && input.organizationId !== scope) throw notFound(text.organizationNotFound);
  await repo.lockTitlesOf(deps.db, input.organizationId);
}

/** Positions belong to the caller's organization; super_admin may name another one. */
async function targetOrganization(db: Db, actor: Actor, requested: string | undefined): Promise<string> {
  const scope = tenantScope(actor);
  if (scope) {
    // Another tenant's id answers as if it did not exist.
    if (requested && requested !== scope) throw notFound(text.organizationNotFound);
    return scope;
  }
  if (!requested) return actor.organizationId;
  if (!(await repo.organizationExists(db, requested))) throw notFound(text.organizationNotFound);
  return requested;
}

export async function createPosition(deps: Deps, actor: Actor, body: CreatePositionBody): Promise<Position> {
  const organizationId = await targetOrganization(deps.db, actor, body.organizationId);
  const id = await deps.db.transaction(async (tx) => {
    const newId = await repo.insertPosition(tx, {
      organizationId,
      title: body.title,
      department: body.department,
      location: body.location,
      openings: body.openings,
      createdBy: actor.userId,
    });
    await recordActivity(tx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'created',
      entityType: 'position',
      entityId: newId,
      message: `Position "${body.title}" created (${body.openings} opening${body.openings === 1 ? '' : 's'})`,
    });
    return newId;
  });
  return (await repo.findPosition(deps.db, id, null))!;
}

export async function updatePosition(
  deps: Deps,
  actor: Actor,
  input: { id: string; body: UpdatePositionBody },
): Promise<Position> {
  const { id, body } = input;
  await deps.db.transaction(async (tx) => {
    const current = await visiblePosition(tx, actor, id, true);
    await repo.updatePosition(tx, id, {
      title: body.title,
      department: body.department,
      location: body.location,
      openings: body.openings,
    });
    await recordActivity(tx, {
      organizationId: current.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'position',
      entityId: id,
      message: `Position "${body.title}" updated`,
    });
  });
  return (await repo.findPosition(deps.db, id, null))!;
}

export async function setPositionStatus(
  deps: Deps,
  actor: Actor,
  input: { id: string; status: Position['status'] },
): Promise<Position> {
  const { id, status } = input;
  await deps.db.transaction(async (tx) => {
    const current = await visiblePosition(tx, actor, id, true);
    if (current.status === status)
      throw conflict(status === 'Closed' ? text.alreadyClosed : text.alreadyOpen);
    await repo.updatePosition(tx, id, { status, closedAt: status === 'Closed' ? new Date() : null });
    await recordActivity(tx, {
      organizationId: current.organizationId,
      actorUserId: actor.userId,
      action: 'updated',
      entityType: 'position',
      entityId: id,
      message: `Position "${current.title}" ${status === 'Closed' ? 'closed' : 'reopened'}`,
    });
  });
  return (await repo.findPosition(deps.db, id, null))!;
}
