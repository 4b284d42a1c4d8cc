import { InvalidInputError } from '../errors';

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Sextet of each character code of both RFC 4648 alphabets; -1 for anything else. */
const SEXTETS = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    table[STANDARD.charCodeAt(i)] = i;
    table[URL_SAFE.charCodeAt(i)] = i;
  }
  return table;
})();

/** RFC 4648 §4 base64 with `=` padding. */
export function toBase64(bytes: Uint8Array): string {
  return encode(bytes, STANDARD, true);
}

/** RFC 4648 §5 base64url without padding, as JOSE (RFC 7515 §2) writes it. */
export function toBase64Url(bytes: Uint8Array): string {
  return encode(bytes, URL_SAFE, false);
}

/** Decodes base64 or base64url, padded or not; InvalidInputError('bad-base64') for anything else. */
export function fromBase64(text: string): Uint8Array {
  const fail = (problem: string): never => {
    throw new InvalidInputError('bad-base64', `base64 text: ${problem}; give standard or URL-safe base64 (RFC 4648)`);
  };
  const unpadded = text.replace(/={1,2}$/, '');
  const bytes = new Uint8Array(Math.floor((unpadded.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let out = 0;
  for (let i = 0; i < unpadded.length; i++) {
    const code = unpadded.charCodeAt(i);
    const sextet = code < 128 ? SEXTETS[code] : -1;
    if (sextet < 0) fail(`character ${JSON.stringify(unpadded[i])} at offset ${i} is in neither alphabet`);
    buffer = ((buffer << 6) | sextet) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[out++] = (buffer >> bits) & 0xff;
    }
  }
  if (unpadded.length % 4 === 1) fail(`${unpadded.length} characters cannot end a group of 4`);
  if (unpadded.length !== text.length && text.length % 4 !== 0) fail(`padding leaves ${text.length} characters, not a multiple of 4`);
  return bytes;
}

/** Bytes of a hex string (either case); InvalidInputError('bad-hex') for odd lengths or other characters. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new InvalidInputError('bad-hex', `hex text: ${hex.length % 2 !== 0 ? 'odd length' : 'not only hex digits'}; give an even number of hex digits`);
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * Writes the character codes into one byte array, then turns it into text a block at a time: appending characters
 * one by one builds a chain of millions of string pieces, which for a large SAR's DSSE payload (tens of MB) took
 * several times the payload's size in memory.
 */
function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  const groups = Math.ceil(bytes.length / 3);
  const tail = bytes.length % 3;
  const length = pad || tail === 0 ? groups * 4 : groups * 4 - (3 - tail);
  const codes = new Uint8Array(groups * 4);
  for (let i = 0, o = 0; i < bytes.length; i += 3, o += 4) {
    const left = bytes.length - i;
    const group = (bytes[i] << 16) | ((left > 1 ? bytes[i + 1] : 0) << 8) | (left > 2 ? bytes[i + 2] : 0);
    codes[o] = alphabet.charCodeAt((group >> 18) & 63);
    codes[o + 1] = alphabet.charCodeAt((group >> 12) & 63);
    codes[o + 2] = left > 1 ? alphabet.charCodeAt((group >> 6) & 63) : 61; // '='
    codes[o + 3] = left > 2 ? alphabet.charCodeAt(group & 63) : 61;
  }
  const parts: string[] = [];
  for (let at = 0; at < length; at += BLOCK) parts.push(String.fromCharCode(...codes.subarray(at, Math.min(at + BLOCK, length))));
  return parts.join('');
}

/** Characters per String.fromCharCode call (well under any engine's argument limit). */
const BLOCK = 8192;
