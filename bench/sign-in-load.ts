import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { LoadResult, Measure } from './load.js';

export interface SignInClientOptions {
  base: string;
  /** The accounts to sign in to, in turn (emails or usernames), all with `password`. */
  identifiers: string[];
  password: string;
  /** The accounts' one TOTP secret (base32), or null for accounts without a second factor. */
  totpSecret: string | null;
  /** Sign-ins under way at once. */
  concurrency: number;
}

export type ToSignInClient =
  { kind: 'start'; options: SignInClientOptions } | { kind: 'run'; seconds: number };

export type FromSignInClient =
  | { kind: 'ready' }
  | { kind: 'result'; result: LoadResult; busiestStep: number }
  | { kind: 'failed'; message: string };

export interface SignInLoad {
  /** Complete sign-ins per second (p50 and p99 of a whole sign-in), as a load result. */
  measure: Measure;
  /** The most accounts one 30-second step took so far (each takes a step at most once). */
  busiestStep: () => number;
  close: () => Promise<void>;
}

/**
 * Drives complete sign-ins, both steps when the accounts have a second factor, from a process of its
 * own (sign-in-client.ts): wrk cannot carry the password step's challenge into a second request, and
 * a client in the portal's process would work on the portal's event loop (docs/decisions/008). Both
 * sides of a pair are driven by this same code, so only the server's work differs between them.
 */
export async function startSignInLoad(options: SignInClientOptions): Promise<SignInLoad> {
  // fork passes on this process's execArgv: tsx's loader, so the child runs TypeScript too.
  const child = fork(fileURLToPath(new URL('./sign-in-client.ts', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (message: ToSignInClient) =>
    new Promise<FromSignInClient>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the sign-in client exited (${code})`));
      child.once('exit', exited);
      child.once('message', (reply) => {
        child.off('exit', exited);
        resolve(reply as FromSignInClient);
      });
      child.send(message);
    });
  let busiest = 0;
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill();
    await exited;
  };
  const ready = await ask({ kind: 'start', options });
  if (ready.kind !== 'ready') {
    await close();
    throw new Error(`the sign-in client did not start: ${JSON.stringify(ready)}`);
  }
  return {
    measure: async (seconds) => {
      const reply = await ask({ kind: 'run', seconds });
      if (reply.kind !== 'result') throw new Error(`sign-in load: ${JSON.stringify(reply)}`);
      busiest = Math.max(busiest, reply.busiestStep);
      return reply.result;
    },
    busiestStep: () => busiest,
    close,
  };
}
