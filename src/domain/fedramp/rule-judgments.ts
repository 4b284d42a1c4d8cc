import type { Cr26Class, Cr26Rules } from './cr26-rules';
import { cadenceText, MACHINE_CADENCE_RULES, NON_MACHINE_CADENCE_RULE, type EvidenceCadence } from './evidence-cadence';
import type { HistoryCheck } from './ksi-evaluation';
import type { FedrampType } from './profile';
import { HISTORY_RULE, METHODS_RULE } from './prose-facts';
import { reliedRule } from './relied-rules';
import type { FreshnessCounts } from './run-facts';
import type { SdrStatus } from './statements';
import { plural } from '../encoding/plural';

/**
 * What svc itself can say about a rule from what it holds (DESIGN §12.3: "a statement svc derives from what it
 * holds"): the statement written into the SDR when the provider wrote none, the status it supports, and for
 * readiness whether it is met, and if not, why and what to do.
 */
export interface RuleJudgment {
  rule: string;
  met: boolean;
  status: SdrStatus;
  statement: string;
  why?: string;
  todo?: string;
}

/** What the judgments read: one run's facts at `now`, and the documents svc writes with them. */
export interface JudgmentFacts {
  /**
   * The release in use: its version, and its rules and statements. A judgment whose rule it does not hold is not made
   * (issue 34); without `rules` (a test's bare model) every rule is taken as held.
   */
  rules: Pick<Cr26Rules, 'info'> & Partial<Pick<Cr26Rules, 'rules' | 'statements'>>;
  type: FedrampType;
  class: Cr26Class;
  /** The run the documents speak for: its results, its time and where it came from. */
  run: { results: number; asOf: string };
  freshness: { machine: FreshnessCounts; nonMachine: FreshnessCounts };
  /** A kind without a cadence (the release lacks its rule) is not judged. */
  cadences: { machine?: EvidenceCadence; nonMachine?: EvidenceCadence };
  /** Per applicable KSI: automated methods and FRC-CSX-VVK's minimum, and its history against FRC-CSX-MOT. */
  ksis: { id: string; methods: number; methodsRequired?: { min: number }; methodsMet?: boolean; history?: HistoryCheck }[];
  /** Recorded days the KSI metrics are built from (SDR-CSX-KMT); undefined when the SDR carries none. */
  metricDays?: number;
  /** Rev5 controls of the class's list, and how many have a status from the run. */
  controls?: { total: number; withStatus: number };
  /** Whether the document was validated against FedRAMP's schemas (FRC-CSO-JSN): the schema file, or undefined. */
  validatedBy?: string;
  /** The vulnerability register judged at the same time; undefined when no run is recorded. */
  vulnerabilities?: VulnerabilityFacts;
  /** The recorded OCRs (CCM-OCR-AVL, CCM-OCR-NRD): the last one's period and next report date, and the date the CPO carries. */
  ocr?: { last?: { from: string; to: string; next: string }; next: string; today: string };
}

/** What the VER and VDR judgments read of the vulnerability register (DESIGN §12.4). */
export interface VulnerabilityFacts {
  run: { seq: number; as_of: string };
  /** Groups still to be handled: not remediated, not a false positive, not accepted. */
  open: number;
  /** The groups late by each rule, as `VG-… (finding id)`. */
  late: Record<VulnerabilityTimeframeRule, string[]>;
}

/** The VER and VDR timeframes svc judges from the register, each with what it is about. */
export const VULNERABILITY_TIMEFRAME_RULES = {
  'VER-TFR-EVU': {
    due: "evaluated within the class's window from detection",
    todo: 'evaluate them (svc vuln list --status overdue lists them; svc vuln evaluate records an evaluation)',
  },
  'VDR-TFR-PVR': {
    due: "mitigated or remediated within VDR-TFR-PVR's timeframe for their N-rating",
    todo: 'mitigate or remediate them, and record it (svc vuln evaluate --mitigated), or accept them with a rationale (--accept)',
  },
  'VDR-TFR-KEV': {
    due: 'remediated by the due date the CISA KEV catalog gives',
    todo: 'remediate them: a KEV entry stays overdue, even mitigated, until a run no longer detects it',
  },
} as const;
export type VulnerabilityTimeframeRule = keyof typeof VULNERABILITY_TIMEFRAME_RULES;

/** The rules whose judgments read the SDR's own content and the OCR records. */
const METRICS_RULE = reliedRule('SDR-CSX-KMT');
const CONTROLS_RULE = reliedRule('SDR-CSF-CTF');
const OCR_RULES = { next: reliedRule('CCM-OCR-NRD'), available: reliedRule('CCM-OCR-AVL') } as const;
/** The rule that asks for JSON valid against FedRAMP's schemas, and (from 2026.10.05.01) public JSON web frameworks can read. */
export const JSON_RULE = reliedRule('FRC-CSO-JSN');

