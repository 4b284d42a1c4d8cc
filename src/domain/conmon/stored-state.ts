import { jsonText } from '../encoding/json-chunks';
import type { ContentDigest } from '../evidence/content-digest';
import { chainTampered, RECORD_KINDS, type RunLink } from './run-chain';

/**
 * A run's POA&M state and events as the stores keep them (issue 35): never one string or one database value, but parts
 * of whole items, each the canonical JSON of its items joined by commas (no brackets), at most STATE_PART_BYTES long
 * unless one item alone is longer. Joined with commas and bracketed, the parts are the canonical JSON of the array, so
 * hashing them as they are read gives the SHA-256 the run's chain link keeps (hashOf), and a part changed outside svc
 * shows once its array is read through.
 */
export const STATE_PART_BYTES = 1 << 20;

/** The canonical JSON text of `items` as parts of whole items (see STATE_PART_BYTES); none for an empty list. */
export function* stateParts(items: Iterable<unknown>, limit = STATE_PART_BYTES): Generator<string> {
  let pieces: string[] = [];
  let length = 0;
  for (const item of items) {
    const text = jsonText(item, 'canonical');
    if (pieces.length > 0 && length + 1 + text.length > limit) {
      yield pieces.join(',');
      pieces = [];
      length = 0;
    }
    length += (pieces.length > 0 ? 1 : 0) + text.length;
    pieces.push(text);
  }
  if (pieces.length > 0) yield pieces.join(',');
}

/**
 * Reads a stored array back a piece at a time: `part` takes a part (items joined by commas) or `item` one item's text,
 * in order; each is parsed and hashed as it comes, and `end` checks the whole against the SHA-256 the run's link keeps
 * for `kind` (IntegrityError run-store-tampered naming `where` when it differs) and gives the items.
 */
export class StoredArray<T> {
  private readonly hash: ReturnType<ContentDigest['sha256Hasher']>;
  private readonly items: T[] = [];
  private first = true;

  constructor(
    digest: Pick<ContentDigest, 'sha256Hasher'>,
    private readonly link: RunLink,
    private readonly kind: 'poam' | 'events',
    private readonly where: string,
  ) {
    this.hash = digest.sha256Hasher();
    this.hash.update('[');
  }

  /** A part as stateParts wrote it. */
  part(text: string): void {
    this.add(text, () => JSON.parse(`[${text}]`) as T[]);
  }

  /** One item's JSON text. */
  item(text: string): void {
    this.add(text, () => [JSON.parse(text) as T]);
  }

  end(): T[] {
    this.hash.update(']');
    if (this.hash.digest() !== this.link.records[this.kind]) throw this.tampered();
    return this.items;
  }

  private add(text: string, parse: () => T[]): void {
    if (!this.first) this.hash.update(',');
    this.first = false;
    this.hash.update(text);
    let parsed: T[];
    try {
      parsed = parse();
    } catch {
      throw this.tampered();
    }
    for (const item of parsed) this.items.push(item);
  }

  /** What checkRecord says of a record that does not match its link. */
  private tampered(): Error {
    return chainTampered(this.where, `the hash chain does not match the ${RECORD_KINDS[this.kind]} of run ${this.link.seq} (${this.link.id})`);
  }
}
