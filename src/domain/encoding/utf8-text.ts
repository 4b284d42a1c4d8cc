import { InvalidInputError } from '../errors';

/** Throws on the first malformed sequence; a byte-order mark is left to the caller (it passes the offset after one). */
const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The bytes of file `path` from `start` as text, when they are UTF-8; else InvalidInputError `invalid-utf8` naming the
 * file, the offset of the first byte that is not part of a well-formed UTF-8 sequence, its line and its value. Every
 * text svc reads is UTF-8 (JSON is, by RFC 8259 §8.1): a file in another encoding (Latin-1, UTF-16) would otherwise be
 * read with each bad byte silently turned into U+FFFD, and its statements or names changed without a word.
 */
export function utf8Text(bytes: Uint8Array, path: string, start = 0): string {
  try {
    return STRICT.decode(bytes.subarray(start));
  } catch {
    throw notUtf8(bytes, path, start);
  }
}

/** The `invalid-utf8` error of bytes known not to be UTF-8 from `start`: the first bad byte's offset, line and value. */
export function notUtf8(bytes: Uint8Array, path: string, start = 0): InvalidInputError {
  const at = start + firstMalformed(bytes.subarray(start));
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line += 1;
  const value = `0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')}`;
  return new InvalidInputError(
    'invalid-utf8',
    `${path}: not UTF-8 text: byte ${at} (line ${line}), ${value}, is not part of a UTF-8 character; save the file as UTF-8`,
  );
}

/**
 * The offset of the first byte of the first sequence that is not well-formed UTF-8 (Unicode 15, Table 3-7: no stray
 * continuation byte, no sequence cut short, no overlong form, no surrogate, nothing above U+10FFFF); `bytes.length`
 * when there is none.
 */
export function firstMalformed(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    // The lead byte's sequence length and the range its second byte must fall in.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return bytes.length;
}
