const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

/**
 * Zip writers (JSZip inside exceljs, fflate inside docx) stamp each entry with the time of writing, so the same
 * document would give different bytes a second later. Stamping every entry with `day` (midnight, in the central
 * directory and the local headers) makes an .xlsx or .docx depend on its input only. The archive must end with an
 * end-of-central-directory record without a comment, as both writers leave it.
 */
export function stampZipEntries(zip: Uint8Array, day: Date): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const dosDate = ((day.getUTCFullYear() - 1980) << 9) | ((day.getUTCMonth() + 1) << 5) | day.getUTCDate();
  const end = zip.byteLength - 22;
  if (end < 0 || view.getUint32(end, true) !== END_OF_CENTRAL_DIRECTORY)
    throw new Error('stampZipEntries: the zip writer left an archive comment or an unexpected layout; the entry dates cannot be pinned');
  let entry = view.getUint32(end + 16, true);
  for (let left = view.getUint16(end + 10, true); left > 0; left -= 1) {
    const local = view.getUint32(entry + 42, true);
    view.setUint16(entry + 12, 0, true); // central directory: time, then date
    view.setUint16(entry + 14, dosDate, true);
    view.setUint16(local + 10, 0, true); // local header: time, then date
    view.setUint16(local + 12, dosDate, true);
    entry += 46 + view.getUint16(entry + 28, true) + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
  }
}
