import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  messages,
  type billingListQuerySchema,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@portal/shared';
import { notFound } from '../../lib/errors.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import { tenantScope, type Actor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import { KEY_PREFIX, SHOWN_PREFIX_LENGTH } from './api-key-auth.js';
import { findOrganizationById } from '../users/users.repo.js';
import { findApiKey, insertApiKey, listApiKeyRows, revokeApiKeyRow } from './api-keys.repo.js';
import { toApiKeyDto } from './dto.js';
import { organizationFor, paged } from './rules.js';

export async function createApiKey(
  app: FastifyInstance,
  auth: Actor,
  body: CreateApiKeyBody,
): Promise<CreatedApiKey> {
  const organizationId = organizationFor(auth, body.organizationId);
  if (!(await findOrganizationById(app.db, organizationId))) {
    throw notFound(messages.users.organizationNotFound);
  }
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await app.db.transaction(async (tx) => {
    const inserted = await insertApiKey(tx, {
      organizationId,
      name: body.name.trim(),
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      keyHash: sha256Hex(key),
      createdBy: auth.userId,
    });
    await recordActivity(tx, {
      organizationId,
      actorUserId: auth.userId,
      action: 'created',
      entityType: 'api_key',
      entityId: inserted.id,
      message: `Created API key ${inserted.name} (${inserted.prefix}…)`,
    });
    return inserted;
  });
  return { ...toApiKeyDto(row), key };
}

export async function listApiKeys(
  app: FastifyInstance,
  auth: Actor,
  query: z.output<typeof billingListQuerySchema>,
) {
  const organizationId = organizationFor(auth, query.organizationId);
  return paged(query, (window) => listApiKeyRows(app.db, organizationId, window), toApiKeyDto);
}

/** Revoking is final; revoking a revoked key answers its record again. */
export async function revokeApiKey(app: FastifyInstance, auth: Actor, id: string) {
  const scope = tenantScope(auth);
  return app.db.transaction(async (tx) => {
    const row = await revokeApiKeyRow(tx, id, scope);
    if (!row) {
      const existing = await findApiKey(tx, id, scope);
      if (!existing) throw notFound(messages.billing.apiKeyNotFound);
      return toApiKeyDto(existing);
    }
    await recordActivity(tx, {
      organizationId: row.organizationId,
      actorUserId: auth.userId,
      action: 'deleted',
      entityType: 'api_key',
      entityId: row.id,
      message: `Revoked API key ${row.name} (${row.prefix}…)`,
    });
    return toApiKeyDto(row);
  });
}
