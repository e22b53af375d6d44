import { describe, expect, it } from 'vitest';
import { runTenantDay, stepPassed, type TenantDayPlan } from './tenant-day.js';
import { MIX, mixCycle, ROUTES } from './tenant-day-scenario.js';

describe('mixCycle', () => {
  it('plays each action as often as its weight, spread over the cycle', () => {
    const cycle = mixCycle(MIX);
    expect(cycle).toHaveLength(100);
    MIX.forEach((action, i) => {
      expect(cycle.filter((c) => c === i)).toHaveLength(action.weight);
      // Evenly: each half of the cycle holds about half of each action.
      expect(
        Math.abs(cycle.slice(0, 50).filter((c) => c === i).length - action.weight / 2),
      ).toBeLessThanOrEqual(1);
    });
  });
});

describe('runTenantDay', () => {
  // A few seconds of two admins who barely think, on one portal process over PGlite: every route of
  // the mix and the bot's must be asked, and answered without an error.
  const plan: TenantDayPlan = {
    steps: [2],
    rampSeconds: 0.5,
    seconds: 4,
    warmupSeconds: 0,
    shape: { organizations: 2, admins: 2, members: 8, credits: 100_000 },
    settings: { thinkMs: 20, sessionActions: 6, attachmentBytes: 16 * 1024 },
    botRate: 5,
  };

  it('plays the mix against a real portal and reports every route with counts and no errors', async () => {
    const run = await runTenantDay('pglite', '', plan, () => {});
    expect(run.steps).toHaveLength(1);
    const [step] = run.steps;
    for (const route of ROUTES) {
      expect(step!.routes[route].count, route).toBeGreaterThan(0);
      expect(step!.routes[route].errors, route).toBe(0);
      expect(step!.routes[route].p99, route).toBeGreaterThanOrEqual(step!.routes[route].p50!);
    }
    expect(step!.failures).toEqual({});
    expect(run.sustained).toBe(stepPassed(step!) ? 2 : 0);
  }, 120_000);
});
