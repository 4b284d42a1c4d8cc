import type { JsonSchemaType } from '../encoding/json-schema-type';
import { markdownLiteral, markdownText } from '../encoding/markdown';
import { printableText } from '../encoding/printable-text';
import { lazyArray, type LazyArray } from '../encoding/json-chunks';
import type { Applicability } from './applicability';
import type { Cr26Class, Cr26Rules } from './cr26-rules';
import { cadenceText, type EvidenceCadence } from './evidence-cadence';
import type { SdrEvidenceType } from './evidence-type';
import { METHODS_RULE } from './prose-facts';
import { citedTitle, reliedRule } from './relied-rules';

/** The rule that asks the SDR to carry the KSI metrics. */
const METRICS_RULE = reliedRule('SDR-CSX-KMT');
import {
  DAILY_KSI_STATUS_SCHEMA,
  KSI_METRICS_SCHEMA,
  tallyStatus,
  testsOf,
  type Cr26KsiStatus,
  type HistoryCheck,
  type KsiTally,
  type MetricSummary,
} from './ksi-evaluation';
import type { FedrampType } from './profile';
import type { RuleJudgment } from './rule-judgments';
import type { Cr26RunFacts, ControlCounts } from './run-facts';
import type { ProviderStatement, ProviderStatements, SdrStatus } from './statements';
import { quotedMarkdown, twinHeader, type TwinHeader } from './twin';

/**
 * What the SDR says for a rule when the provider wrote nothing and svc cannot judge it (readiness: needs a statement),
 * naming the heading to write: no `<rule id>` placeholder, which a Markdown viewer drops as an HTML tag.
 */
export function noStatement(ruleId: string): string {
  return `No statement supplied: the provider has not yet written how this rule is met (statements file: a "## ${ruleId}" heading and the statement under it).`;
}

/** Where an SDR entry's implementation statement came from. */
export type StatementSource = 'provider' | 'svc' | 'none';

/**
 * A KSI's metrics as the SDR's `ksiMetrics` writes them (DESIGN §12.3), `daily` for Class C: the JSON Schema of each
 * KSI's entry, which GET /fedramp/metrics publishes; SdrKsiMetrics is its type.
 */
export const SDR_KSI_METRICS_SCHEMA = {
  ...KSI_METRICS_SCHEMA,
  properties: { ...KSI_METRICS_SCHEMA.properties, daily: { type: 'array', items: DAILY_KSI_STATUS_SCHEMA } },
} as const;
export type SdrKsiMetrics = JsonSchemaType<typeof SDR_KSI_METRICS_SCHEMA>;

/** SDR-CSO-MTD: the SDR's own metadata, as FedRAMP's later SDR schema shapes it. */
export interface SdrMetadata {
  version: string;
  lastUpdated: string;
  updateSource: string;
}

export interface SdrInput {
  profile: { type: FedrampType; class: Cr26Class; package_uri: string; evidence_base_uri: string; fedramp_id?: string };
  rules: Cr26Rules;
  found: Applicability;
  facts: Cr26RunFacts;
  statements: ProviderStatements;
  judgments: ReadonlyMap<string, RuleJudgment>;
  /** Per applicable KSI, from the run store; absent when the SDR carries no metrics (Rev5). */
  metrics?: ReadonlyMap<string, SdrKsiMetrics>;
  history?: ReadonlyMap<string, HistoryCheck>;
  /** Rev5: the class's controls (normalized ids, `ac-2.1`), in catalog order. */
  controls?: readonly string[];
  /** The machine-based cadence; absent when the release lacks its rule (not judged, not cited). */
  cadence?: EvidenceCadence;
  metadata: SdrMetadata;
}

/** One FedRAMP rule of the SDR, as the twin and readiness see it. */
export interface SdrRequirement {
  id: string;
  source: StatementSource;
  status?: SdrStatus;
}

/** One KSI of the SDR, as the twin and readiness see it. */
export interface SdrKsi {
  id: string;
  name: string;
  status?: Cr26KsiStatus;
  source: Exclude<StatementSource, 'none'>;
  methods: number;
  methodsRequired?: number;
  evidence: number;
  tests: string[];
}

