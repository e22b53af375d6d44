import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export type PeerRequest =
  | { type: 'count'; id: number }
  | { type: 'waitFor'; id: number; count: number; timeoutMs: number }
  | { type: 'close' };

export type PeerReply =
  | { type: 'ready'; url: string }
  | { type: 'count'; id: number; count: number }
  | { type: 'reached'; id: number; at: number; count: number }
  | { type: 'failed'; id: number; message: string };

export interface PeerProcess {
  /** 'smtp://127.0.0.1:PORT', as the portal's SMTP_URL or a nodemailer transport takes it. */
  url: string;
  /** The peer's process. */
  pid: number;
  /** Messages the peer has accepted so far. */
  count(): Promise<number>;
  /** Resolves with the time (Date.now()) the peer held `count` messages; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<number>;
  /** Closes the peer and waits for its process to exit. */
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./smtp-peer-main.ts', import.meta.url));

/**
 * The SMTP peer of the API tests (apps/api/test/smtp-peer.ts, accepting every message) in a process
 * of its own: in the bench's process its parsing of every message would run on the portal's event
 * loop, where a real mail server's never does, as wrk runs outside it for the same reason
 * (docs/decisions/008).
 */
export async function startPeerProcess(): Promise<PeerProcess> {
  const child = fork(ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // A failed fork or IPC send (the process is gone) ends in 'exit' too, which rejects what waits.
  child.on('error', () => {});
  const waiting = new Map<number, { resolve: (reply: PeerReply) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let gone: Error | null = null;
  child.on('message', (reply: PeerReply) => {
    if (reply.type === 'ready') return;
    const request = waiting.get(reply.id);
    waiting.delete(reply.id);
    request?.resolve(reply);
  });
  void exited.then((code) => {
    gone = new Error(`the SMTP peer's process exited (code ${String(code)})`);
    for (const request of waiting.values()) request.reject(gone);
    waiting.clear();
  });
  const ask = (request: { type: 'count' } | { type: 'waitFor'; count: number; timeoutMs: number }) =>
    new Promise<PeerReply>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ ...request, id } satisfies PeerRequest);
    });

  const [ready] = (await Promise.race([
    once(child, 'message'),
    exited.then(() => {
      throw new Error('the SMTP peer exited before it listened');
    }),
  ])) as [PeerReply];
  if (ready.type !== 'ready') {
    child.kill();
    throw new Error(`the SMTP peer answered ${ready.type} first`);
  }

  return {
    url: ready.url,
    pid: child.pid!,
    async count() {
      const reply = await ask({ type: 'count' });
      if (reply.type !== 'count') throw new Error(`the SMTP peer answered ${reply.type} to count`);
      return reply.count;
    },
    async waitFor(count, timeoutMs) {
      const reply = await ask({ type: 'waitFor', count, timeoutMs });
      if (reply.type === 'failed') throw new Error(reply.message);
      if (reply.type !== 'reached') throw new Error(`the SMTP peer answered ${reply.type} to waitFor`);
      return reply.at;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'close' } satisfies PeerRequest);
      const timer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
