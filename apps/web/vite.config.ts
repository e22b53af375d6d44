import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './precompress';

/**
 * React Router 7 exports only its development build, warnings and all, to every bundler
 * (remix-run/react-router#14102). A production build takes its production build instead.
 */
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/** Where `npm run dev` sends /api: the API's development address (its PUBLIC_URL default). */
const API_ORIGIN = 'http://localhost:3000';

export default defineConfig(({ command }) => ({
  plugins: [react(), precompress()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': {
        target: API_ORIGIN,
        changeOrigin: true,
        configure: (proxy) =>
          proxy.on('proxyReq', (proxyReq, req) => {
            // The API takes unsafe requests from its own origin only (issue 20); other sites' stay refused.
            if (req.headers.origin === `http://${req.headers.host}` && !proxyReq.headersSent)
              proxyReq.setHeader('origin', API_ORIGIN);
          }),
      },
    },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800 },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    testTimeout: 20_000,
  },
}));