/**
 * The SDR as svc writes it: the parts of FedRAMP's SDR schema (fedramp-security-decision-record-schema-2026-06-24.json,
 * $schemaVersion 1.1.1) that svc fills, optional where the builder may leave them out. svc writes no
 * `portsAndProtocols`, `parameterValues`, `frrAssessment` or `evidenceText`; `ksiMetrics` is svc's own key
 * (SDR-CSX-KMT, DESIGN §12.3), which no FedRAMP schema declares.
 */
export interface SdrDocument {
  certificationPackageOverviewUri: string;
  /** SDR-CSO-MTD (the schema declares it from $schemaVersion 1.1.1 on, as optional); always written. */
  metadata: SdrMetadata;
  fedRampRequirements: SdrRequirementEntry[];
  /** 20x only. */
  keySecurityIndicators?: SdrKsiEntry[];
  /** By KSI id, in id order; absent for Rev5 and when the release holds no SDR-CSX-KMT. */
  ksiMetrics?: Record<string, SdrKsiMetrics>;
  /** Rev5 only: the class's controls. */
  securityControls?: SdrControlEntry[];
}

/** One `fedRampRequirements[]` entry: a FedRAMP rule and how it is met (SDR-CSO-FRR). */
export interface SdrRequirementEntry {
  frrID: string;
  frrImplementationStatus?: SdrStatus;
  /** Markdown paragraphs. */
  frrImplementation: string[];
  frrValidation?: string[];
}

/** One `keySecurityIndicators[]` entry: the schema's six required arrays, and the status when the run gives one. */
export interface SdrKsiEntry {
  ksiId: string;
  ksiImplementationStatus?: Cr26KsiStatus;
  ksiImplementation: string[];
  ksiValidation: string[];
  /** Always empty: the assessment is the assessor's to write. */
  ksiAssessment: string[];
  ksiTests: string[];
  /** One entry per contributing result, written as it is read (a run of a million results is never held whole). */
  ksiEvidence: LazyArray<SdrEvidence>;
}

/** One `ksiEvidence[]` entry (the schema's `$defs/evidence`). */
export interface SdrEvidence {
  evidenceType: SdrEvidenceType;
  evidenceDescription: string;
  /** `<evidence_base_uri>/evidence/<sha256>`. */
  evidenceLocation: string;
  /** YYYY-MM-DD; absent when the result has no date. */
  lastUpdated?: string;
}

/** One `securityControls[]` entry (Rev5). */
export interface SdrControlEntry {
  /** As FedRAMP writes control ids: `AC-02 (01)`. */
  controlId: string;
  controlImplementationStatus?: SdrStatus;
  /** Markdown. */
  controlImplementationDescription: string;
}

/** The SDR as one model: the JSON document (its evidence lists written as they are read) and what its twin shows. */
export interface SdrModel {
  document: SdrDocument;
  requirements: SdrRequirement[];
  ksis: SdrKsi[];
  controls?: { id: string; status?: SdrStatus; source: StatementSource }[];
  input: SdrInput;
}

/**
 * The Security Decision Record (SDR-CSO-FRR, DESIGN §12.3) of a run for a profile: `fedRampRequirements[]` for every
 * applicable rule (the provider's statement, else svc's from what it holds, else NO_STATEMENT),
 * `keySecurityIndicators[]` for every applicable KSI with all six required arrays, `ksiMetrics`, `metadata`, and for
 * Rev5 `securityControls[]`. Each KSI's `ksiEvidence` is a LazyArray: a run of a million results is written entry
 * by entry.
 */
