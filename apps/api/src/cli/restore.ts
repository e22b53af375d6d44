/**
 * `npm run restore -- FILE`: brings a backup of `npm run backup` back as the embedded database of
 * DATA_DIR, which must be empty or absent; then start the portal on it. PostgreSQL is restored with
 * pg_restore instead (docs/operations.md "Backup and restore", docs/decisions/030).
 */
import { resolve } from 'node:path';
import { BackupFileError } from '../db/backup-archive.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { RestoreRefusedError, restoreBackup } from '../db/restore-backup.js';
import { ConfigError, loadEnv } from '../env.js';

async function main(args: string[]) {
  if (args.length !== 1) {
    process.stderr.write('Usage: npm run restore -- FILE\n');
    process.exit(2);
  }
  const env = loadEnv();
  if (env.DATABASE_URL) {
    process.stderr.write(
      'This portal uses PostgreSQL (DATABASE_URL): restore a pg_dump file with pg_restore (docs/operations.md "Backup and restore").\n',
    );
    process.exit(2);
  }
  const dataDir = resolve(env.DATA_DIR);
  const summary = await restoreBackup(dataDir, resolve(args[0]!));
  const lines = [
    `Restored into ${dataDir}: ${summary.migrations} migrations, ${summary.organizations} organizations, ${summary.users} users, ${summary.storedFiles} stored files.`,
    '  Start the portal with this DATA_DIR; it applies any newer migrations at start.',
  ];
  if (!summary.sessionSecretStored) {
    lines.push(
      '  This database was used with SESSION_SECRET from the environment: start the portal with that same value, or two-factor sign-ins fail.',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known =
    error instanceof BackupFileError ||
    error instanceof RestoreRefusedError ||
    error instanceof DataDirLockedError ||
    error instanceof ConfigError;
  process.stderr.write(`${known ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
