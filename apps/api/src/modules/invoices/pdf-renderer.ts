import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { TaxDocument } from './invoice-pdf.js';

/**
 * Renders tax-document PDFs on worker threads (piscina), so a burst of downloads or receipts never
 * holds up other requests: one PDF is about 2 ms of CPU, and rendered on the event loop, four
 * clients downloading PDFs raised the list's p99 3.7 to 5.6 times on PostgreSQL (docs/decisions/020).
 * The threads start with the first PDF and leave after a minute without one.
 */
export interface PdfRenderer {
  render(document: TaxDocument): Promise<Buffer>;
  close(): Promise<void>;
}

export function createPdfRenderer(): PdfRenderer {
  let pool: Piscina | null = null;
  return {
    async render(document) {
      pool ??= new Piscina({
        filename: new URL('./invoice-pdf.worker.mjs', import.meta.url).href,
        // The event loop keeps a core of its own.
        maxThreads: Math.max(1, availableParallelism() - 1),
        idleTimeout: 60_000,
      });
      const bytes = (await pool.run(document)) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
