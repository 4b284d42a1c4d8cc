import type { Sha256Hasher } from '../evidence/content-digest';
import { chainTampered, type RunDigest, type RunLink } from './run-chain';
import { canonicalText, tampered } from './run-id';
import { EVIDENCE_BUNDLE_DOCUMENT, recordFrame, type RunDocument, type RunRecord } from './run-record';

/** As Buffer#toString('utf8') reads: a byte-order mark is kept, so a record that starts with one is refused as JSON. */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
const UTF8_ENCODER = new TextEncoder();

/**
 * The record of a run from its stored canonical bytes. A run recorded since the evidence bundle became a document has
 * its record's SHA-256 in its link (`head`); a run of svc 0.5.0 stored the whole record, bundle included, so its bytes
 * hash to the id, and its bundle is given back with it (as the document it would be now).
 */
export function storedRecord(text: string | Uint8Array, link: RunLink, where: string, digest: RunDigest): { record: RunRecord; bundle?: LegacyBundle } {
  // The stored bytes are the canonical text the link's hash was taken of: hashed as they are, any edit shows.
  const sha256 = digest.sha256(text);
  if (link.records.head !== undefined && sha256 !== link.records.head)
    throw chainTampered(where, `the hash chain does not match the record of run ${link.seq} (${link.id})`);
  if (link.records.head === undefined && sha256 !== link.id) throw tampered(where, link.id);
  const parsed = JSON.parse(typeof text === 'string' ? text : UTF8.decode(text)) as RunRecord & { bundle?: unknown };
  if (link.records.head !== undefined) return { record: parsed };
  const { bundle, ...record } = parsed;
  if (bundle === undefined) return { record };
  const bytes = UTF8_ENCODER.encode(canonicalText(bundle));
  return {
    record,
    bundle: { document: { name: EVIDENCE_BUNDLE_DOCUMENT, media_type: 'application/json', sha256: digest.sha256(bytes), bytes: bytes.length }, bytes },
  };
}

/** The evidence bundle of a run svc 0.5.0 recorded, which kept it inside the record. */
export interface LegacyBundle {
  document: RunDocument;
  bytes: Uint8Array;
}

/**
 * Checks a run's id while its evidence bundle is stored: the bundle's chunks pass through `bundle()` on their way to
 * the store and are hashed inside the record's canonical text; `check()` then compares the id (of the record alone
 * when no bundle went through).
 */
export class RecordId {
  private readonly hash: Sha256Hasher;
  private readonly frame: { prefix: string; suffix: string };
  private bundled = false;

  constructor(
    private readonly id: string,
    private readonly record: RunRecord,
    private readonly digest: RunDigest,
  ) {
    this.hash = digest.sha256Hasher();
    this.frame = recordFrame(record);
  }

  async *bundle<T extends Uint8Array>(chunks: AsyncIterable<T>): AsyncGenerator<T> {
    this.bundled = true;
    this.hash.update(this.frame.prefix);
    for await (const chunk of chunks) {
      this.hash.update(chunk);
      yield chunk;
    }
  }

  /** Throws when the record (with the bundle that went through) does not hash to the id: a bug of the caller. */
  check(): void {
    let actual: string;
    if (this.bundled) {
      this.hash.update(this.frame.suffix);
      actual = this.hash.digest();
    } else {
      actual = this.digest.sha256(canonicalText(this.record));
    }
    if (actual !== this.id) throw new Error(`append(${this.id}): decide returned a record whose id is ${actual}`);
  }
}
