/**
 * `npm run reset-two-factor -- EMAIL`, the operator's way back in for the last super administrator
 * who lost both authenticator and recovery codes: run as its own process against a data folder, as an
 * operator would (the reset itself is tested in two-factor/factor-changes.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { activityEntries, emailOutbox, users, userTotp } from '../src/db/schema/index.js';
import { killPortals, runCommand, startPortal } from './portal-process.js';
import { usePostgres } from './test-database.js';

const EMAIL = 'last-root@portal.test';
const folders: string[] = [];
afterEach(async () => {
  await killPortals();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Embedded mode only: what is particular to the command is the data folder and its lock.
describe.skipIf(usePostgres)('npm run reset-two-factor', () => {
  it('waits for the portal to stop, then resets the factor, mails the user and records it', async () => {
    const DATA_DIR = mkdtempSync(join(tmpdir(), 'portal-reset-command-'));
    folders.push(DATA_DIR);
    const settings = { DATA_DIR, ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: 'Last-Root-Passw0rd!' };
    const portal = await startPortal(settings);
    expect(portal.output()).toContain('is running at');

    expect(await runCommand('reset-two-factor', [], settings)).toMatchObject({ code: 2 });
    const whileRunning = await runCommand('reset-two-factor', [EMAIL], settings);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.output).toContain('is in use by another portal process');
    portal.child.kill('SIGTERM');
    expect(await portal.exited).toBe(0);

    // The super administrator's factor, as enrolment leaves it (the secret's text does not matter here).
    const before = await openDatabase({ dataDir: join(DATA_DIR, 'pg') });
    const [root] = await before.db.select({ id: users.id }).from(users).where(eq(users.email, EMAIL));
    await before.db
      .insert(userTotp)
      .values({ userId: root!.id, secretCiphertext: 'v1.x', confirmedAt: new Date() });
    await before.close();

    expect((await runCommand('reset-two-factor', ['nobody@portal.test'], settings)).output).toContain(
      'No account has the email nobody@portal.test',
    );
    const reset = await runCommand('reset-two-factor', [EMAIL.toUpperCase()], settings);
    expect(reset.output).toContain('was reset');
    expect(reset.code).toBe(0);

    const after = await openDatabase({ dataDir: join(DATA_DIR, 'pg') });
    try {
      expect(await after.db.select().from(userTotp)).toEqual([]);
      const audit = await after.db
        .select({ actor: activityEntries.actorUserId, message: activityEntries.message })
        .from(activityEntries)
        .where(eq(activityEntries.entityId, root!.id));
      expect(audit).toContainEqual({ actor: null, message: expect.stringContaining('(operator command)') });
      const mails = await after.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, EMAIL));
      expect(mails.map((m) => m.subject)).toContain('Your two-factor sign-in was reset');
    } finally {
      await after.close();
    }
  }, 180_000);
});
