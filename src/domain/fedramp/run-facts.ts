import { isoSeconds } from '../encoding/iso-time';
import type { AssessedResult } from '../assessment/assessment';
import type { KsiDefinition } from '../catalog/ksi-catalog';
import { normalizeControlId } from '../catalog/ksi-catalog';
import type { EvidenceKind } from '../ksi/ksi-result';
import type { Status } from '../ksi/status';
import { addCadence, type EvidenceCadence } from './evidence-cadence';
import { evidenceTypeOf, type DeclaredEvidence, type SdrEvidenceType } from './evidence-type';
import { Cr26Tally, evaluationResult, type EvaluationInput } from './ksi-evaluation';

/** Counts of a run's evidence of one kind against its cadence at `now`. */
export interface FreshnessCounts {
  total: number;
  fresh: number;
  stale: number;
  undated: number;
  /** ISO-8601 of the oldest dated evidence. */
  oldest?: string;
}

/** The statuses of the results that name one control (for a Rev5 SDR's `securityControls[]`). */
export interface ControlCounts {
  pass: number;
  fail: number;
  other: number;
}

/** One contributing evidence entry as the SDR writes it (`ksiEvidence[]`). */
export interface RunEvidence {
  type: SdrEvidenceType;
  tool: string;
  ksi_id: string;
  status: Status;
  kind: EvidenceKind;
  /** YYYY-MM-DD of observed_at (else the report's generated_at); absent when neither is a time. */
  date?: string;
  /** Hex SHA-256 of the result's evidence entry (its content hash); all zeros for a result that reaches no KSI. */
  hash: string;
}

/** A result's evidence against its kind's cadence at `now`. */
export type EvidenceAge = 'fresh' | 'stale' | 'undated';

const STATUSES: readonly Status[] = ['PASS', 'WARN', 'FAIL'];
const AGES: readonly EvidenceAge[] = ['fresh', 'stale', 'undated'];
const KINDS: readonly EvidenceKind[] = ['machine', 'non-machine'];

/**
 * Where a result of a run of several sources came from (docs/conmon.md, "Sources"): its source's report tool and the
 * time its run speaks for, which date a result without observed_at. Without it, the run's (the constructor's).
 */
export interface ResultOrigin {
  generatedAt: string | undefined;
  tool: string | undefined;
}

/**
 * What the CR26 documents need of a run, gathered in one pass over its results (`add` in index order): the KSI
 * evaluation (Cr26Tally), per result the facts its evidence entry is written from, packed in typed arrays (a run of
 * a million results takes a few MB here, no object per result), evidence freshness by the class's cadences, and the
 * statuses per control. The results themselves (and their content hashes) stay where the caller keeps them.
 */
export class Cr26RunFacts {
  readonly tally: Cr26Tally;
  readonly freshness: { machine: FreshnessCounts; nonMachine: FreshnessCounts } = { machine: counts(), nonMachine: counts() };
  /** Normalized control id (`ac-2.1`) → statuses of the results that name it. */
  readonly controls = new Map<string, ControlCounts>();
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  /** Per result: tool, ksi_id and date as indices into `strings`; type, status and kind as small numbers. */
  private tool = new Uint32Array(1024);
  private ksi = new Uint32Array(1024);
  private date = new Uint32Array(1024);
  private flags = new Uint8Array(1024);
  private hashes = new Uint8Array(1024 * 32);
  private size = 0;
  /** Per observed_at text: its time and date index (many results share one). */
  private readonly times = new Map<string, ObservedTime>();
  /** The oldest dated time counted in each FreshnessCounts. */
  private readonly oldest = new Map<FreshnessCounts, number>();
  /** Per tool and kind: the evidence type's index. */
  private readonly types = new Map<string, number>();

