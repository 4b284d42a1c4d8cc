import { normalizeControlId } from '../../../domain/catalog/ksi-catalog';
import { isPlainObject } from '../../../domain/encoding/json-values';
import { expectModel, OSCAL_SCHEMA_FILES, readOscalDocument } from '../../../domain/oscal/oscal-model';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, type Json, list, obj, shapeError, text, type VendorParser } from '../vendor-parser';
import { plural } from '../../../domain/encoding/plural';

const TOOL = 'OSCAL assessment results';
const ROOT = 'assessment-results';
const MAX_DETAILS = 300;
const MAX_TITLE = 200;

/** OSCAL finding target states (`target.status.state`, a closed list in OSCAL 1.0 to 1.2). */
const STATES: Record<string, CheckOutcome> = { satisfied: 'pass', 'not-satisfied': 'fail' };

/**
 * OSCAL risk statuses (`risk.status`): an open risk makes its finding a must; a closed or accepted one does not.
 * Other values (OSCAL lets a document extend the list) leave it to the finding's state.
 */
const RISK_STATUSES: Record<string, Criticality> = {
  open: 'must',
  investigating: 'must',
  remediating: 'must',
  'deviation-requested': 'must',
  'deviation-approved': 'should',
  closed: 'should',
};

/** Characterization facets that say how much a risk matters (FedRAMP's `impact`, `risk`, `severity`), and the values that make it a must. */
const WEIGHT_FACETS = new Set(['impact', 'risk', 'severity']);
const HIGH = new Set(['high', 'very-high', 'very high', 'critical']);

/**
 * NIST SP 800-53 Rev. 5 control families. A target-id outside them (Lula's demo requirement `ID-1`, svc's statement
 * on a KSI outside the catalog) names no control: the check is counted as unmapped rather than given a made-up KSI.
 */
const FAMILIES = new Set(['ac', 'at', 'au', 'ca', 'cm', 'cp', 'ia', 'ir', 'ma', 'mp', 'pe', 'pl', 'pm', 'ps', 'pt', 'ra', 'sa', 'sc', 'si', 'sr']);

/** `ac-6.1_obj`, `ac-2_smt.a`, `ac-2_obj.a-1`: a control's statement or objective part; Lula names the control itself. */
const PART_SUFFIX = /_(?:obj|smt)(?:[._-].*)?$/i;

/** The one root key of an OSCAL JSON document (a `$schema` member may come first), for any model. */
const OSCAL_ROOT = new RegExp(
  `^\\s*\\{\\s*(?:"\\$schema"\\s*:\\s*"(?:[^"\\\\]|\\\\.)*"\\s*,\\s*)?"(?:${Object.keys(OSCAL_SCHEMA_FILES).join('|')})"\\s*:\\s*\\{`,
);

/**
 * OSCAL assessment results (`assessment-results`, OSCAL 1.0 to 1.2), as Lula, compliance-trestle, FedRAMP assessors'
 * tools and `svc generate sar` write them: one check per `results[].findings[]`, its control from the finding's
 * `target-id`, its outcome from `target.status.state`, how much it matters from the risks it relates to, and its
 * evidence from the observations it relates to. Lula appends each run to the same file as a new result: a target a
 * newer result assessed again is read from that result only.
 */
