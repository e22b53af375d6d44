import type { z } from 'zod';
import {
  messages,
  type billingListQuerySchema,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@portal/shared';
import { notFound, unauthorized } from '../../lib/errors.js';
import { pageEnvelope } from '../../lib/paging.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import { tenantScope, type Actor, type Visitor } from '../../core/actor.js';
import { recordActivity } from '../../core/activity-log.repo.js';
import type { Deps } from '../../core/deps.js';
import { findOrganization } from '../organizations/index.js';
import {
  findApiKey,
  findLiveApiKeyByHash,
  insertApiKey,
  listApiKeyRows,
  revokeApiKeyRow,
} from './api-keys.repo.js';
import { toApiKeyDto } from './dto.js';
import { organizationFor } from './rules.js';

/** Keys look like `icp_<43 random characters>`; the first 12 characters are kept to tell them apart. */
const KEY_PREFIX = 'icp_';
const SHOWN_PREFIX_LENGTH = 12;

/** Who calls an `access.apiKey` route: the organization of the key it presented. */
export interface ApiClient {
  organizationId: string;
  keyId: string;
  keyPrefix: string;
}

/**
 * The caller of an `Authorization: Bearer <key>` request (the access plugin asks, before anyone is
 * known), or 401 for a missing, unknown or revoked key.
 */
export async function authenticateApiKey(
  deps: Deps,
  _visitor: Visitor,
  input: { authorization: string | undefined },
): Promise<ApiClient> {
  const { authorization } = input;
  const key = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (!key || !key.startsWith(KEY_PREFIX) || key.length > 200) {
    throw unauthorized(messages.billing.apiKeyInvalid);
  }
  const row = await findLiveApiKeyByHash(deps.db, sha256Hex(key));
  if (!row) throw unauthorized(messages.billing.apiKeyInvalid);
  return { organizationId: row.organizationId, keyId: row.id, keyPrefix: row.prefix };
}

export async function createApiKey(deps: Deps, actor: Actor, body: CreateApiKeyBody): Promise<CreatedApiKey> {
  const organizationId = organizationFor(actor, body.organizationId);
  if (!(await findOrganization(deps, actor, { id: organizationId }))) {
    throw notFound(messages.users.organizationNotFound);
  }
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertApiKey(tx, {
      organizationId,
      name: body.name.trim(),
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      keyHash: sha256Hex(key),
      createdBy: actor.userId,
    });
    await recordActivity(tx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'created',
      entityType: 'api_key',
      entityId: inserted.id,
      message: `Created API key ${inserted.name} (${inserted.prefix}…)`,
    });
    return inserted;
  });
  return { ...toApiKeyDto(row), key };
}

export async function listApiKeys(deps: Deps, actor: Actor, query: z.output<typeof billingListQuerySchema>) {
  const organizationId = organizationFor(actor, query.organizationId);
  const { rows, total } = await listApiKeyRows(deps.db, organizationId, query);
  return pageEnvelope(query, rows.map(toApiKeyDto), total);
}

/** Revoking is final; revoking a revoked key answers its record again. */
export async function revokeApiKey(deps: Deps, actor: Actor, input: { id: string }) {
  const scope = tenantScope(actor);
  return deps.db.transaction(async (tx) => {
    const row = await revokeApiKeyRow(tx, input.id, scope);
    if (!row) {
      const existing = await findApiKey(tx, input.id, scope);
      if (!existing) throw notFound(messages.billing.apiKeyNotFound);
      return toApiKeyDto(existing);
    }
    await recordActivity(tx, {
      organizationId: row.organizationId,
      actorUserId: actor.userId,
      action: 'deleted',
      entityType: 'api_key',
      entityId: row.id,
      message: `Revoked API key ${row.name} (${row.prefix}…)`,
    });
    return toApiKeyDto(row);
  });
}