/**
 * Whether the release's FRC-CSO-JSN asks public JSON data be supplied in a manner compatible with modern web frameworks
 * (2026.10.05.01 adds it, with CORS, `Content-Type: application/json` and `nosniff` as its following information):
 * read from its statement, never from the version.
 */
export function asksWebFrameworks(rules: Partial<Pick<Cr26Rules, 'statements'>>): boolean {
  const statement = rules.statements?.[JSON_RULE];
  const text = [statement?.text, ...Object.values(statement?.classes ?? {})].join(' ');
  return /public JSON[^.]*?\bweb (?:application|framework)s?\b/i.test(text);
}

/** How svc-api serves the trust center's public JSON (docs/api.md, "Cross-origin reads of the public JSON"). */
export const PUBLIC_JSON_SERVING =
  'svc-api serves the public JSON (GET /fedramp/public) with CORS (Access-Control-Allow-Origin: *, no credentials, an OPTIONS preflight), Content-Type: application/json and X-Content-Type-Options: nosniff (docs/api.md).';

/**
 * FRC-CSO-JSN: met where svc validates the documents it writes (`validatedBy`); where the release asks public JSON
 * web frameworks can read, the statement also says how svc-api serves it, and that alone makes the judgment (readiness,
 * which writes no document). Undefined otherwise: the provider states it.
 */
function jsonJudgment(f: JudgmentFacts): RuleJudgment | undefined {
  const web = asksWebFrameworks(f.rules);
  if (f.validatedBy === undefined && !web) return undefined;
  const validated =
    f.validatedBy === undefined
      ? "svc fedramp package validates every JSON document it writes against FedRAMP's schemas (the newest set svc carries, or --schemas) and records each one's $schemaVersion and sha256 in its manifest."
      : `svc validates every JSON document it writes against FedRAMP's schema (${f.validatedBy}).`;
  return { rule: JSON_RULE, met: true, status: 'Implemented', statement: web ? `${validated} ${PUBLIC_JSON_SERVING}` : validated };
}

/** The ids listed in a judgment's reason: enough to act on, the rest counted. */
const LISTED = 10;