export function buildSdr(input: SdrInput): SdrModel {
  const { found, statements, judgments, facts } = input;
  const requirements: SdrRequirement[] = [];
  const fedRampRequirements = found.rules.map(({ rule }): SdrRequirementEntry => {
    const given = statements.byId.get(rule.id);
    const judged = judgments.get(rule.id);
    const source: StatementSource = given?.implementation.length ? 'provider' : judged !== undefined ? 'svc' : 'none';
    const status = given?.status !== undefined ? (given.status.value ?? undefined) : judged?.status;
    requirements.push({ id: rule.id, source, ...(status === undefined ? {} : { status }) });
    return {
      frrID: rule.id,
      ...(status === undefined ? {} : { frrImplementationStatus: status }),
      // svc's own text goes in as markdownLiteral makes it (the fields are Markdown); the provider's Markdown as written.
      frrImplementation: source === 'provider' ? withWord(given!) : [markdownLiteral(source === 'svc' ? judged!.statement : noStatement(rule.id))],
      ...frrValidation([...(given?.validation ?? []), ...(judged !== undefined && source === 'provider' ? [markdownLiteral(`svc: ${judged.statement}`)] : [])]),
    };
  });

  const evaluation = facts.tally.evaluation();
  const names = new Map(input.rules.ksis.map((k) => [k.id, k.name]));
  const ksis: SdrKsi[] = [];
  const keySecurityIndicators = evaluation.ksis.map((k): SdrKsiEntry => {
    const given = statements.byId.get(k.id);
    const tests = testsOf(k.tally);
    const metrics = input.metrics?.get(k.id);
    ksis.push({
      id: k.id,
      name: names.get(k.id) ?? k.id,
      ...(k.status === undefined ? {} : { status: k.status }),
      source: given?.implementation.length ? 'provider' : 'svc',
      methods: k.methods,
      ...(k.methodsRequired === undefined ? {} : { methodsRequired: k.methodsRequired.min }),
      evidence: k.tally.indices.length,
      tests,
    });
    return {
      ksiId: k.id,
      ...(k.status === undefined ? {} : { ksiImplementationStatus: k.status }),
      ksiImplementation: given?.implementation.length ? withWord(given) : [markdownLiteral(generatedImplementation(k.tally))],
      ksiValidation: [...(given?.validation ?? []), markdownLiteral(validationLine(k, input.cadence, metrics, input.history?.get(k.id)))],
      ksiAssessment: [],
      ksiTests: tests,
      ksiEvidence: lazyArray(() => evidenceOf(input, k.tally)),
    };
  });

  const controls = input.controls === undefined ? undefined : securityControls(input.controls, facts.controls, statements);
  const document: SdrDocument = {
    certificationPackageOverviewUri: input.profile.package_uri,
    metadata: input.metadata,
    fedRampRequirements,
    ...(input.profile.type === '20x' ? { keySecurityIndicators } : {}),
    ...(input.metrics === undefined ? {} : { ksiMetrics: Object.fromEntries([...input.metrics].sort(([a], [b]) => (a < b ? -1 : 1))) }),
    ...(controls === undefined ? {} : { securityControls: controls.entries }),
  };
  return { document, requirements, ksis, ...(controls === undefined ? {} : { controls: controls.summary }), input };
}

function frrValidation(paragraphs: string[]): { frrValidation?: string[] } {
  return paragraphs.length === 0 ? {} : { frrValidation: paragraphs };
}

/** The provider's paragraphs, and the word the schema has no value for, kept (DESIGN §12.3: "Planned" written as Not Implemented). */
function withWord(s: ProviderStatement): string[] {
  const word = s.status?.written;
  const mapped = s.status?.value;
  const kept = word !== undefined && word.toLowerCase() !== (mapped ?? '').toLowerCase() ? [markdownLiteral(`Provider's status: ${word}.`)] : [];
  return [...s.implementation, ...kept];
}

function generatedImplementation(t: KsiTally): string {
  if (t.indices.length === 0) return 'Generated by svc (no provider statement): no result of the run reaches this KSI yet.';
  const via = (v: string) => t.via.filter((x) => x === v).length;
  const ways = [
    via('id') > 0 ? `${via('id')} keyed by its id` : '',
    via('alias') > 0 ? `${via('alias')} by an earlier FedRAMP id` : '',
    via('controls') > 0 ? `${via('controls')} through shared NIST SP 800-53 controls` : '',
  ].filter((w) => w !== '');
  const tools = [...t.tools].sort();
  return `Generated by svc (no provider statement): ${t.indices.length} results from ${tools.join(', ')} reach this KSI (${ways.join(', ')}): ${t.pass} pass, ${t.fail} fail, ${t.other} other.`;
}

function validationLine(
  k: { methods: number; methodsRequired?: { min: number; force?: string } },
  cadence: EvidenceCadence | undefined,
  metrics: SdrKsiMetrics | undefined,
  history: HistoryCheck | undefined,
): string {
  const parts = [
    `svc validates this KSI with ${k.methods} automated methods (tool and check pairs) on every recorded run${k.methodsRequired === undefined ? '' : `; ${METHODS_RULE} asks at least ${k.methodsRequired.min} (${k.methodsRequired.force ?? 'no force given'})`}`,
  ];
  if (cadence !== undefined) parts.push(`machine-based evidence every ${cadenceText(cadence.every)} (${cadence.rule}, ${cadence.force})`);
  if (metrics !== undefined) {
    const m = metrics.last30Days;
    parts.push(`last 30 days: ${m.implemented} implemented, ${m.partially} partially, ${m.notImplemented} not implemented, ${m.noEvidence} without evidence`);
  }
  if (history?.since !== undefined) parts.push(`history recorded since ${history.since}`);
  return `${parts.join('; ')}.`;
}