  constructor(
    evaluation: Omit<EvaluationInput, 'results'>,
    /** Each kind's cadence; a kind without one (the release lacks its rule) is not judged: its dated evidence counts as fresh. */
    private readonly cadences: { machine?: EvidenceCadence; nonMachine?: EvidenceCadence; now: Date },
    private readonly generatedAt: string | undefined,
    /** The tool of every result (the report's source.tool), else each result's own `source`. */
    private readonly reportTool: string | undefined,
    /** The evidence type each scanner svc reads declares (evidenceTypeOf). */
    private readonly declared: DeclaredEvidence,
  ) {
    this.tally = new Cr26Tally(evaluation);
  }

  /** The number of results added. */
  get results(): number {
    return this.size;
  }

  /**
   * Adds the next result (its index is the number added before it); `hash` gives the hex content hash of its evidence
   * entry, asked for only when the result reaches a KSI (hashing is most of the cost of a large run).
   */
  add({ result, definition }: Pick<AssessedResult, 'result' | 'definition'>, hash: () => string, origin?: ResultOrigin): void {
    const index = this.size;
    let tool = '';
    const reached = this.tally.addKeyed(result.ksi_id, index, () => {
      const item = evaluationResult(result, origin === undefined ? this.reportTool : origin.tool);
      tool = item.tool;
      return item;
    });
    const kind: EvidenceKind = result.evidence_kind ?? 'machine';
    const observed = this.timeOf(result.observed_at ?? (origin === undefined ? this.generatedAt : origin.generatedAt));
    const age = this.fresh(kind, observed);
    this.countControls(definition, result.status);
    this.grow(index + 1);
    this.size = index + 1;
    // Only a result that reaches a KSI is ever read back (`evidence`, `age`): the others keep nothing per result.
    if (reached.length === 0) return;
    this.tool[index] = this.intern(tool);
    this.ksi[index] = this.intern(result.ksi_id);
    this.date[index] = observed.date;
    this.flags[index] = this.typeOf(tool, kind) | (STATUSES.indexOf(result.status) << 3) | (KINDS.indexOf(kind) << 5) | (AGES.indexOf(age) << 6);
    writeHex(hash(), this.hashes, index * 32);
  }

  /** The evidence entry facts of result `index`, one that reaches a KSI (a tally's index). */
  evidence(index: number): RunEvidence {
    const flags = this.flags[index];
    const date = this.date[index];
    return {
      type: EVIDENCE_TYPES[flags & 7],
      tool: this.strings[this.tool[index]],
      ksi_id: this.strings[this.ksi[index]],
      status: STATUSES[(flags >> 3) & 3],
      kind: KINDS[(flags >> 5) & 1],
      ...(date === 0 ? {} : { date: this.strings[date - 1] }),
      hash: readHex(this.hashes, index * 32),
    };
  }

  private timeOf(observed: string | undefined): ObservedTime {
    if (observed === undefined) return { time: NaN, date: 0 };
    let t = this.times.get(observed);
    if (t === undefined) {
      const time = Date.parse(observed);
      t = { time, date: Number.isNaN(time) ? 0 : this.intern(new Date(time).toISOString().slice(0, 10)) + 1 };
      if (this.times.size < 65_536) this.times.set(observed, t);
    }
    return t;
  }

  private typeOf(tool: string, kind: EvidenceKind): number {
    const key = `${kind}\u0000${tool}`;
    let type = this.types.get(key);
    if (type === undefined) this.types.set(key, (type = EVIDENCE_TYPES.indexOf(evidenceTypeOf(tool, kind, this.declared))));
    return type;
  }

  /** Whether result `index`'s evidence is fresh by its kind's cadence at `now`, stale, or carries no time. */
  age(index: number): EvidenceAge {
    return AGES[(this.flags[index] >> 6) & 3];
  }

