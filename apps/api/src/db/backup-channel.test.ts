import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BackupChannelError,
  backupSocketPath,
  requestDump,
  serveBackups,
  type BackupChannel,
} from './backup-channel.js';

const folders: string[] = [];
const channels: BackupChannel[] = [];
afterEach(async () => {
  for (const channel of channels.splice(0)) await channel.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'portal-channel-'));
  folders.push(folder);
  return folder;
}

const unused = () => {
  throw new Error('not asked');
};

describe('the backup channel', () => {
  it('answers each request with its own whole dump, in a folder only its user may enter', async () => {
    const dataDir = dataFolder();
    // A socket left by a portal that was killed, and a folder made wider than it should be.
    mkdirSync(join(dataDir, 'control'), { mode: 0o755 });
    writeFileSync(backupSocketPath(dataDir), '');
    let served = 0;
    const channel = await serveBackups(
      dataDir,
      async () => {
        served++;
        // Large enough to arrive in many pieces.
        return { tar: new Uint8Array(3_000_000).fill(served), ms: served };
      },
      unused,
    );
    channels.push(channel!);
    expect(statSync(join(dataDir, 'control')).mode & 0o777).toBe(0o700);

    const [first, second] = await Promise.all([requestDump(dataDir), requestDump(dataDir)]);
    const answers = [first, second].sort((a, b) => a.ms - b.ms);
    expect(answers.map((a) => [a.ms, a.tar.length, a.tar[0], a.tar.at(-1)])).toEqual([
      [1, 3_000_000, 1, 1],
      [2, 3_000_000, 2, 2],
    ]);
  });

  it("passes on the database's refusal", async () => {
    const dataDir = dataFolder();
    const channel = await serveBackups(
      dataDir,
      () => Promise.reject(new Error('the embedded database stopped during the dump')),
      unused,
    );
    channels.push(channel!);
    await expect(requestDump(dataDir)).rejects.toThrow(
      'The portal could not take the dump: the embedded database stopped during the dump',
    );
  });

  it('tells a portal that does not answer, and a dump cut short, from a dump', async () => {
    const dataDir = dataFolder();
    const unanswered = requestDump(dataDir);
    await expect(unanswered).rejects.toThrow('does not answer on its backup channel');
    // What npm run backup waits on, for a portal that is starting.
    await expect(unanswered).rejects.toMatchObject({ reason: 'unanswered' });

    // A portal that dies while it sends: fewer bytes than it announced.
    mkdirSync(join(dataDir, 'control'));
    const dying = createServer((socket) =>
      socket.once('data', () => socket.end(`${JSON.stringify({ ok: true, bytes: 1000, ms: 1 })}\nonly part`)),
    );
    await new Promise<void>((resolve) => dying.listen(backupSocketPath(dataDir), resolve));
    try {
      const cut = requestDump(dataDir);
      await expect(cut).rejects.toThrow(BackupChannelError);
      await expect(cut).rejects.toThrow('stopped before the whole dump arrived');
    } finally {
      await new Promise((resolve) => dying.close(resolve));
    }
  });

  it('closes at once, cutting a dump it has not sent yet', async () => {
    const dataDir = dataFolder();
    let release: (() => void) | undefined;
    const channel = await serveBackups(
      dataDir,
      () => new Promise((resolve) => (release = () => resolve({ tar: new Uint8Array(10), ms: 1 }))),
      unused,
    );
    channels.push(channel!);
    const pending = requestDump(dataDir);
    while (!release) await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = Date.now();
    await channel!.close();
    expect(Date.now() - closing).toBeLessThan(1_000);
    await expect(pending).rejects.toThrow(BackupChannelError);
    release();
  });

  it('is not served on a path too long for a socket, and the backup says what to do', async () => {
    const dataDir = join(dataFolder(), 'x'.repeat(100));
    const warnings: string[] = [];
    expect(await serveBackups(dataDir, unused, (message) => warnings.push(message))).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('is too long for a Unix socket')]);
    await expect(requestDump(dataDir)).rejects.toThrow('stop the portal and run the backup again');
  });
});