export const oscalAr: VendorParser = {
  info: {
    vendor: 'oscal-ar',
    // Any OSCAL document looks like this vendor's (see looksLike): another vendor given one says it looks like OSCAL.
    tool: 'OSCAL',
    formats: 'OSCAL assessment-results JSON (Lula, compliance-trestle, svc generate sar; not YAML or XML)',
    mapping: 'the control of each finding target-id (objective or statement part dropped)',
    evidence: 'Report',
    detections: 'configuration',
  },

  // Any OSCAL model is taken, so that a catalog or an SSP given here is told which command reads it instead.
  looksLike: (head) => OSCAL_ROOT.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const oscal = readOscalDocument(await input.json(), input.path);
    expectModel(
      oscal,
      ROOT,
      input.path,
      `${oscal.model === 'system-security-plan' ? 'check an SSP with "svc oscal validate-ssp' : 'check it with "svc oscal validate'} ${input.path}"; svc adapter run oscal-ar reads OSCAL assessment results`,
    );
    const document = readDocument(input, oscal.body);
    const observations = byUuid(document.results.flatMap((r) => r.observations));
    const risks = byUuid(document.results.flatMap((r) => r.risks));
    const linked = new Set<string>();
    const checks: ScanCheck[] = [];
    let superseded = 0;
    for (const finding of document.results.flatMap((r) => r.findings)) {
      for (const uuid of finding.observations) linked.add(uuid);
      // Read even when superseded, so a broken link is reported wherever it is.
      const check = findingCheck(input, finding, observations, risks);
      if (finding.time < (document.newest.get(finding.key) ?? -Infinity)) superseded += 1;
      else checks.push(check);
    }
    const unlinked = observations.size - [...linked].filter((uuid) => observations.has(uuid)).length;
    const notes = [
      ...(unlinked > 0 ? [`${unlinked} of ${plural(observations.size, 'observation')} related to no finding (not checks)`] : []),
      ...(superseded > 0 ? [`${plural(superseded, 'finding')} superseded by a newer result on the same target`] : []),
    ];
    const newest = document.results.reduce((t, r) => Math.max(t, r.time), -Infinity);
    return {
      vendor: 'oscal-ar',
      ...toolOf(oscal.body, document.results),
      ...(newest > -Infinity ? { observed_at: isoTime(newest) } : {}),
      mapping: [oscalAr.info.mapping, ...notes].join('; '),
      checks,
    };
  },
};

interface Result {
  body: Json;
  /** When the result ended (else started), epoch ms; -Infinity when it says neither. */
  time: number;
  findings: Finding[];
  observations: { uuid: string; body: Json }[];
  risks: { uuid: string; body: Json }[];
}

interface Finding {
  body: Json;
  targetId: string;
  state: string;
  /** The result's Lula `target` prop and the target-id: what a newer result's finding supersedes. */
  key: string;
  time: number;
  observations: string[];
  observationsAt: string;
  risks: string[];
  risksAt: string;
}

/** The results, each checked for the shape the checks need, and the newest time each finding key was assessed. */
function readDocument(input: RawInput, body: Json): { results: Result[]; newest: Map<string, number> } {
  const at = `${ROOT}.results`;
  if (!Array.isArray(body.results)) throw shapeError(input, TOOL, at, 'missing; an assessment-results document lists its results[], each with its findings[]');
  const newest = new Map<string, number>();
  const results = body.results.map((result, i): Result => {
    const here = `${at}[${i}]`;
    if (!isPlainObject(result)) throw shapeError(input, TOOL, here, 'expected a result object');
    const time = Date.parse(isoTime(result.end) ?? isoTime(result.start) ?? '');
    const read: Result = {
      body: result,
      time: Number.isNaN(time) ? -Infinity : time,
      findings: [],
      observations: identified(input, result.observations, `${here}.observations`),
      risks: identified(input, result.risks, `${here}.risks`),
    };
    const target = props(result).find((p) => p.name === 'target')?.value ?? '';
    read.findings = listAt(input, result.findings, `${here}.findings`).map((finding, j) =>
      readFinding(input, finding, `${here}.findings[${j}]`, target, read.time),
    );
    for (const f of read.findings) newest.set(f.key, Math.max(newest.get(f.key) ?? -Infinity, f.time));
    return read;
  });
  return { results, newest };
}

function readFinding(input: RawInput, finding: unknown, at: string, resultTarget: string, time: number): Finding {
  if (!isPlainObject(finding)) throw shapeError(input, TOOL, at, 'expected a finding object');
  const target = finding.target;
  if (!isPlainObject(target)) throw shapeError(input, TOOL, `${at}.target`, 'missing; a finding names its target (type, target-id, status)');
  const targetId = target['target-id'];
  if (typeof targetId !== 'string' || targetId.trim() === '')
    throw shapeError(
      input,
      TOOL,
      `${at}.target.target-id`,
      'missing; write the control, objective or statement id the finding is about (ac-2, ac-2_obj, ac-2_smt.a)',
    );
  const state = isPlainObject(target.status) ? target.status.state : undefined;
  if (typeof state !== 'string' || !entry(STATES, state)) {
    throw shapeError(
      input,
      TOOL,
      `${at}.target.status.state`,
      `${state === undefined ? 'missing' : `${JSON.stringify(state).slice(0, 40)} is not an OSCAL target state`}; write satisfied or not-satisfied`,
    );
  }
  const observationsAt = `${at}.related-observations`;
  const risksAt = `${at}.related-risks`;
  return {
    body: finding,
    targetId: targetId.trim(),
    state,
    key: `${resultTarget}\u0000${targetId.trim()}`,
    time,
    observations: references(input, finding['related-observations'], observationsAt, 'observation-uuid'),
    observationsAt,
    risks: references(input, finding['related-risks'], risksAt, 'risk-uuid'),
    risksAt,
  };
}