function* evidenceOf(input: SdrInput, t: KsiTally): Generator<SdrEvidence> {
  const base = input.profile.evidence_base_uri.replace(/\/+$/, '');
  for (const index of t.indices) {
    const e = input.facts.evidence(index);
    yield {
      evidenceType: e.type,
      // The result's id as a CR26 document names it: a catalog KSI as its NIST control (cr26NameOf).
      evidenceDescription: `${e.tool} result for ${input.facts.tally.nameOf(e.ksi_id)}: ${e.status}`,
      evidenceLocation: `${base}/evidence/${e.hash}`,
      ...(e.date === undefined ? {} : { lastUpdated: e.date }),
    };
  }
}

/** `ac-2.1` as FedRAMP writes control ids: `AC-02 (01)`. */
export function fedrampControlId(control: string): string {
  const m = /^([a-z]{2})-(\d+)(?:\.(\d+))?$/.exec(control);
  if (!m) return control.toUpperCase();
  return `${m[1].toUpperCase()}-${m[2].padStart(2, '0')}${m[3] === undefined ? '' : ` (${m[3].padStart(2, '0')})`}`;
}

function securityControls(list: readonly string[], counts: ReadonlyMap<string, ControlCounts>, statements: ProviderStatements) {
  const summary: { id: string; status?: SdrStatus; source: StatementSource }[] = [];
  const entries = list.map((control): SdrControlEntry => {
    const given = statements.byControl.get(control);
    const c = counts.get(control);
    const fromResults = c === undefined ? undefined : tallyStatus(c);
    const status = given?.status !== undefined ? (given.status.value ?? undefined) : fromResults;
    const source: StatementSource = given?.implementation.length ? 'provider' : c !== undefined ? 'svc' : 'none';
    const id = fedrampControlId(control);
    summary.push({ id, ...(status === undefined ? {} : { status }), source });
    const description =
      source === 'provider'
        ? withWord(given!).join('\n\n')
        : markdownLiteral(
            c !== undefined
              ? `Generated by svc (no provider statement): ${c.pass + c.fail + c.other} results of the run name this control: ${c.pass} pass, ${c.fail} fail, ${c.other} other.`
              : 'No statement supplied and no result of the run names this control.',
          );
    return { controlId: id, ...(status === undefined ? {} : { controlImplementationStatus: status }), controlImplementationDescription: description };
  });
  return { entries, summary };
}

/** How many rows of evidence and tests the twin shows per KSI; the JSON lists them all. */
export const TWIN_ROWS = 20;

