// `npm start`: builds the web app when it has not been built or its sources changed since, then runs
// the API, which migrates, seeds and serves both on PORT. One process, so Ctrl-C (SIGINT) and SIGTERM
// stop it cleanly.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtIndex = join(root, 'apps/web/dist/index.html');

/** The newest modification time of the files the web build reads (after a pull, say). */
function newestSource() {
  const newest = (path) => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
  };
  return Math.max(
    ...['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src'].map((p) =>
      newest(join(root, p)),
    ),
  );
}

if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < newestSource()) {
  console.log(
    existsSync(builtIndex)
      ? 'Rebuilding the web app (sources changed)...'
      : 'Building the web app (first start)...',
  );
  execSync('npm run build -w apps/web', { cwd: root, stdio: 'inherit' });
}
register();
await import('../apps/api/src/server.ts');