function findingCheck(input: RawInput, finding: Finding, observations: Map<string, Json>, risks: Map<string, Json>): ScanCheck {
  const { body, targetId, state } = finding;
  const seen = finding.observations.map((uuid, i) => resolve(input, observations, uuid, `${finding.observationsAt}[${i}].observation-uuid`, 'observation'));
  const related = finding.risks.map((uuid, i) => resolve(input, risks, uuid, `${finding.risksAt}[${i}].risk-uuid`, 'risk'));
  const weight = riskWeight(related, state);
  const control = controlOf(targetId);
  const title = text(body.title);
  const resource = seen.map(subjectOf).find((s) => s !== undefined);
  const reason = text(obj(obj(body.target).status).reason);
  return {
    id: targetId,
    outcome: STATES[state],
    criticality: weight.criticality,
    controls: control ? [control] : [],
    ...(title ? { title: clip(title, MAX_TITLE) } : {}),
    ...(weight.severity ? { severity: weight.severity } : {}),
    ...(resource ? { resource: clip(resource, MAX_TITLE) } : {}),
    details: evidence(`${state}${reason ? ` (${reason})` : ''}`, seen),
  };
}

/** `ac-6.1_obj` → ac-6.1, `AC-2(1)` → ac-2.1; undefined when the target names no SP 800-53 control. */
function controlOf(targetId: string): string | undefined {
  const control = normalizeControlId(targetId.replace(PART_SUFFIX, ''));
  return control !== undefined && FAMILIES.has(control.slice(0, 2)) ? control : undefined;
}

/**
 * A finding is a should unless a risk it relates to says it matters: a high impact, risk or severity facet, else an
 * open risk status; a risk that says neither makes a not-satisfied finding a must.
 */
function riskWeight(risks: Json[], state: string): { criticality: Criticality; severity?: string } {
  let weight: { criticality: Criticality; severity?: string } = { criticality: 'should' };
  for (const risk of risks) {
    const facets = list(risk.characterizations).flatMap((c) => list(obj(c).facets).map(obj));
    const weighed = facets.filter((f) => typeof f.name === 'string' && WEIGHT_FACETS.has(f.name.toLowerCase()) && text(f.value) !== undefined);
    const status = text(risk.status);
    let next: { criticality: Criticality; severity?: string };
    if (weighed.length > 0) {
      const high = weighed.find((f) => HIGH.has((f.value as string).trim().toLowerCase()));
      const named = high ?? weighed[0];
      next = { criticality: high ? 'must' : 'should', severity: clip(`${named.name as string} ${text(named.value) as string}`, 60) };
    } else if (status !== undefined && entry(RISK_STATUSES, status)) {
      next = { criticality: RISK_STATUSES[status], severity: `risk ${status}` };
    } else {
      next = { criticality: state === 'not-satisfied' ? 'must' : 'should', ...(status ? { severity: `risk ${clip(status, 40)}` } : {}) };
    }
    if (weight.severity === undefined || (next.criticality === 'must' && weight.criticality === 'should')) weight = next;
  }
  return weight;
}

/** What was observed, as short text: the finding's state and reason, then each observation's description, methods, subjects, evidence and time. */
function evidence(head: string, observations: Json[]): string {
  let out = head;
  for (const o of observations) {
    if (out.length > MAX_DETAILS) break;
    const facts = [
      list(o.methods)
        .filter((m): m is string => typeof m === 'string')
        .join(', '),
      list(o.subjects).map(obj).map(subjectText).filter(Boolean).slice(0, 3).join(', '),
      list(o['relevant-evidence'])
        .map((e) => text(obj(e).href))
        .filter(Boolean)
        .slice(0, 3)
        .join(', '),
      isoTime(o.collected) ? `collected ${isoTime(o.collected) as string}` : '',
    ].filter((f) => f !== '');
    const said = clip(text(o.description) ?? text(o.title) ?? 'observation', MAX_DETAILS);
    out += `; ${said}${facts.length > 0 ? ` [${facts.join('; ')}]` : ''}`;
  }
  return clip(out, MAX_DETAILS);
}