  /** Counts a result's evidence in its kind's freshness, by the cadence at `now`; its age is worked out once per time. */
  private fresh(kind: EvidenceKind, observed: ObservedTime): EvidenceAge {
    const machine = kind === 'machine';
    const counts = machine ? this.freshness.machine : this.freshness.nonMachine;
    counts.total += 1;
    const { time } = observed;
    if (Number.isNaN(time)) {
      counts.undated += 1;
      return 'undated';
    }
    const cached = machine ? observed.machine : observed.nonMachine;
    const cadence = machine ? this.cadences.machine : this.cadences.nonMachine;
    const age: EvidenceAge = cached ?? (cadence !== undefined && this.cadences.now.getTime() > addCadence(time, cadence.every) ? 'stale' : 'fresh');
    if (machine) observed.machine = age;
    else observed.nonMachine = age;
    counts[age] += 1;
    const oldest = this.oldest.get(counts);
    if (oldest === undefined || time < oldest) {
      this.oldest.set(counts, time);
      counts.oldest = isoSeconds(new Date(time));
    }
    return age;
  }

  private countControls(definition: Pick<KsiDefinition, 'controls'> | undefined, status: Status): void {
    for (const raw of definition?.controls ?? []) {
      const control = normalizeControlId(raw);
      if (control === undefined) continue;
      let c = this.controls.get(control);
      if (c === undefined) this.controls.set(control, (c = { pass: 0, fail: 0, other: 0 }));
      if (status === 'PASS') c.pass += 1;
      else if (status === 'FAIL') c.fail += 1;
      else c.other += 1;
    }
  }

  private intern(text: string): number {
    let i = this.stringIndex.get(text);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(text);
      this.stringIndex.set(text, i);
    }
    return i;
  }

  private grow(size: number): void {
    if (size <= this.tool.length) return;
    const next = this.tool.length * 2;
    const bigger = <T extends Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(next);
      b.set(a);
      return b;
    };
    this.tool = bigger(this.tool, (n) => new Uint32Array(n));
    this.ksi = bigger(this.ksi, (n) => new Uint32Array(n));
    this.date = bigger(this.date, (n) => new Uint32Array(n));
    this.flags = bigger(this.flags, (n) => new Uint8Array(n));
    const hashes = new Uint8Array(next * 32);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }
}

/**
 * The freshness of some of a run's results (a KSI's contributing results: its tally's indices), by kind, as
 * `freshness` counts the whole run's; `oldest` is the day (YYYY-MM-DD) of the oldest dated one.
 */
export function freshnessOf(
  facts: Pick<Cr26RunFacts, 'age' | 'evidence'>,
  indices: Iterable<number>,
): { machine: FreshnessCounts; nonMachine: FreshnessCounts } {
  const out = { machine: counts(), nonMachine: counts() };
  for (const index of indices) {
    const e = facts.evidence(index);
    const c = e.kind === 'machine' ? out.machine : out.nonMachine;
    const age = facts.age(index);
    c.total += 1;
    c[age] += 1;
    if (e.date !== undefined && (c.oldest === undefined || e.date < c.oldest)) c.oldest = e.date;
  }
  return out;
}

/** An observed_at as read once: its time, its date's index (0: none), and its age by each kind's cadence once known. */
interface ObservedTime {
  time: number;
  date: number;
  machine?: EvidenceAge;
  nonMachine?: EvidenceAge;
}

const EVIDENCE_TYPES: readonly SdrEvidenceType[] = ['Log', 'Report', 'Screenshot', 'Configuration', 'Policy', 'Procedure', 'Audit Record'];

const HEX = '0123456789abcdef';

/** 64 hex digits as 32 bytes at `at`. */
function writeHex(hex: string, into: Uint8Array, at: number): void {
  for (let i = 0; i < 32; i++) into[at + i] = (hexValue(hex.charCodeAt(2 * i)) << 4) | hexValue(hex.charCodeAt(2 * i + 1));
}

function hexValue(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

function readHex(from: Uint8Array, at: number): string {
  let hex = '';
  for (let i = at; i < at + 32; i++) hex += HEX[from[i] >> 4] + HEX[from[i] & 15];
  return hex;
}

function counts(): FreshnessCounts {
  return { total: 0, fresh: 0, stale: 0, undated: 0 };
}
