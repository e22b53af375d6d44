import { onTestFinished, vi } from 'vitest';

export interface Download {
  name: string;
  blob: Blob;
}

/**
 * Catches the files a page hands to the browser (lib/save-file.ts: exports, PDFs, recovery codes):
 * jsdom neither keeps object URLs nor follows a download link. Undone when the test ends.
 */
export function catchDownloads(): Download[] {
  const caught: Download[] = [];
  const blobs = new Map<string, Blob>();
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:caught-${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    caught.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  onTestFinished(() => {
    create.mockRestore();
    revoke.mockRestore();
    click.mockRestore();
  });
  return caught;
}

/** A downloaded file's text: from Node's Blob (a fetched file) or jsdom's (one the page made). */
export function textOf(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });
}
