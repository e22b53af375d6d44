import { fileTypeFromBuffer } from 'file-type';

/** One uploaded file, read whole (the multipart plugin caps it at MAX_UPLOAD_BYTES). */
export interface Upload {
  fieldName: string;
  fileName: string;
  data: Buffer;
}

/**
 * The MIME type of `data` judged by its content (magic bytes), if it is one of `allowed`; null
 * otherwise, whatever the file's name says. A legacy .doc is an OLE compound file, a container that
 * other formats (.xls, .msi) share, so it counts as Word only under a .doc name.
 */
export async function detectAllowedType(
  data: Buffer,
  fileName: string,
  allowed: readonly string[],
): Promise<string | null> {
  const detected = await fileTypeFromBuffer(data);
  if (!detected) return null;
  let mime: string = detected.mime;
  if (mime === 'application/x-cfb') {
    if (!/\.doc$/i.test(fileName)) return null;
    mime = 'application/msword';
  }
  return allowed.includes(mime) ? mime : null;
}
