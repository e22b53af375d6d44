/**
 * The previous release of the portal, as an operator runs it before upgrading: a pinned commit written
 * out of this repository's own history into a temporary folder (never fetched), running on this
 * checkout's installed packages, without an npm install.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The last commit before issue 33's work (later commits add migration 0014). */
export const PREVIOUS_RELEASE = '8ec047b998140b1588ff97bc948a343dc88e4e0b';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** What the API process reads of a checkout: the rest (web app, e2e, bench) is not needed to serve the API. */
const SERVER_PATHS = [
  'package.json',
  'tsconfig.base.json',
  'apps/api/package.json',
  'apps/api/src',
  'packages/shared',
];
/** Workspaces whose own node_modules (versions hoisting could not share) the server may resolve from. */
const WORKSPACES = ['apps/api', 'packages/shared'];

export interface PreviousRelease {
  /** The checkout's folder, for startPortal's `checkout`. */
  checkout: string;
  migrationsFolder: string;
  remove(): void;
}

function run(command: string, args: string[], input?: Buffer): Buffer {
  const result = spawnSync(command, args, { input, maxBuffer: 512 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr.toString()}`,
    );
  }
  return result.stdout;
}

/** A link npm made to a folder of this tree outside node_modules: a workspace package. */
function isWorkspaceLink(path: string): boolean {
  if (!lstatSync(path).isSymbolicLink()) return false;
  const inTree = relative(repositoryRoot, realpathSync(path));
  return !inTree.startsWith('..') && !inTree.split(sep).includes('node_modules');
}

/**
 * Links every package of this checkout's node_modules into `target`, except the workspace packages
 * (npm links them into this tree: @portal/shared), which must be the old tree's own.
 */
function linkPackages(from: string, target: string, checkout: string) {
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    if (name.startsWith('@') && lstatSync(path).isDirectory()) {
      linkPackages(path, join(target, name), checkout);
    } else if (isWorkspaceLink(path)) {
      const inOldTree = join(checkout, relative(repositoryRoot, realpathSync(path)));
      if (existsSync(inOldTree)) symlinkSync(inOldTree, join(target, name));
    } else {
      symlinkSync(path, join(target, name));
    }
  }
}

/**
 * Writes PREVIOUS_RELEASE's server into a temporary folder with a node_modules of links to this
 * checkout's packages. Needs the commit in the local history: a shallow clone has to fetch it first.
 */
/** Whether this clone's history holds PREVIOUS_RELEASE (a shallow clone may not). */
export function previousReleaseInHistory(): boolean {
  return (
    spawnSync('git', ['-C', repositoryRoot, 'cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`]).status === 0
  );
}

export function checkOutPreviousRelease(): PreviousRelease {
  const checkout = mkdtempSync(join(tmpdir(), 'portal-previous-release-'));
  try {
    if (!previousReleaseInHistory()) {
      throw new Error(
        `The previous release ${PREVIOUS_RELEASE} is not in this clone's history (a shallow clone?): git fetch --unshallow`,
      );
    }
    const archive = run('git', [
      '-C',
      repositoryRoot,
      'archive',
      '--format=tar',
      PREVIOUS_RELEASE,
      ...SERVER_PATHS,
    ]);
    run('tar', ['-x', '-C', checkout], archive);
    linkPackages(join(repositoryRoot, 'node_modules'), join(checkout, 'node_modules'), checkout);
    for (const workspace of WORKSPACES) {
      const own = join(repositoryRoot, workspace, 'node_modules');
      if (existsSync(own)) symlinkSync(own, join(checkout, workspace, 'node_modules'));
    }
  } catch (error) {
    rmSync(checkout, { recursive: true, force: true });
    throw error;
  }
  return {
    checkout,
    migrationsFolder: join(checkout, 'apps/api/src/db/migrations'),
    remove: () => rmSync(checkout, { recursive: true, force: true }),
  };
}
