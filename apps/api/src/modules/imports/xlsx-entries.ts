import { promisify } from 'node:util';
import { crc32, inflateRaw } from 'node:zlib';
import { messages } from '@portal/shared';
import { badRequest } from '../../lib/errors.js';

const inflate = promisify(inflateRaw);

/** An .xlsx holds a dozen entries; thousands mean something else (or a bomb made of many small ones). */
const MAX_ENTRIES = 1_000;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const unreadable = () => badRequest(messages.imports.unreadable);

/** Where the central directory starts and how many entries it lists (the end record, read from the end). */
function endOfCentralDirectory(zip: Buffer): { entries: number; offset: number } {
  // The end record is 22 bytes plus a comment of at most 65,535.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === EOCD) {
      return { entries: zip.readUInt16LE(at + 10), offset: zip.readUInt32LE(at + 16) };
    }
  }
  throw unreadable();
}

/**
 * The entries of an .xlsx, inflated, stopping once they add up to `maxBytes` (whatever sizes their
 * headers declare, which a bomb lies about): node's zlib ends each inflation at the remaining budget.
 * ZIP64, encryption and methods other than stored and deflate are refused: Excel writes none of them.
 */
export async function inflateXlsxEntries(zip: Buffer, maxBytes: number): Promise<Map<string, Buffer>> {
  if (zip.length < 22) throw unreadable();
  const { entries, offset } = endOfCentralDirectory(zip);
  if (entries > MAX_ENTRIES) throw badRequest(messages.imports.inflatesTooLarge);
  const inflated = new Map<string, Buffer>();
  let budget = maxBytes;
  let at = offset;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw unreadable();
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & 1 || compressedSize === 0xffffffff || localOffset === 0xffffffff) throw unreadable();
    if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== LOCAL) throw unreadable();
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    if (start + compressedSize > zip.length) throw unreadable();
    const stored = zip.subarray(start, start + compressedSize);
    let data: Buffer;
    if (method === 0) data = stored;
    else if (method === 8) {
      try {
        // One byte past the budget tells "exactly the budget" from "more".
        data = await inflate(stored, { maxOutputLength: budget + 1 });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw badRequest(messages.imports.inflatesTooLarge);
        }
        throw unreadable();
      }
    } else throw unreadable();
    budget -= data.length;
    if (budget < 0) throw badRequest(messages.imports.inflatesTooLarge);
    if (!name.endsWith('/')) inflated.set(name, data);
  }
  return inflated;
}

/**
 * A ZIP of these entries, stored (not compressed), in the order given. exceljs's streaming reader
 * parks a worksheet in a temporary file when it comes before the shared strings, as Excel writes
 * them; handed the shared strings first, it reads every sheet straight from memory.
 */
export function storedZip(entries: readonly (readonly [string, Buffer])[]): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    parts.push(local, nameBytes, data);
    offset += 30 + nameBytes.length + data.length;
  }
  // unzipper's streaming parse reads local headers only; the end record just closes the archive.
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt32LE(offset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
