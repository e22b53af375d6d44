import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findActiveSessionByAccessHash } from '../modules/sessions/sessions.repo.js';
import { openDatabase } from './client.js';

describe('the embedded database', () => {
  it('starts a replaced connection clean: a statement prepared on the old one is prepared again', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await database.migrate();
      const unknownToken = 'f'.repeat(64);
      expect(await findActiveSessionByAccessHash(database.db, unknownToken)).toBeNull();
      // PGlite keeps one session for every connection: without a clean start, the new connection
      // would find the statement the old one prepared and fail on every request ("already exists").
      const pool = (database.db as unknown as { $client: pg.Pool }).$client;
      (await pool.connect()).release(true);
      // The socket server takes one connection at a time: give it the moment to see the old one go.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await findActiveSessionByAccessHash(database.db, unknownToken)).toBeNull();
      expect(await findActiveSessionByAccessHash(database.db, unknownToken)).toBeNull();
    } finally {
      await database.close();
    }
  });
});
