import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import type { Figure } from './api-bench.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Gzip bytes of the JavaScript the page loads before any lazy route: entry scripts and modulepreloads. */
function initialJsGzip(distDir: string): number {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const refs = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  return refs.reduce(
    (sum, ref) => sum + gzipSync(readFileSync(join(distDir, ref.replace(/^\//, '')))).length,
    0,
  );
}

export async function benchWebSize(log: (line: string) => void): Promise<Figure[]> {
  log('[web] building the web app and an empty Vite + React app');
  const webDist = join(root, 'bench/.tmp/web-dist');
  await build({
    configFile: join(root, 'apps/web/vite.config.ts'),
    root: join(root, 'apps/web'),
    logLevel: 'silent',
    build: { outDir: webDist, emptyOutDir: true },
  });

  const emptyRoot = join(root, 'bench/.tmp/empty-app');
  rmSync(emptyRoot, { recursive: true, force: true });
  mkdirSync(emptyRoot, { recursive: true });
  writeFileSync(
    join(emptyRoot, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/main.jsx"></script></body></html>',
  );
  writeFileSync(
    join(emptyRoot, 'main.jsx'),
    "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')).render(<h1>Hello</h1>);\n",
  );
  await build({
    configFile: false,
    root: emptyRoot,
    plugins: [react()],
    logLevel: 'silent',
    build: { outDir: join(emptyRoot, 'dist') },
  });

  const app = initialJsGzip(webDist);
  const empty = initialJsGzip(join(emptyRoot, 'dist'));
  const ratio = app / empty;
  return [
    {
      name: 'web: initial JavaScript (gzip) ÷ empty Vite + React',
      value: ratio,
      goal: '≤ 2.5',
      pass: ratio <= 2.5,
      detail: `${(app / 1024).toFixed(1)} KiB vs ${(empty / 1024).toFixed(1)} KiB`,
    },
  ];
}
