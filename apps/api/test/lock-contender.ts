/**
 * A separate process that locks data folders when its test tells it to (data-dir-lock tests), over
 * the IPC channel: `{ lock }` locks at once; `{ lock, gate }` answers `armed`, then waits at the gate
 * (a FIFO) until the test opens it, which releases every contender waiting there at once. Every
 * folder it wins stays locked until it exits. Started by contender-processes.ts.
 */
import { closeSync, openSync } from 'node:fs';
import { DataDirLockedError, lockDataDir } from '../src/db/data-dir-lock.js';
import type { LockAttempt, LockOrder, LockReport } from './contender-processes.js';

function attempt(dataDir: string): LockAttempt {
  const startedAt = process.hrtime.bigint();
  let outcome: 'won' | 'refused' | 'failed';
  let message: string | undefined;
  try {
    lockDataDir(dataDir); // held until this process exits
    outcome = 'won';
  } catch (error) {
    outcome = error instanceof DataDirLockedError ? 'refused' : 'failed';
    message = String(error);
  }
  const finishedAt = process.hrtime.bigint();
  return { outcome, message, startedAt: String(startedAt), finishedAt: String(finishedAt) };
}

const report = (answer: LockReport) => process.send!(answer);

process.on('message', (order: LockOrder) => {
  const { lock, gate } = order;
  if (gate === undefined) return report(attempt(lock));
  // Waits only once `armed` is written: opening a FIFO to read blocks this whole process.
  process.send!({ armed: true } satisfies LockReport, () => {
    const waited = openSync(gate, 'r');
    const result = attempt(lock);
    closeSync(waited);
    report(result);
  });
});
// A test that ends without killing it (a crashed worker) closes the channel: leave no process behind.
process.on('disconnect', () => process.exit(0));
