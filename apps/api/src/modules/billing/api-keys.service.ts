import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  messages,
  type billingListQuerySchema,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@portal/shared';
import { notFound, unauthorized } from '../../lib/errors.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import { tenantScope, type AuthContext } from '../../plugins/access.js';
import { recordActivity } from '../activity/activity.repo.js';
import { findOrganizationById } from '../users/users.repo.js';
import {
  findApiKey,
  findLiveApiKeyByHash,
  insertApiKey,
  listApiKeyRows,
  revokeApiKeyRow,
} from './api-keys.repo.js';
import { toApiKeyDto } from './dto.js';
import { organizationFor, paged } from './rules.js';

/** Keys look like `icp_<43 random characters>`; the first 12 characters are kept to tell them apart. */
const KEY_PREFIX = 'icp_';
const SHOWN_PREFIX_LENGTH = 12;

export interface ApiClient {
  organizationId: string;
  keyId: string;
  keyPrefix: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `access.apiKey` routes once the bearer key is checked. */
    apiClient: ApiClient | null;
  }
}

export async function createApiKey(
  app: FastifyInstance,
  auth: AuthContext,
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
  auth: AuthContext,
  query: z.output<typeof billingListQuerySchema>,
) {
  const organizationId = organizationFor(auth, query.organizationId);
  return paged(query, (window) => listApiKeyRows(app.db, organizationId, window), toApiKeyDto);
}

/** Revoking is final; revoking a revoked key answers its record again. */
export async function revokeApiKey(app: FastifyInstance, auth: AuthContext, id: string) {
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

/**
 * The check behind `access.apiKey` (the access plugin leaves those routes to their module):
 * `Authorization: Bearer <key>`, looked up by its SHA-256 among live keys.
 */
export async function authenticateApiKey(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  const key = match?.[1];
  if (!key || !key.startsWith(KEY_PREFIX) || key.length > 200) {
    throw unauthorized(messages.billing.apiKeyInvalid);
  }
  const row = await findLiveApiKeyByHash(app.db, sha256Hex(key));
  if (!row) throw unauthorized(messages.billing.apiKeyInvalid);
  request.apiClient = { organizationId: row.organizationId, keyId: row.id, keyPrefix: row.prefix };
}
