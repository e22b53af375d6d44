import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { DataDirDump } from './client.js';

/**
 * The running portal's backup channel (docs/decisions/030): a Unix socket in `DATA_DIR/control`, a
 * folder only the portal's own user may enter, on which `npm run backup` asks the embedded database
 * for a copy of itself. The portal holds the data folder, so no other process can open it meanwhile.
 *
 * Request: the line `dump`. Answer: one line of JSON, `{"ok":true,"bytes":N,"ms":M}` followed by the
 * N bytes of PGlite's dumpDataDir tar, or `{"ok":false,"message":…}`.
 */
export function backupSocketPath(dataDir: string): string {
  return join(dataDir, 'control', 'backup.sock');
}

/** sun_path holds 108 bytes with its NUL; Node cuts a longer path short and listens somewhere else. */
const MAX_SOCKET_PATH_BYTES = 107;

export class BackupChannelError extends Error {
  constructor(
    message: string,
    /** `unanswered`: nothing listens on the socket yet (a portal starting) or any more (stopping). */
    readonly reason: 'unanswered' | 'refused' | 'cut' | 'path' | 'failed',
  ) {
    super(message);
    this.name = 'BackupChannelError';
  }
}

function socketPathFits(path: string): boolean {
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES;
}

export interface BackupChannel {
  close(): Promise<void>;
}

/**
 * Serves dumps of the embedded database to `npm run backup`. Call it holding the data folder's lock:
 * a socket left by a process that died is removed. Answers undefined, with the reason in `warn`,
 * when the folder's path is too long for a socket (the backup then says to stop the portal first).
 */
export async function serveBackups(
  dataDir: string,
  dumpDataDir: () => Promise<DataDirDump>,
  warn: (message: string) => void,
): Promise<BackupChannel | undefined> {
  const path = backupSocketPath(dataDir);
  if (!socketPathFits(path)) {
    warn(
      `No backup channel: the path ${path} is too long for a Unix socket; npm run backup needs the portal stopped.`,
    );
    return undefined;
  }
  const folder = join(dataDir, 'control');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // A folder someone else made (or a link to one) would let them at the socket: refuse it.
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) {
    throw new BackupChannelError(
      `${folder} is not a folder of this user: remove it and start again.`,
      'refused',
    );
  }
  chmodSync(folder, 0o700);
  rmSync(path, { force: true });

  // One dump at a time: each holds a copy of the whole database in memory.
  let queue: Promise<unknown> = Promise.resolve();
  const open = new Set<Socket>();
  const serve = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.setTimeout(10_000, () => socket.destroy());
    let request = '';
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      request += chunk.toString('latin1');
      if (!request.includes('\n')) {
        if (request.length > 64) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      if (request.split('\n')[0] !== 'dump') {
        socket.end(`${JSON.stringify({ ok: false, message: 'unknown request' })}\n`);
        return;
      }
      const answer = queue.then(async () => {
        try {
          const { tar, ms } = await dumpDataDir();
          socket.write(`${JSON.stringify({ ok: true, bytes: tar.byteLength, ms })}\n`);
          socket.end(tar);
        } catch (error) {
          socket.end(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`);
        }
      });
      queue = answer;
    });
  };
  const server = createServer(serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A failure to accept a connection must not end the portal: the backup that asked is refused.
  server.on('error', (error) => warn(`The backup channel failed: ${error.message}`));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        // Node removes the socket file when the server closes. A backup still being sent is cut (its
        // command says so): a stopping portal does not wait for it.
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

/**
 * Asks the portal serving `dataDir` for a dump; rejects with a BackupChannelError an operator can act
 * on when the portal does not answer or stops before the whole dump has arrived.
 */
export function requestDump(dataDir: string): Promise<DataDirDump> {
  const path = backupSocketPath(dataDir);
  if (!socketPathFits(path)) {
    return Promise.reject(
      new BackupChannelError(
        `The path ${path} is too long for the portal's backup channel: stop the portal and run the backup again, or give DATA_DIR a shorter path (a symbolic link to the folder will do).`,
        'path',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write('dump\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new BackupChannelError(
              'The portal holds the data folder but does not answer on its backup channel (it is starting or stopping): run the backup again in a moment.',
              'unanswered',
            )
          : new BackupChannelError(`The portal's backup channel failed: ${error.message}`, 'failed'),
      ),
    );
    socket.on('end', () => {
      const received = Buffer.concat(chunks);
      const lineEnd = received.indexOf(10);
      let header: { ok: true; bytes: number; ms: number } | { ok: false; message: string } | undefined;
      try {
        header = lineEnd < 0 ? undefined : JSON.parse(received.subarray(0, lineEnd).toString('utf8'));
      } catch {
        // Not this channel's answer: handled as no answer.
      }
      if (!header) {
        reject(new BackupChannelError('The portal closed its backup channel without answering.', 'cut'));
      } else if (!header.ok) {
        reject(new BackupChannelError(`The portal could not take the dump: ${header.message}`, 'refused'));
      } else if (received.length - lineEnd - 1 !== header.bytes) {
        reject(
          new BackupChannelError(
            'The portal stopped before the whole dump arrived: run the backup again.',
            'cut',
          ),
        );
      } else {
        resolve({ tar: received.subarray(lineEnd + 1), ms: header.ms });
      }
    });
  });
}
