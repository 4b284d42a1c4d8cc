import { NotFoundError } from '../../domain/errors';
import { BuildSlots, type BuildSlotCounts } from '../shared/build-slots';
import { representationKey, type TrustRepresentation } from './build-trust-document';
import type { BuildTrustDocumentInput } from './trust-documents';
import type { SnapshotBounds } from './snapshot-store';

/** What builds a snapshot's documents: a BuildTrustDocument over the store as it stood at the snapshot. */
export interface SnapshotDocumentBuilder {
  execute(input: BuildTrustDocumentInput): Promise<TrustRepresentation>;
}

/** The work `?snapshot=` may cause (docs/api.md, "Bounded work"). */
export interface SnapshotLimits {
  /** Documents built at once, across snapshots. */
  builds: number;
  /** Requests that may wait for a build; past them 503 `busy`. */
  waiting: number;
  /** The bytes of built representations kept (a snapshot never changes, so neither does a representation). */
  keptBytes: number;
  /** What a 503 `busy` tells the client to wait, in seconds (Retry-After). */
  retryAfterSeconds: number;
}

export const SNAPSHOT_LIMITS_DEFAULT: SnapshotLimits = { builds: 1, waiting: 32, keptBytes: 64 * 2 ** 20, retryAfterSeconds: 10 };

/** What a kept answer costs besides its body: the key, the representation's fields, the map's entry. */
const ENTRY_OVERHEAD = 512;

type Kept = { representation: TrustRepresentation } | { error: NotFoundError };

/**
 * The trust center's documents as they were at OCR snapshots (`?snapshot=`, CDS-CSO-HAD), with bounded work per
 * request: each representation (snapshot, document, format and, for the OCR and incidents, audience: representationKey) is built once and kept in a
 * byte-bounded cache, the least recently used dropped first (a snapshot never changes, so neither does what was built
 * from it); concurrent requests for one representation share its build; at most `builds` build at a time, at most
 * `waiting` more wait (BuildSlots), and past them `execute` throws UnavailableError `busy`. The documents a snapshot's
 * builds have under way share one builder (`open`), dropped when the last of them ends, so an SDR model is built once
 * for its JSON and page asked for together and none is held after. A snapshot's NotFoundError (no run, no OCR in it,
 * no KSI metrics) is kept like a representation; other failures are not.
 */
export class SnapshotDocuments {
  readonly limits: SnapshotLimits;
  private readonly slots: BuildSlots;
  /** By key, least recently used first. */
  private readonly kept = new Map<string, { value: Kept; bytes: number }>();
  private keptBytes = 0;
  /** Each snapshot with builds under way (queued or running): how many, and their builder once the first has begun. */
  private readonly builders = new Map<string, { builder?: SnapshotDocumentBuilder; builds: number }>();

  constructor(
    private readonly open: (bounds: SnapshotBounds) => SnapshotDocumentBuilder,
    limits: Partial<SnapshotLimits> = {},
  ) {
    this.limits = { ...SNAPSHOT_LIMITS_DEFAULT, ...limits };
    this.slots = new BuildSlots({ running: this.limits.builds, waiting: this.limits.waiting }, 'documents of OCR snapshots');
  }

  /** Builds started and refused, the most at once. */
  get counts(): Readonly<BuildSlotCounts> {
    return this.slots.counts;
  }

  /** The bytes kept now. */
  get bytes(): number {
    return this.keptBytes;
  }

  /** The representation `input` asks for (input.snapshot set) of the snapshot that stops at `bounds`. */
  async execute(bounds: SnapshotBounds, input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    const snapshot = `${bounds.run_seq ?? 0}:${bounds.journal_seq}`;
    const key = JSON.stringify([snapshot, input.snapshot ?? '', representationKey(input)]);
    const hit = this.take(key) ?? (await this.built(snapshot, bounds, key, input));
    if ('error' in hit) throw hit.error;
    return hit.representation;
  }

  /**
   * The build of `key`, shared while under way. A new one counts as a build of its snapshot from when it is accepted
   * (queued or running) to its end, so the snapshot's builder serves every build of it queued meanwhile.
   */
  private built(snapshot: string, bounds: SnapshotBounds, key: string, input: BuildTrustDocumentInput): Promise<Kept> {
    const build = () => this.build(snapshot, bounds, key, input);
    if (this.slots.has(key)) return this.slots.run(key, build);
    const shared = this.builders.get(snapshot) ?? { builds: 0 };
    shared.builds += 1;
    this.builders.set(snapshot, shared);
    const ended = () => {
      shared.builds -= 1;
      if (shared.builds === 0 && this.builders.get(snapshot) === shared) this.builders.delete(snapshot);
    };
    let done: Promise<Kept>;
    try {
      done = this.slots.run(key, build);
    } catch (error) {
      ended();
      throw error;
    }
    done.then(ended, ended);
    return done;
  }

  private async build(snapshot: string, bounds: SnapshotBounds, key: string, input: BuildTrustDocumentInput): Promise<Kept> {
    // Built by an earlier request while this one waited for a slot (the single flight covers only builds under way).
    const earlier = this.take(key);
    if (earlier !== undefined) return earlier;
    const shared = this.builders.get(snapshot) as { builder?: SnapshotDocumentBuilder; builds: number };
    shared.builder ??= this.open(bounds);
    const value: Kept = await shared.builder.execute(input).then(
      (representation) => ({ representation }),
      (error: unknown) => {
        if (error instanceof NotFoundError) return { error };
        throw error;
      },
    );
    this.keep(key, value);
    return value;
  }

  /** The kept answer of `key`, now the most recently used; undefined when none is kept. */
  private take(key: string): Kept | undefined {
    const hit = this.kept.get(key);
    if (hit === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, hit);
    return hit.value;
  }

  /** Keeps `value`, dropping the least recently used past keptBytes; one larger than keptBytes is not kept. */
  private keep(key: string, value: Kept): void {
    const bytes = ENTRY_OVERHEAD + key.length + ('representation' in value ? value.representation.body.byteLength : value.error.message.length);
    if (bytes > this.limits.keptBytes) return;
    const before = this.kept.get(key);
    if (before !== undefined) {
      this.kept.delete(key);
      this.keptBytes -= before.bytes;
    }
    for (const [old, entry] of this.kept) {
      if (this.keptBytes + bytes <= this.limits.keptBytes) break;
      this.kept.delete(old);
      this.keptBytes -= entry.bytes;
    }
    this.kept.set(key, { value, bytes });
    this.keptBytes += bytes;
  }
}
