/**
 * `npm run backup [-- FILE]`: a consistent copy of the embedded database, taken while the portal runs
 * and writes (over its backup channel) or from the folder when it is stopped, written to FILE
 * (default `portal-backup-<time>.tar.gz` here) and opened once to prove it restores. PostgreSQL is
 * backed up with pg_dump instead (docs/operations.md "Backup and restore", docs/decisions/030).
 */
import { constants, setPriority } from 'node:os';
import { resolve } from 'node:path';
import { BackupFileError } from '../db/backup-archive.js';
import { BackupChannelError } from '../db/backup-channel.js';
import { takeBackup } from '../db/take-backup.js';
import { ConfigError, loadEnv } from '../env.js';

const POSTGRES_ADVICE = `This portal uses PostgreSQL (DATABASE_URL). Back it up with pg_dump, which takes a consistent copy while the portal runs:
  pg_dump --format=custom --file=portal.dump "$DATABASE_URL"
See docs/operations.md "Backup and restore" for pg_restore.
`;

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

async function main(args: string[]) {
  // The copy's compression and check would take CPU from the portal beside it: the portal comes first
  // (nice 10, about a tenth of a contended core; nice 19 held the command back 40 s behind a busy portal).
  setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
  if (args.length > 1) {
    process.stderr.write('Usage: npm run backup [-- FILE]\n');
    process.exit(2);
  }
  const env = loadEnv();
  if (env.DATABASE_URL) {
    process.stderr.write(POSTGRES_ADVICE);
    process.exit(2);
  }
  const file = resolve(args[0] ?? `portal-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  const report = await takeBackup(resolve(env.DATA_DIR), file, (from, dumpMs) =>
    process.stdout.write(
      from === 'portal'
        ? `Copy taken from the running portal; its database paused for ${Math.round(dumpMs)} ms. Writing and checking it…\n`
        : 'Copy taken from the data folder (no portal was running). Writing and checking it…\n',
    ),
  );
  const { summary } = report;
  const lines = [
    `Backup written to ${report.file} (${megabytes(report.bytes)}, readable by you only).`,
    `  It opens: ${summary.migrations} migrations, ${summary.organizations} organizations, ${summary.users} users, ${summary.storedFiles} stored files.`,
  ];
  // app.ts uses SESSION_SECRET when it is set, and the secret it generated and stored only when not.
  if (env.SESSION_SECRET || !summary.sessionSecretStored) {
    lines.push(
      '  The portal takes SESSION_SECRET from its environment, not from the database: keep it with this backup.',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known =
    error instanceof BackupFileError || error instanceof BackupChannelError || error instanceof ConfigError;
  process.stderr.write(`${known ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