/** The rules svc judges, each with how. Rules not listed here are the provider's to state. */
export function judgeRules(f: JudgmentFacts): Map<string, RuleJudgment> {
  const out = new Map<string, RuleJudgment>();
  const held = f.rules.rules === undefined ? undefined : new Set(f.rules.rules.map((r) => r.id));
  const put = (j: RuleJudgment | undefined) => {
    if (j !== undefined && (held === undefined || held.has(j.rule))) out.set(j.rule, j);
  };
  const run = `run as of ${f.run.asOf} (${f.run.results} results)`;

  if (f.cadences.machine !== undefined) put(cadenceJudgment(MACHINE_CADENCE_RULES[f.type], 'machine-based', f.freshness.machine, f.cadences.machine, run));
  if (f.cadences.nonMachine !== undefined) put(cadenceJudgment(NON_MACHINE_CADENCE_RULE, 'non-machine', f.freshness.nonMachine, f.cadences.nonMachine, run));

  const required = f.ksis.find((k) => k.methodsRequired !== undefined)?.methodsRequired?.min;
  if (required !== undefined && f.ksis.length > 0) {
    const short = f.ksis.filter((k) => k.methodsMet === false);
    put({
      rule: METHODS_RULE,
      met: short.length === 0,
      status: short.length === 0 ? 'Implemented' : short.length === f.ksis.length ? 'Not Implemented' : 'Partially Implemented',
      statement: `svc counted the automated validation methods (distinct tool and check pairs) of each KSI in the ${run}: ${f.ksis.length - short.length} of ${f.ksis.length} KSIs have at least ${required}.`,
      ...(short.length === 0
        ? {}
        : {
            why: `${plural(short.length, 'KSI')} ${short.length === 1 ? 'has' : 'have'} fewer than ${plural(required, 'automated method')}: ${short.map((k) => `${k.id} (${k.methods})`).join(', ')}`,
            todo: 'add automated checks from more tools or checks for those KSIs',
          }),
    });
  }

  const histories = f.ksis.filter((k) => k.history?.required !== undefined);
  if (histories.length > 0) {
    const { months, from } = histories[0].history!.required!;
    const short = histories.filter((k) => k.history!.met !== true);
    put({
      rule: HISTORY_RULE,
      met: short.length === 0,
      status: short.length === 0 ? 'Implemented' : short.length === histories.length ? 'Not Implemented' : 'Partially Implemented',
      statement: `svc keeps every run in its tamper-evident run store; ${histories.length - short.length} of ${histories.length} KSIs have a recorded history since ${from} or earlier (${months} months).`,
      ...(short.length === 0
        ? {}
        : {
            why: `${plural(short.length, 'KSI')} ${short.length === 1 ? 'has' : 'have'} less than ${plural(months, 'month')} of recorded history: ${short.map((k) => `${k.id} (${k.history!.since === undefined ? 'none' : `since ${k.history!.since}`})`).join(', ')}`,
            todo: 'record a run every day with svc conmon process; the history grows with each',
          }),
    });
  }

  if (f.metricDays !== undefined) {
    put({
      rule: METRICS_RULE,
      met: f.metricDays > 0,
      status: f.metricDays > 0 ? 'Implemented' : 'Not Implemented',
      statement: `The SDR's ksiMetrics carries, for every KSI, its status per day over the last 30 days and the last year, from ${f.metricDays} ${f.metricDays === 1 ? 'day' : 'days'} of recorded runs (svc conmon process).`,
      ...(f.metricDays > 0 ? {} : { why: 'no run is recorded in the run store', todo: 'record runs with svc conmon process' }),
    });
  }

  if (f.controls !== undefined) {
    const missing = f.controls.total - f.controls.withStatus;
    put({
      rule: CONTROLS_RULE,
      met: missing === 0,
      status: missing === 0 ? 'Implemented' : f.controls.withStatus === 0 ? 'Not Implemented' : 'Partially Implemented',
      statement: `The SDR lists the ${f.controls.total} controls of the class's list; ${f.controls.withStatus} have a status from the run's results.`,
      ...(missing === 0
        ? {}
        : {
            why: `${plural(missing, 'control')} ${missing === 1 ? 'has' : 'have'} no result and no provider statement`,
            todo: 'add results for them, or a statement with ### Status per control',
          }),
    });
  }

  if (f.vulnerabilities !== undefined) {
    const v = f.vulnerabilities;
    for (const [rule, about] of Object.entries(VULNERABILITY_TIMEFRAME_RULES) as [
      VulnerabilityTimeframeRule,
      (typeof VULNERABILITY_TIMEFRAME_RULES)[VulnerabilityTimeframeRule],
    ][]) {
      const late = v.late[rule];
      const listed = late.slice(0, LISTED).join(', ') + (late.length > LISTED ? ` and ${late.length - LISTED} more` : '');
      put({
        rule,
        met: late.length === 0,
        status: late.length === 0 ? 'Implemented' : late.length >= v.open ? 'Not Implemented' : 'Partially Implemented',
        statement: `svc tracks every detected vulnerability across runs and judges it by ${rule} for Class ${f.class} from the rules data: in run ${v.run.seq} (as of ${v.run.as_of}), ${v.open} ${v.open === 1 ? 'group is' : 'groups are'} open and ${late.length} late.`,
        ...(late.length === 0
          ? {}
          : { why: `${late.length} ${late.length === 1 ? 'vulnerability was' : 'vulnerabilities were'} not ${about.due}: ${listed}`, todo: about.todo }),
      });
    }
  }

  if (f.ocr !== undefined) {
    const { last, next, today } = f.ocr;
    put({
      rule: OCR_RULES.next,
      met: true,
      status: 'Implemented',
      statement: `svc writes the target date of the next Ongoing Certification Report into the CPO (serviceProperties.nextOngoingCertificationReportDate): ${next}, ${last === undefined ? "3 months after the CPO's date while no OCR is recorded" : `3 months after the last recorded OCR's period (${last.from} to ${last.to})`}.`,
    });
    if (last !== undefined) {
      const late = today > last.next;
      put({
        rule: OCR_RULES.available,
        met: !late,
        status: late ? 'Partially Implemented' : 'Implemented',
        statement: `svc writes and records the Ongoing Certification Report every 3 months from the run store (svc fedramp ocr): the last covers ${last.from} to ${last.to}, and the next is due ${last.next}.`,
        ...(late
          ? {
              why: `the OCR due ${last.next} is overdue: the last recorded covers ${last.from} to ${last.to}`,
              todo: 'write and record the OCR of the period since (svc fedramp ocr)',
            }
          : {}),
      });
    }
  }

  put(jsonJudgment(f));
  return out;
}

function cadenceJudgment(rule: string, what: string, c: FreshnessCounts, cadence: EvidenceCadence, run: string): RuleJudgment {
  const every = cadenceText(cadence.every);
  if (c.total === 0) {
    return { rule, met: true, status: 'Implemented', statement: `The ${run} holds no ${what} evidence; svc would judge it by ${rule}'s ${every}.` };
  }
  const late = c.stale + c.undated;
  return {
    rule,
    met: late === 0,
    status: late === 0 ? 'Implemented' : c.fresh === 0 ? 'Not Implemented' : 'Partially Implemented',
    statement: `svc measured the ${what} evidence of the ${run} against ${rule}'s cadence of ${every}: ${c.fresh} of ${c.total} fresh${c.oldest === undefined ? '' : `, the oldest observed ${c.oldest}`}.`,
    ...(late === 0
      ? {}
      : {
          why: `${plural(c.stale, `${what} result`)} ${c.stale === 1 ? 'is' : 'are'} older than ${every}${c.undated > 0 ? ` and ${c.undated} ${c.undated === 1 ? 'carries' : 'carry'} no time` : ''}`,
          todo: 'run the scans again and record the run (svc ir freshness --class lists them)',
        }),
  };
}
