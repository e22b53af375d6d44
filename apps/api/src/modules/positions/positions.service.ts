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
import * as repo from './positions.repo.js';

const text = messages.positions;

export async function listPositions(db: Db, auth: Actor, query: PositionListQuery) {
  const scope = tenantScope(auth);
  if (scope && query.organizationId && query.organizationId !== scope)
    throw notFound(text.organizationNotFound);
  return repo.listPositions(db, {
    organizationId: scope ?? query.organizationId ?? null,
    search: query.search || undefined,
    status: query.status,
    sort: query.sort,
    order: query.order,
    page: query.page,
    pageSize: query.pageSize,
  });
}

async function visiblePosition(db: Db, auth: Actor, id: string, lock = false): Promise<Position> {
  const position = await repo.findPosition(db, id, tenantScope(auth), lock);
  if (!position) throw notFound(text.notFound);
  return position;
}

export function getPosition(db: Db, auth: Actor, id: string): Promise<Position> {
  return visiblePosition(db, auth, id);
}

/** Positions belong to the caller's organization; super_admin may name another one. */
async function targetOrganization(db: Db, auth: Actor, requested: string | undefined): Promise<string> {
  const scope = tenantScope(auth);
  if (scope) {
    // Another tenant's id answers as if it did not exist.
    if (requested && requested !== scope) throw notFound(text.organizationNotFound);
    return scope;
  }
  if (!requested) return auth.organizationId;
  if (!(await repo.organizationExists(db, requested))) throw notFound(text.organizationNotFound);
  return requested;
}

export async function createPosition(db: Db, auth: Actor, body: CreatePositionBody): Promise<Position> {
  const organizationId = await targetOrganization(db, auth, body.organizationId);
  const id = await db.transaction(async (tx) => {
    const newId = await repo.insertPosition(tx, {
      organizationId,
      title: body.title,
      department: body.department,
      location: body.location,
      openings: body.openings,
      createdBy: auth.userId,
    });
    await recordActivity(tx, {
      organizationId,
      actorUserId: auth.userId,
      action: 'created',
      entityType: 'position',
      entityId: newId,
      message: `Position "${body.title}" created (${body.openings} opening${body.openings === 1 ? '' : 's'})`,
    });
    return newId;
  });
  return (await repo.findPosition(db, id, null))!;
}

export async function updatePosition(
  db: Db,
  auth: Actor,
  id: string,
  body: UpdatePositionBody,
): Promise<Position> {
  await db.transaction(async (tx) => {
    const current = await visiblePosition(tx, auth, id, true);
    await repo.updatePosition(tx, id, {
      title: body.title,
      department: body.department,
      location: body.location,
      openings: body.openings,
    });
    await recordActivity(tx, {
      organizationId: current.organizationId,
      actorUserId: auth.userId,
      action: 'updated',
      entityType: 'position',
      entityId: id,
      message: `Position "${body.title}" updated`,
    });
  });
  return (await repo.findPosition(db, id, null))!;
}

export async function setPositionStatus(
  db: Db,
  auth: Actor,
  id: string,
  status: Position['status'],
): Promise<Position> {
  await db.transaction(async (tx) => {
    const current = await visiblePosition(tx, auth, id, true);
    if (current.status === status)
      throw conflict(status === 'Closed' ? text.alreadyClosed : text.alreadyOpen);
    await repo.updatePosition(tx, id, { status, closedAt: status === 'Closed' ? new Date() : null });
    await recordActivity(tx, {
      organizationId: current.organizationId,
      actorUserId: auth.userId,
      action: 'updated',
      entityType: 'position',
      entityId: id,
      message: `Position "${current.title}" ${status === 'Closed' ? 'closed' : 'reopened'}`,
    });
  });
  return (await repo.findPosition(db, id, null))!;
}
