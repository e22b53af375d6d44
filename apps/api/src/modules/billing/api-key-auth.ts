import { messages } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { unauthorized } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/tokens.js';
import { findLiveApiKeyByHash } from './api-keys.repo.js';

/** Keys look like `icp_<43 random characters>`; the first 12 characters are kept to tell them apart. */
export const KEY_PREFIX = 'icp_';
export const SHOWN_PREFIX_LENGTH = 12;

/** Who calls an `access.apiKey` route: the organization of the key it presented. */
export interface ApiClient {
  organizationId: string;
  keyId: string;
  keyPrefix: string;
}

/** The caller of an `Authorization: Bearer <key>` request, or 401 for a missing, unknown or revoked key. */
export async function authenticateApiKey(db: Db, authorization: string | undefined): Promise<ApiClient> {
  const key = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (!key || !key.startsWith(KEY_PREFIX) || key.length > 200) {
    throw unauthorized(messages.billing.apiKeyInvalid);
  }
  const row = await findLiveApiKeyByHash(db, sha256Hex(key));
  if (!row) throw unauthorized(messages.billing.apiKeyInvalid);
  return { organizationId: row.organizationId, keyId: row.id, keyPrefix: row.prefix };
}
