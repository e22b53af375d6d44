import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { messages } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errorsPlugin from './errors.js';
import webPlugin from './web.js';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('portal '.repeat(200))});`;

/** A build as apps/web/precompress.ts leaves it: each file with its .br and .gz beside it. */
function writeBuild(dir: string) {
  mkdirSync(join(dir, 'assets'));
  for (const [path, content] of [
    ['index.html', INDEX],
    ['assets/index-Ab12Cd34.js', SCRIPT],
  ] as const) {
    writeFileSync(join(dir, path), content);
    writeFileSync(join(dir, `${path}.br`), brotliCompressSync(content));
    writeFileSync(join(dir, `${path}.gz`), gzipSync(content));
  }
}

describe('web app serving', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
    writeBuild(dir);
    app = Fastify({ logger: false });
    // As in the app: an unknown /api path is handed to the errors plugin's not-found answer.
    await app.register(errorsPlugin);
    await app.register(webPlugin, { distDir: dir });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the brotli file to a browser that takes it, gzip to one that takes only gzip, the plain file otherwise', async () => {
    const br = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('lets browsers keep hashed assets for a year, and revalidate index.html every time', async () => {
    const asset = await get('/assets/index-Ab12Cd34.js', 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await get('/dashboard/usermanagement', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX);
    expect(page.headers['cache-control']).toBe('public, max-age=0');
  });

  it('answers an unknown API path with the JSON 404, not the web app', async () => {
    const res = await get('/api/nothing-here', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: messages.http.notFound, errors: {} });
  });
});
