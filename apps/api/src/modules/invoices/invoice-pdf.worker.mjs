// A task of the shared worker pool (core/worker-pool.ts, run by document-pdfs.ts): renders tax
// documents off the API's event loop. The API runs its TypeScript through tsx, which a worker thread
// registers for itself.
import { register } from 'tsx/esm/api';

register();
const { renderTaxDocumentPdf } = await import('./invoice-pdf.ts');

/** Piscina's task: a TaxDocument (its dates arrive as Date, by structured clone) → the PDF's bytes. */
export default function render(document) {
  return renderTaxDocumentPdf(document);
}