/** The first subject an observation names: its title, else its type and uuid. */
function subjectOf(observation: Json): string | undefined {
  return list(observation.subjects)
    .map(obj)
    .map(subjectText)
    .find((s) => s !== '');
}

function subjectText(subject: Json): string {
  return text(subject.title) ?? [text(subject.type), text(subject['subject-uuid'])].filter(Boolean).join(' ');
}

/**
 * The tool that wrote the document: a `tool` prop (svc writes `svc 0.5.0`), Lula (which says so in its remarks and
 * result descriptions), else the party in the assessor role, else the document's title.
 */
function toolOf(body: Json, results: Result[]): { tool: string; version?: string } {
  const metadata = obj(body.metadata);
  const named = [...props(metadata), ...results.flatMap((r) => props(r.body))].find((p) => p.name === 'tool' || p.name === 'tools')?.value;
  if (named !== undefined) {
    const m = /^(.+?)\s+v?(\d+(?:\.\d+)+\S*)$/.exec(named);
    return m ? { tool: clip(m[1], 80), version: m[2] } : { tool: clip(named, 80) };
  }
  const said = [text(metadata.remarks), ...results.flatMap((r) => [text(r.body.title), text(r.body.description)])].filter((t): t is string => t !== undefined);
  if (said.some((t) => /\blula\b/i.test(t))) {
    const version = said.map((t) => /\blula version\s+v?(\d+(?:\.\d+)+\S*)/i.exec(t)?.[1]).find(Boolean);
    return { tool: 'Lula', ...(version ? { version } : {}) };
  }
  const assessor = list(metadata['responsible-parties'])
    .map(obj)
    .find((r) => r['role-id'] === 'assessor');
  const partyUuid = list(assessor?.['party-uuids'])[0];
  const party = list(metadata.parties)
    .map(obj)
    .find((p) => partyUuid !== undefined && p.uuid === partyUuid);
  const name = text(party?.name) ?? text(metadata.title);
  return { tool: name ? clip(name, 80) : TOOL };
}

/** The objects of an optional list, each with its uuid (what findings relate to). */
function identified(input: RawInput, value: unknown, at: string): { uuid: string; body: Json }[] {
  return listAt(input, value, at).map((item, i) => {
    if (!isPlainObject(item) || typeof item.uuid !== 'string' || item.uuid === '')
      throw shapeError(input, TOOL, `${at}[${i}].uuid`, 'missing; findings relate to it by uuid');
    return { uuid: item.uuid, body: item };
  });
}

/** The uuids an optional list of `{<key>: uuid}` names. */
function references(input: RawInput, value: unknown, at: string, key: string): string[] {
  return listAt(input, value, at).map((item, i) => {
    const uuid = isPlainObject(item) ? item[key] : undefined;
    if (typeof uuid !== 'string' || uuid === '') throw shapeError(input, TOOL, `${at}[${i}].${key}`, 'missing');
    return uuid;
  });
}

function resolve(input: RawInput, table: Map<string, Json>, uuid: string, at: string, what: string): Json {
  const found = table.get(uuid);
  if (!found)
    throw shapeError(input, TOOL, at, `"${uuid.slice(0, 40)}" is no ${what} of the document; "svc oscal validate ${input.path}" lists every broken link`);
  return found;
}

function byUuid(items: { uuid: string; body: Json }[]): Map<string, Json> {
  const table = new Map<string, Json>();
  for (const { uuid, body } of items) if (!table.has(uuid)) table.set(uuid, body);
  return table;
}

/** An optional list: absent is empty, anything but an array is the wrong shape. */
function listAt(input: RawInput, value: unknown, at: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw shapeError(input, TOOL, at, 'expected a list');
  return value;
}

function props(owner: Json): { name: string; value: string }[] {
  return list(owner.props)
    .map(obj)
    .filter((p): p is { name: string; value: string } => typeof p.name === 'string' && text(p.value) !== undefined);
}