/** The SDR's Markdown twin, from the same model. */
export function sdrMarkdown(
  model: SdrModel,
  header: Omit<TwinHeader, 'title'>,
  run: { asOf: string; results: number; input: { name: string; sha256: string } },
): string {
  const { input, requirements, ksis } = model;
  const { found } = input;
  const count = (s: StatementSource) => requirements.filter((r) => r.source === s).length;
  const ksiCount = (s: Cr26KsiStatus | undefined) => ksis.filter((k) => k.status === s).length;
  const lines = [
    ...twinHeader({ title: 'Security Decision Record', ...header }),
    '## Summary',
    '',
    `- Profile: ${input.profile.type} Class ${input.profile.class}, ${found.profile.path} path, ${found.profile.status}`,
    `- Run: as of ${run.asOf}, ${run.results} results, from ${markdownText(run.input.name)} (sha256:${run.input.sha256})`,
    `- FedRAMP rules: ${requirements.length} applicable; ${count('provider')} with the provider's statement, ${count('svc')} with svc's, ${count('none')} with no statement supplied`,
    ...(input.profile.type === '20x'
      ? [
          `- KSIs: ${ksis.length} applicable; ${ksiCount('Implemented')} Implemented, ${ksiCount('Partially Implemented')} Partially Implemented, ${ksiCount('Not Implemented')} Not Implemented, ${ksiCount(undefined)} without evidence`,
        ]
      : []),
    ...(model.controls === undefined
      ? []
      : [`- Rev5 controls: ${model.controls.length}; ${model.controls.filter((c) => c.status !== undefined).length} with a status`]),
    '',
    '## FedRAMP rules',
    '',
    '| Rule | Name | Force | Status | Statement |',
    '|---|---|---|---|---|',
    ...found.rules.map((a, i) => {
      const r = requirements[i];
      return `| ${a.rule.id} | ${markdownText(a.rule.name)} | ${a.force ?? ''} | ${r.status ?? ''} | ${SOURCE_WORDS[r.source]} |`;
    }),
    '',
  ];
  for (const entry of model.document.fedRampRequirements) {
    if (requirements.find((r) => r.id === entry.frrID)?.source === 'none') continue;
    lines.push(`### ${entry.frrID}`, '', ...entry.frrImplementation.flatMap((p) => [...quotedMarkdown(p), '']));
    if (entry.frrValidation !== undefined) lines.push('Validation:', '', ...entry.frrValidation.flatMap((p) => [...quotedMarkdown(p), '']));
  }
  if (input.profile.type === '20x') {
    lines.push('## Key Security Indicators', '');
    (model.document.keySecurityIndicators ?? []).forEach((d, i) => {
      const k = ksis[i];
      lines.push(`### ${k.id}: ${markdownText(k.name)}`, '');
      lines.push(`- Status: ${k.status ?? 'no evidence'}`);
      lines.push(`- Automated methods: ${k.methods}${k.methodsRequired === undefined ? '' : ` (${METHODS_RULE}: at least ${k.methodsRequired})`}`);
      lines.push(
        `- Tests: ${
          k.tests.length === 0
            ? 'none'
            : shown(
                k.tests.map((t) => `\`${printableText(t.replace(/\s+/g, ' ').trim()).replace(/`/g, "'")}\``),
                k.tests.length,
              )
        }`,
      );
      lines.push(`- Evidence entries: ${k.evidence}`, '');
      lines.push('Implementation:', '', ...d.ksiImplementation.flatMap((p) => [...quotedMarkdown(p), '']));
      lines.push('Validation:', '', ...d.ksiValidation.flatMap((p) => [...quotedMarkdown(p), '']));
      if (k.evidence > 0) {
        lines.push('| Type | Evidence | Location | Updated |', '|---|---|---|---|');
        let n = 0;
        for (const e of d.ksiEvidence) {
          if (n++ === TWIN_ROWS) break;
          lines.push(`| ${e.evidenceType} | ${markdownText(e.evidenceDescription)} | ${markdownText(e.evidenceLocation)} | ${e.lastUpdated ?? ''} |`);
        }
        if (k.evidence > TWIN_ROWS) lines.push('', `${k.evidence - TWIN_ROWS} more evidence entries are listed in the JSON.`);
        lines.push('');
      }
    });
  }
  if (input.metrics !== undefined) {
    lines.push(`## KSI metrics (${METRICS_RULE})`, '', 'Days by status: implemented / partially / not implemented / no evidence.', '');
    lines.push('| KSI | Last 30 days | Last year (days) |', '|---|---|---|');
    const cell = (m: MetricSummary) => `${m.implemented} / ${m.partially} / ${m.notImplemented} / ${m.noEvidence}`;
    for (const [id, m] of [...input.metrics].sort(([a], [b]) => (a < b ? -1 : 1)))
      lines.push(`| ${id} | ${cell(m.last30Days)} | ${cell(m.lastYear)} (${m.lastYear.days}) |`);
    lines.push('');
  }
  if (model.controls !== undefined) {
    lines.push(`## ${citedTitle(input.rules, 'Rev5 controls', ['SDR-CSF-CTF'])}`, '', '| Control | Status | Statement |', '|---|---|---|');
    for (const c of model.controls) lines.push(`| ${c.id} | ${c.status ?? ''} | ${SOURCE_WORDS[c.source]} |`);
    lines.push('');
  }
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

const SOURCE_WORDS: Record<StatementSource, string> = { provider: "provider's", svc: "svc's", none: 'none supplied' };

function shown(items: string[], total: number): string {
  return items.length > TWIN_ROWS ? `${items.slice(0, TWIN_ROWS).join(', ')} and ${total - TWIN_ROWS} more` : items.join(', ');
}
