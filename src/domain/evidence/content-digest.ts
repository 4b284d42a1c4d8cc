/**
 * The hashing primitives the content-hash rules need. The domain states the rules; the primitives come
 * from outside (the HASHING port) because the domain may not import node:crypto.
 */
export interface ContentDigest {
  /** RFC 8785 (JCS) canonical JSON text of a JSON value. */
  canonicalize(value: unknown): string;
  /** SHA-256 of a string's UTF-8 bytes, or of raw bytes, as 64 lower-case hex digits. */
  sha256(data: string | Uint8Array): string;
  /** SHA-256 of the pieces one after another (strings as UTF-8), read one at a time: a text too large to be one string. */
  sha256Pieces(pieces: Iterable<string | Uint8Array>): string;
  /** SHA-256 of one `prefix` byte followed by the raw 32 bytes of each hex digest (RFC 6962 leaves and nodes). */
  sha256Tagged(prefix: number, ...digests: string[]): string;
  /**
   * A SHA-256 fed a piece at a time as the pieces arrive (an async stream of chunks, which sha256Pieces cannot read): its
   * digest is the SHA-256 of every piece given to `update`, one after another, strings as UTF-8.
   */
  sha256Hasher(): Sha256Hasher;
}

/** A SHA-256 in progress (ContentDigest.sha256Hasher). */
export interface Sha256Hasher {
  update(data: string | Uint8Array): void;
  /** The SHA-256 of everything given to `update`, as 64 lower-case hex digits; the hasher is done with. */
  digest(): string;
}

export const DIGEST_PREFIX = 'sha256:';

/** `sha256:<hex>`, the form every artifact writes. */
export function formatDigest(hex: string): string {
  return DIGEST_PREFIX + hex;
}

/** Hex of `sha256:<hex>`; undefined when the text is not a SHA-256 digest. */
export function parseDigest(text: unknown): string | undefined {
  return typeof text === 'string' && /^sha256:[0-9a-f]{64}$/.test(text) ? text.slice(DIGEST_PREFIX.length) : undefined;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Hex of the 32 raw digest bytes at `offset` (digests travel between threads as raw bytes). */
export function digestHexAt(bytes: Uint8Array, offset: number): string {
  let hex = '';
  for (let i = offset; i < offset + 32; i++) hex += HEX[bytes[i]];
  return hex;
}

/** Writes the 64 hex digits of a digest as its 32 raw bytes at `offset` (the inverse of digestHexAt). */
export function writeDigestAt(hex: string, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 32; i++) bytes[offset + i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
}

/** The value of a lower-case hex digit's character code. */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}
