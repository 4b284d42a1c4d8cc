import { createHash } from 'node:crypto';
import { EVIDENCE_BUNDLE_DOCUMENT, recordFrame, type RunDocument, type RunRecord } from '../../domain/conmon/run-record';
import { chainTampered, type RunLink } from './run-chain';
import { canonicalText, sha256Hex, tampered } from './run-id';

/**
 * The record of a run from its stored canonical bytes. A run recorded since the evidence bundle became a document has
 * its record's SHA-256 in its link (`head`); a run of svc 0.5.0 stored the whole record, bundle included, so its bytes
 * hash to the id, and its bundle is given back with it (as the document it would be now).
 */
export function storedRecord(text: string | Uint8Array, link: RunLink, where: string): { record: RunRecord; bundle?: LegacyBundle } {
  // The stored bytes are the canonical text the link's hash was taken of: hashed as they are, any edit shows.
  const digest = sha256Hex(text);
  if (link.records.head !== undefined && digest !== link.records.head) throw chainTampered(where, `the hash chain does not match the record of run ${link.seq} (${link.id})`);
  if (link.records.head === undefined && digest !== link.id) throw tampered(where, link.id);
  const parsed = JSON.parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8')) as RunRecord & { bundle?: unknown };
  if (link.records.head !== undefined) return { record: parsed };
  const { bundle, ...record } = parsed;
  if (bundle === undefined) return { record };
  const bytes = Buffer.from(canonicalText(bundle), 'utf8');
  return { record, bundle: { document: { name: EVIDENCE_BUNDLE_DOCUMENT, media_type: 'application/json', sha256: sha256Hex(bytes), bytes: bytes.length }, bytes } };
}

/** The evidence bundle of a run svc 0.5.0 recorded, which kept it inside the record. */
export interface LegacyBundle {
  document: RunDocument;
  bytes: Buffer;
}

/**
 * Checks a run's id while its evidence bundle is stored: the bundle's chunks pass through `bundle()` on their way to
 * the store and are hashed inside the record's canonical text; `check()` then compares the id (of the record alone
 * when no bundle went through).
 */
export class RecordId {
  private readonly hash = createHash('sha256');
  private readonly frame: { prefix: string; suffix: string };
  private bundled = false;

  constructor(
    private readonly id: string,
    private readonly record: RunRecord,
  ) {
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
    const actual = this.bundled ? this.hash.update(this.frame.suffix).digest('hex') : sha256Hex(canonicalText(this.record));
    if (actual !== this.id) throw new Error(`append(${this.id}): decide returned a record whose id is ${actual}`);
  }
}

