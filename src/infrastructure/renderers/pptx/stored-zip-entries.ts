import { crc32 } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const STORED = 0;
const HAS_DATA_DESCRIPTOR = 0x0008;

/**
 * Rewrites, in place, the entries of a zip that its writer stored uncompressed: `rewrite` gets each entry's name
 * and bytes and may change the bytes but not their length; the entry's CRC-32 (local header and central
 * directory) is then recomputed. Offsets stay valid because nothing moves. Throws when the archive is not laid out
 * as JSZip writes it with compression off (no archive comment, CRCs in the headers), since the rewrite would
 * corrupt it otherwise.
 */
export function rewriteStoredEntries(zip: Uint8Array, rewrite: (name: string, bytes: Uint8Array) => void): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  if (end < 0 || view.getUint32(end, true) !== END_OF_CENTRAL_DIRECTORY)
    throw new Error('rewriteStoredEntries: the archive has a comment or an unexpected layout');
  let entry = view.getUint32(end + 16, true);
  for (let left = view.getUint16(end + 10, true); left > 0; left -= 1) {
    const nameLength = view.getUint16(entry + 28, true);
    const name = new TextDecoder().decode(zip.subarray(entry + 46, entry + 46 + nameLength));
    const local = view.getUint32(entry + 42, true);
    const size = view.getUint32(entry + 20, true);
    if (
      view.getUint16(entry + 10, true) !== STORED ||
      (view.getUint16(entry + 8, true) & HAS_DATA_DESCRIPTOR) !== 0 ||
      size !== view.getUint32(entry + 24, true)
    ) {
      throw new Error(`rewriteStoredEntries: ${name} is compressed or has a data descriptor; write the archive with compression off`);
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const bytes = zip.subarray(start, start + size);
    rewrite(name, bytes);
    const crc = crc32(bytes) >>> 0;
    view.setUint32(local + 14, crc, true);
    view.setUint32(entry + 16, crc, true);
    entry += 46 + nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
  }
}
