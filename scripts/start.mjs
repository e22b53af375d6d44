// `npm start`: builds the web app when it has not been built, then runs the API, which migrates,
// seeds and serves both on PORT. One process, so Ctrl-C (SIGINT) and SIGTERM stop it cleanly.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(`${root}apps/web/dist/index.html`)) {
  console.log('Building the web app (first start)...');
  execSync('npm run build -w apps/web', { cwd: root, stdio: 'inherit' });
}
register();
await import('../apps/api/src/server.ts');
