import type { AssessedResult } from '../assessment/assessment';
import type { KsiDefinition } from '../catalog/ksi-catalog';
import { normalizeControlId } from '../catalog/ksi-catalog';
import type { EvidenceKind } from '../ksi/ksi-result';
import type { Status } from '../ksi/status';
import { addCadence, type EvidenceCadence } from './evidence-cadence';
import { evidenceTypeOf, type SdrEvidenceType } from './evidence-type';
import { Cr26Tally, type EvaluationInput, type EvaluationResult } from './ksi-evaluation';

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
}

const STATUSES: readonly Status[] = ['PASS', 'WARN', 'FAIL'];
const KINDS: readonly EvidenceKind[] = ['machine', 'non-machine'];

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
  private size = 0;

  constructor(
    evaluation: Omit<EvaluationInput, 'results'>,
    private readonly cadences: { machine: EvidenceCadence; nonMachine: EvidenceCadence; now: Date },
    private readonly generatedAt: string | undefined,
    /** The tool of every result (the report's source.tool), else each result's own `source`. */
    private readonly reportTool: string | undefined,
  ) {
    this.tally = new Cr26Tally(evaluation);
  }

  get results(): number {
    return this.size;
  }

  /** Adds the next result (its index is the number added before it). */
  add({ result, definition }: Pick<AssessedResult, 'result' | 'definition'>): void {
    const index = this.size;
    const tool = this.reportTool ?? (typeof result.source === 'string' && result.source !== '' ? result.source : 'unknown');
    const checks = (result.checks ?? []).map((c) => c.id).filter((id) => typeof id === 'string' && id !== '');
    const item: EvaluationResult = { ksi_id: result.ksi_id, status: result.status, tool, checks: checks.length > 0 ? [...new Set(checks)] : [result.ksi_id] };
    this.tally.add(item, index);
    const kind: EvidenceKind = result.evidence_kind ?? 'machine';
    const observed = result.observed_at ?? this.generatedAt;
    const time = observed === undefined ? NaN : Date.parse(observed);
    this.fresh(kind === 'machine' ? this.freshness.machine : this.freshness.nonMachine, kind === 'machine' ? this.cadences.machine : this.cadences.nonMachine, time);
    this.countControls(definition, result.status);
    this.grow(index + 1);
    this.tool[index] = this.intern(tool);
    this.ksi[index] = this.intern(result.ksi_id);
    this.date[index] = Number.isNaN(time) ? 0 : this.intern(new Date(time).toISOString().slice(0, 10)) + 1;
    const type = EVIDENCE_TYPES.indexOf(evidenceTypeOf(tool, kind));
    this.flags[index] = type | (STATUSES.indexOf(result.status) << 3) | (KINDS.indexOf(kind) << 5);
    this.size = index + 1;
  }

  /** The evidence entry facts of result `index`. */
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
    };
  }

  private fresh(counts: FreshnessCounts, cadence: EvidenceCadence, time: number): void {
    counts.total += 1;
    if (Number.isNaN(time)) {
      counts.undated += 1;
      return;
    }
    if (this.cadences.now.getTime() > addCadence(time, cadence.every)) counts.stale += 1;
    else counts.fresh += 1;
    const iso = new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (counts.oldest === undefined || iso < counts.oldest) counts.oldest = iso;
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
  }
}

const EVIDENCE_TYPES: readonly SdrEvidenceType[] = ['Log', 'Report', 'Screenshot', 'Configuration', 'Policy', 'Procedure', 'Audit Record'];

function counts(): FreshnessCounts {
  return { total: 0, fresh: 0, stale: 0, undated: 0 };
}
