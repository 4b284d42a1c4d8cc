import type { AssessedResult } from '../assessment/assessment';
import { markdownText } from '../encoding/markdown';
import type { Cr26Class, Cr26Force } from '../fedramp/cr26-rules';
import { addCadence, cadenceText, type EvidenceCadence } from '../fedramp/evidence-cadence';
import type { FedrampType } from '../fedramp/profile';
import type { EvidenceKind } from '../ksi/ksi-result';
import { days } from './freshness';

/** A result judged by CR26's cadence: every result has one (by its evidence kind), so none is unmapped. */
export type Cr26FreshnessState = 'fresh' | 'stale' | 'undated';

export interface Cr26FreshnessEntry {
  ksi_id: string;
  title: string;
  owner: string;
  /** The result's `evidence_kind`, `machine` when it gives none. */
  evidence_kind: EvidenceKind;
  /** The rule, its force for the profile's class, and the timeframe the evidence must be refreshed within. */
  cadence: { rule: string; force: Cr26Force; every: EvidenceCadence['every'] };
  observed_at: string | null;
  dated_by: 'observed_at' | 'generated_at' | null;
  age_seconds: number | null;
  /** observed_at + the cadence. */
  due_at: string | null;
  state: Cr26FreshnessState;
}

export interface Cr26FreshnessReport {
  now: string;
  cr26: {
    version: string;
    type: FedrampType;
    class: Cr26Class;
    /** The cadence of each kind (`machine`, `non_machine`), as evidenceCadence gives it. */
    cadences: { machine: EvidenceCadence; non_machine: EvidenceCadence };
    /** What the release does not say and svc assumed (the Class D fallback). */
    notes: string[];
  };
  entries: Cr26FreshnessEntry[];
  counts: Record<Cr26FreshnessState, number> & { total: number };
}

export interface Cr26FreshnessProfile {
  version: string;
  type: FedrampType;
  class: Cr26Class;
  machine: EvidenceCadence;
  nonMachine: EvidenceCadence;
}

/**
 * Age of each result's evidence against CR26's cadence for its kind (DESIGN §12.1; `svc ir freshness --class`):
 * machine-based unless the result says `"evidence_kind": "non-machine"`. Dated as assessFreshness dates them.
 * `name` gives a CR26 KSI's name for a result with no title that the 163 catalog does not know.
 */
export function assessCr26Freshness(
  items: readonly AssessedResult[],
  generatedAt: string | undefined,
  now: Date,
  profile: Cr26FreshnessProfile,
  name: (ksiId: string) => string | undefined = () => undefined,
): Cr26FreshnessReport {
  const counts = { total: 0, fresh: 0, stale: 0, undated: 0 };
  const entries = items.map(({ result, definition, action }): Cr26FreshnessEntry => {
    const kind: EvidenceKind = result.evidence_kind ?? 'machine';
    const cadence = kind === 'machine' ? profile.machine : profile.nonMachine;
    const observed = result.observed_at ?? generatedAt;
    const time = observed === undefined ? NaN : Date.parse(observed);
    const dated = !Number.isNaN(time);
    const due = dated ? addCadence(time, cadence.every) : null;
    const state: Cr26FreshnessState = due === null ? 'undated' : now.getTime() > due ? 'stale' : 'fresh';
    counts.total += 1;
    counts[state] += 1;
    return {
      ksi_id: result.ksi_id,
      title: result.title ?? definition?.title ?? name(result.ksi_id) ?? 'Unmapped KSI',
      owner: action.owner,
      evidence_kind: kind,
      cadence: { rule: cadence.rule, force: cadence.force, every: cadence.every },
      observed_at: dated ? utc(time) : null,
      dated_by: !dated ? null : result.observed_at !== undefined ? 'observed_at' : 'generated_at',
      age_seconds: dated ? Math.floor((now.getTime() - time) / 1000) : null,
      due_at: due === null ? null : utc(due),
      state,
    };
  });
  const notes = [profile.machine, profile.nonMachine]
    .filter((c) => c.from_class !== undefined)
    .map(
      (c) =>
        `${c.rule} gives no Class ${profile.class} value in CR26 ${profile.version}; svc uses Class ${c.from_class}'s (every ${cadenceText(c.every)}, ${c.force})`,
    );
  return {
    now: utc(now.getTime()),
    cr26: {
      version: profile.version,
      type: profile.type,
      class: profile.class,
      cadences: { machine: profile.machine, non_machine: profile.nonMachine },
      notes,
    },
    entries,
    counts,
  };
}

/** True when some evidence is stale or undated, under a MUST or a SHOULD: `svc ir freshness --class` exits 1. */
export function hasStaleCr26Evidence(report: Cr26FreshnessReport): boolean {
  return report.counts.stale + report.counts.undated > 0;
}

/** `KSI-AC-02`, or `KSI-AC-02 [SHOULD]` when the cadence it missed is not a MUST. */
function marked(e: Cr26FreshnessEntry): string {
  return e.cadence.force === 'MUST' ? e.ksi_id : `${e.ksi_id} [${e.cadence.force}]`;
}

const KIND_LABEL: Record<EvidenceKind, string> = { machine: 'Machine-based evidence', 'non-machine': 'Non-machine evidence' };

/**
 * The text `svc ir freshness --class` prints: the lines of freshnessText (no Unmapped line: every result has a
 * cadence), after a line per evidence kind with its cadence, rule and force and a line per note; the table of what
 * is out of date gains the kind, the cadence, the rule and the force.
 */
export function cr26FreshnessText(report: Cr26FreshnessReport, input: string): string {
  const { counts, entries, cr26 } = report;
  const cadenceLine = (c: EvidenceCadence) =>
    `${KIND_LABEL[c.kind]}: every ${cadenceText(c.every)} (${c.rule}, ${c.force}${c.prose ? ', stated in its text' : ''})`;
  const line = (label: string, state: Cr26FreshnessState) => {
    const late = entries.filter((e) => e.state === state);
    return `${label}: ${late.length}${late.length > 0 && state !== 'fresh' ? ` (${late.map(marked).join(', ')})` : ''}`;
  };
  const lines = [
    `Checking freshness of ${markdownText(input)} at ${report.now} by CR26 ${cr26.version}, ${cr26.type} Class ${cr26.class}`,
    cadenceLine(cr26.cadences.machine),
    cadenceLine(cr26.cadences.non_machine),
    ...cr26.notes.map((n) => `Note: ${n}`),
    `KSIs: ${counts.total}`,
    line('Fresh', 'fresh'),
    line('Stale', 'stale'),
    line('Undated', 'undated'),
  ];
  const late = entries.filter((e) => e.state !== 'fresh');
  if (late.length > 0) {
    lines.push('', '| KSI | Kind | Observed | Age (days) | Every | Rule | Force | Due | Owner |', '|---|---|---|---|---|---|---|---|---|');
    for (const e of late) {
      lines.push(
        `| ${markdownText(e.ksi_id)} | ${e.evidence_kind} | ${e.observed_at ?? 'unknown'} | ${e.age_seconds === null ? '-' : days(e.age_seconds)} | ${cadenceText(e.cadence.every)} | ${e.cadence.rule} | ${e.cadence.force} | ${e.due_at ?? 'now'} | ${markdownText(e.owner)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function utc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}
