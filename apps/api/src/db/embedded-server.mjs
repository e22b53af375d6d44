// The embedded database's own thread: PGlite (PostgreSQL in WebAssembly) served over a Unix socket
// with @electric-sql/pglite-socket, so the API speaks to it through the pg driver as to PostgreSQL,
// and the database's work never runs on the thread that answers requests (docs/decisions/017).
// Plain JavaScript: a worker thread is started by Node, outside the TypeScript loader of its parent.
import { Blob } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** @type {{ dataDir: string | undefined, socketPath: string, dump: Uint8Array | undefined }} */
const { dataDir, socketPath, dump } = workerData;

// pg_trgm backs the substring search indexes (migration 0001), as on PostgreSQL. A dump (tests' migrated
// template) replaces initdb: the database starts as the one it was taken from.
const db = await PGlite.create(dataDir, {
  extensions: { pg_trgm },
  loadDataDir: dump ? new Blob([dump]) : undefined,
});
// One client connection: PGlite is one session, and the API's pool keeps one connection to it.
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
await server.start();
parentPort.postMessage({ type: 'ready' });

/**
 * A copy of the data folder as PGlite's dumpDataDir makes it (a tar that `loadDataDir` takes back),
 * answered on the request's own port. PGlite takes it between two protocol messages, with no statement
 * running: what a crash at that instant would leave, which PostgreSQL's recovery turns into exactly the
 * transactions committed before it (docs/decisions/030). Uncompressed: gzip would hold the database longer.
 */
async function answerDump(reply) {
  try {
    const started = performance.now();
    const dumped = await db.dumpDataDir('none');
    const ms = performance.now() - started;
    const tar = new Uint8Array(await dumped.arrayBuffer());
    reply.postMessage({ tar, ms }, [tar.buffer]);
  } catch (error) {
    reply.postMessage({ error: String(error) });
  } finally {
    reply.close();
  }
}

parentPort.on('message', async (message) => {
  if (message?.type === 'dump') return answerDump(message.reply);
  if (message?.type !== 'close') return;
  try {
    await server.stop();
    // Closing writes everything to the data folder, so a restart finds every committed change.
    await db.close();
    parentPort.postMessage({ type: 'closed' });
  } catch (error) {
    parentPort.postMessage({ type: 'closed', error: String(error) });
  }
});
