import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  makeGate,
  openGate,
  startContenders,
  type Contender,
  type Contenders,
  type LockAttempt,
  type LockReport,
} from '../../test/contender-processes.js';
import { LONG_MODE } from '../../test/harness.js';
import { usePostgres } from '../../test/test-database.js';

// The figure (100 × 50) in the long mode; a smaller race in the normal one.
const CONTENDERS = LONG_MODE ? 100 : 20;
const TRIES = LONG_MODE ? 50 : 10;

let scratch: string | undefined;
let contenders: Contenders | undefined;
afterAll(async () => {
  await contenders?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function attemptOf(report: LockReport): LockAttempt {
  if ('armed' in report) throw new Error('a contender reported armed twice');
  return report;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

// The lock guards the embedded database only: the PostgreSQL pass has nothing to add here.
it.skipIf(usePostgres)(
  `${CONTENDERS} simultaneous takeovers of one stale lock: exactly one wins, every time, in ${TRIES} tries`,
  { timeout: LONG_MODE ? 300_000 : 60_000 },
  async ({ task }) => {
    const root = mkdtempSync(join(tmpdir(), 'portal-lock-race-'));
    scratch = root;
    contenders = await startContenders(CONTENDERS + 1);
    const [killed, ...racers] = contenders.all as [Contender, ...Contender[]];

    // The stale lock is what a portal killed with SIGKILL leaves: its record, naming a process gone.
    const origin = join(root, 'origin');
    expect(attemptOf(await killed.order({ lock: origin })).outcome).toBe('won');
    const exited = once(killed.child, 'exit');
    killed.child.kill('SIGKILL');
    await exited;
    const staleRecord = readFileSync(join(origin, 'portal.lock'), 'utf8');
    expect(JSON.parse(staleRecord).pid).toBe(killed.pid);

    const winnersPerTry: number[] = [];
    const otherErrors: string[] = [];
    const wrongFolders: string[] = [];
    const startedBeforeTheWinnerFinished: number[] = [];
    const startSpreadsMs: number[] = [];
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const dataDir = join(root, `try-${attempt}`);
      mkdirSync(dataDir);
      writeFileSync(join(dataDir, 'portal.lock'), staleRecord);

      // Every contender blocks at one gate, and one system call releases them all: the takeovers
      // start together, as far as the cores let them.
      const gate = join(root, `gate-${attempt}`);
      makeGate(gate);
      const armed = await Promise.all(racers.map((racer) => racer.order({ lock: dataDir, gate })));
      expect(armed.every((report) => 'armed' in report)).toBe(true);
      const reports = racers.map((racer) => racer.nextReport());
      const closeGate = await openGate(gate);
      const attempts = (await Promise.all(reports).finally(closeGate)).map(attemptOf);

      // Every try runs, and the figures are printed, before anything is judged.
      otherErrors.push(
        ...attempts.flatMap((a) => (a.outcome === 'failed' ? [`try ${attempt}: ${a.message}`] : [])),
      );
      const winners = racers.filter((_, i) => attempts[i]!.outcome === 'won');
      winnersPerTry.push(winners.length);
      const starts = attempts.map((a) => BigInt(a.startedAt));
      const spread = starts.reduce((a, b) => (b > a ? b : a)) - starts.reduce((a, b) => (b < a ? b : a));
      startSpreadsMs.push(Number(spread) / 1e6);
      if (winners.length !== 1) continue;
      const won = attempts.find((a) => a.outcome === 'won')!;
      startedBeforeTheWinnerFinished.push(starts.filter((at) => at < BigInt(won.finishedAt)).length - 1);
      const record = JSON.parse(readFileSync(join(dataDir, 'portal.lock'), 'utf8'));
      const files = readdirSync(dataDir);
      if (record.pid !== winners[0]!.pid || files.join() !== 'portal.lock')
        wrongFolders.push(`try ${attempt}: record of ${record.pid}, files ${files.join(', ')}`);
    }

    const overlap = startedBeforeTheWinnerFinished;
    const fewest = overlap.length > 0 ? Math.min(...overlap) : NaN;
    console.log(
      `stale lock takeovers: ${TRIES} tries × ${CONTENDERS} processes; winners per try: ${winnersPerTry.join(' ')}; ` +
        `other errors: ${otherErrors.length}; contenders already trying when the winner finished: ` +
        `median ${median(overlap)}, fewest ${fewest}; all started within ${median(startSpreadsMs).toFixed(1)} ms (median)`,
    );
    task.meta.figures = {
      tries: TRIES,
      contenders: CONTENDERS,
      triesWithOneWinner: winnersPerTry.filter((n) => n === 1).length,
      otherErrors: otherErrors.length,
      medianOthersTryingAtTheWin: median(overlap),
      fewestOthersTryingAtTheWin: fewest,
      medianStartSpreadMs: median(startSpreadsMs),
    };
    expect(otherErrors.slice(0, 5)).toEqual([]);
    expect(winnersPerTry).toEqual(Array.from({ length: TRIES }, () => 1));
    expect(wrongFolders).toEqual([]);
  },
);
