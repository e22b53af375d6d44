/**
 * `npm run reset-two-factor -- EMAIL`: the operator removes a user's second factor from the command
 * line, for the one case the portal cannot serve: the last super administrator lost both the
 * authenticator and the recovery codes. Anyone else is reset by a super administrator in Users.
 * The reset is the same as the screen's (sessions ended, activity recorded, the user mailed); with
 * the embedded database the portal must be stopped first (one process per data folder).
 */
import { buildApp } from '../app.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { openConfiguredDatabase } from '../db/open-configured-database.js';
import { ConfigError, loadEnv } from '../env.js';
import { AppError } from '../lib/errors.js';
import { systemActor } from '../core/actor.js';
import { resetSecondFactor } from '../modules/two-factor/index.js';

async function main(args: string[]) {
  const email = args[0]?.trim();
  if (!email || args.length !== 1) {
    process.stderr.write('Usage: npm run reset-two-factor -- EMAIL\n');
    process.exit(2);
  }
  const env = loadEnv();
  const { database, unlock } = await openConfiguredDatabase(env);
  try {
    await database.migrate();
    const app = await buildApp({ env, database, logger: { level: 'warn' } });
    try {
      await resetSecondFactor(app.deps, systemActor('cli'), { email });
      process.stdout.write(
        `Two-factor sign-in of ${email} was reset: every session ended and the user was mailed. They sign in with their password and set up an authenticator again.\n`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    unlock();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known =
    error instanceof DataDirLockedError || error instanceof ConfigError || error instanceof AppError;
  process.stderr.write(`${known ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
