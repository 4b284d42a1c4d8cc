import type { HashedResult } from '../assessment/assessment';
import type { PoamRow } from '../artifacts/poam';
import { isoDate, type RunContext } from '../artifacts/run-context';
import { DAY_MS } from '../encoding/iso-time';
import type { RunSummary } from '../conmon/run-record';
import { cqlError, type CqlSource, type FieldRef } from './cql-query';

/**
 * How a field compares: `string` case-insensitively (or by meaning when the field has a rank), `number` and
 * `duration` (whole days) numerically, `date` by time or by age against a duration, `list` element by element.
 */
export type CqlFieldType = 'string' | 'number' | 'duration' | 'date' | 'list';

export interface CqlField {
  name: string;
  type: CqlFieldType;
  description: string;
  /** Lower-case value → weight, for fields ordered by meaning (Critical above High, FAIL above WARN). */
  rank?: Readonly<Record<string, number>>;
}

export type CqlValue = string | number | readonly string[] | undefined;
export type CqlRow = Readonly<Record<string, CqlValue>>;

/** The fields of one source, the aliases accepted for them, and the columns shown without SELECT. */
export interface CqlFieldSet {
  fields: readonly CqlField[];
  aliases: Readonly<Record<string, string>>;
  defaults: readonly string[];
}

const SEVERITY_RANK = { critical: 4, high: 3, medium: 2, moderate: 2, low: 1 };
const STATUS_RANK = { fail: 3, warn: 2, pass: 1 };

const f = (name: string, type: CqlFieldType, description: string, rank?: Readonly<Record<string, number>>): CqlField => ({
  name,
  type,
  description,
  ...(rank ? { rank } : {}),
});

const KSI_ID = f('ksi_id', 'string', 'KSI id as reported (KSI-IA-02, KSI-IAM-01)');
const STATUS = f('status', 'string', 'PASS, WARN or FAIL', STATUS_RANK);
const AREA = f('area', 'string', 'middle part of the ksi_id: IA for KSI-IA-02, IAM for KSI-IAM-01');
const FAMILY = f('family', 'string', 'catalog family of the KSI (IA, AC, …), UNMAPPED when the catalog does not know it');
const SEVERITY = f('severity', 'string', 'governance severity: Critical, High, Medium, Low', SEVERITY_RANK);
const OWNER = f('owner', 'string', 'mailbox that owns the action');
const SLA = f('sla', 'duration', 'days allowed to remediate');
const CONTROLS = f('controls', 'list', 'NIST SP 800-53 controls of the KSI (ac-2, ac-2.1, …)');
const OBSERVED_AT = f('observed_at', 'date', 'when the scanner observed the result');
const AGE = (of: string) => f('age', 'duration', `whole days from ${of} to now`);
const SOURCE = f('source', 'string', 'tool that produced the result');
const INPUT = f('input', 'string', 'file name of the run the row comes from');

/** Every source's fields (DESIGN's artifact field names), as docs/cql.md lists them. */
export const CQL_FIELDS: Readonly<Record<CqlSource, CqlFieldSet>> = {
  results: {
    fields: [
      KSI_ID,
      f('title', 'string', 'title of the result, else of the KSI'),
      STATUS,
      AREA,
      FAMILY,
      SEVERITY,
      f('action', 'string', 'REMEDIATE or MONITOR'),
      OWNER,
      SLA,
      CONTROLS,
      OBSERVED_AT,
      AGE('observed_at (else the report time)'),
      SOURCE,
      f('details', 'string', 'what the scanner said'),
      f('content_hash', 'string', 'hex SHA-256 of the evidence entry'),
      INPUT,
    ],
    aliases: { sev: 'severity' },
    defaults: ['ksi_id', 'status', 'area', 'family', 'severity', 'owner'],
  },
  evidence: {
    fields: [
      KSI_ID,
      f('content_hash', 'string', 'hex SHA-256 of the evidence entry'),
      OBSERVED_AT,
      AGE('observed_at (else the report time)'),
      SOURCE,
      CONTROLS,
      STATUS,
      AREA,
      FAMILY,
      INPUT,
    ],
    aliases: {},
    defaults: ['ksi_id', 'content_hash', 'observed_at', 'source'],
  },
  actions: {
    fields: [KSI_ID, f('action', 'string', 'REMEDIATE or MONITOR'), SEVERITY, OWNER, SLA, STATUS, AREA, FAMILY, CONTROLS, INPUT],
    aliases: { sev: 'severity' },
    defaults: ['ksi_id', 'action', 'severity', 'owner', 'sla'],
  },
  poam: {
    fields: [
      f('poam_id', 'string', 'POAM-<ksi_id>'),
      KSI_ID,
      f('status', 'string', 'Open or Closed', { open: 2, closed: 1 }),
      f('risk_rating', 'string', 'Critical, High, Moderate, Low', SEVERITY_RANK),
      f('point_of_contact', 'string', 'owner of the remediation'),
      CONTROLS,
      f('weakness_name', 'string', '<ksi_id> <title>'),
      f('original_detection_date', 'date', 'day the weakness was first seen'),
      f('scheduled_completion_date', 'date', 'day it is due'),
      f('completion_date', 'date', 'day it was closed'),
      f('overdue', 'string', 'true when open past scheduled_completion_date at now'),
      AGE('original_detection_date'),
      AREA,
      FAMILY,
      INPUT,
    ],
    aliases: { severity: 'risk_rating', sev: 'risk_rating', owner: 'point_of_contact' },
    defaults: ['poam_id', 'status', 'risk_rating', 'point_of_contact', 'scheduled_completion_date', 'overdue'],
  },
  runs: {
    fields: [
      f('seq', 'number', '1, 2, …: the order runs were recorded in'),
      f('id', 'string', 'hex SHA-256 of the run record'),
      f('recorded_at', 'date', 'when the run was recorded'),
      f('as_of', 'date', "the time the run speaks for (the report's generated_at)"),
      AGE('as_of'),
      INPUT,
      f('tool', 'string', 'scanner of the report'),
      f('tenant', 'string', 'tenant the report covers'),
      f('merkle_root', 'string', 'hex Merkle root of the evidence entries'),
      ...(['results', 'pass', 'warn', 'fail', 'mapped', 'unmapped'] as const).map((n) =>
        f(n, 'number', `count of ${n === 'results' ? 'results' : `${n} results`}`),
      ),
      f('poam_open', 'number', 'open POA&M items after the run'),
      f('poam_overdue', 'number', 'overdue POA&M items after the run'),
      f('poam_closed', 'number', 'closed POA&M items after the run'),
      f('drift', 'number', 'drift findings against the run before'),
    ],
    aliases: {},
    defaults: ['seq', 'as_of', 'input', 'pass', 'warn', 'fail', 'poam_open', 'poam_overdue'],
  },
};

/** The field `ref` names in `source`; an unknown name is a `cql-invalid` error listing the valid ones. */
export function resolveField(source: CqlSource, ref: FieldRef, text: string): CqlField {
  const set = CQL_FIELDS[source];
  const name = ref.name.toLowerCase();
  const field = set.fields.find((x) => x.name === (set.aliases[name] ?? name));
  if (!field)
    throw cqlError('cql-invalid', text, ref.at, `unknown field '${ref.name}' of ${source}; expected one of ${set.fields.map((x) => x.name).join(', ')}`);
  return field;
}

/** A POA&M item as the rows show it: a row of the run's poam.json (Open), or a tracked item of the run store. */
export type CqlPoamItem = Omit<PoamRow, 'status'> & { status: 'Open' | 'Closed'; completion_date?: string };

/** One run's assessed results and POA&M items, as the rows of results, evidence, actions and poam are made from. */
export interface CqlRun {
  /** File name of the run's input. */
  input: string;
  context: RunContext;
  results: readonly HashedResult[];
  poam: readonly CqlPoamItem[];
}

/** Whole days from an ISO-8601 time to now (negative for the future); undefined without a time. */
export function ageInDays(time: string | undefined, now: Date): number | undefined {
  if (time === undefined) return undefined;
  const at = Date.parse(time);
  return Number.isNaN(at) ? undefined : Math.floor((now.getTime() - at) / DAY_MS);
}

/** The rows of `source` for one run, in ksi_id (poam_id) order. */
export function cqlRows(source: Exclude<CqlSource, 'runs'>, run: CqlRun, now: Date): CqlRow[] {
  if (source === 'poam') {
    const families = new Map(run.results.map(({ item }) => [item.result.ksi_id, item.definition?.family ?? 'UNMAPPED']));
    const today = isoDate(now);
    return run.poam.map((p) => ({
      poam_id: p.poam_id,
      ksi_id: p.ksi_id,
      status: p.status,
      risk_rating: p.risk_rating,
      point_of_contact: p.point_of_contact,
      controls: p.controls,
      weakness_name: p.weakness_name,
      original_detection_date: p.original_detection_date,
      scheduled_completion_date: p.scheduled_completion_date,
      completion_date: p.completion_date,
      overdue: String(p.status === 'Open' && p.scheduled_completion_date < today),
      age: ageInDays(p.original_detection_date, now),
      area: areaOf(p.ksi_id),
      family: families.get(p.ksi_id) ?? 'UNMAPPED',
      input: run.input,
    }));
  }
  return run.results.map(({ item: { result, definition, action }, hash }) => {
    const common = {
      ksi_id: result.ksi_id,
      status: result.status,
      area: areaOf(result.ksi_id),
      family: definition?.family ?? 'UNMAPPED',
      controls: definition?.controls ?? [],
      input: run.input,
    };
    const seen = {
      observed_at: result.observed_at,
      age: ageInDays(result.observed_at ?? run.context.generatedAt ?? run.context.runAt.toISOString(), now),
      source: result.source,
    };
    const governance = { action: action.action, severity: action.severity, owner: action.owner, sla: action.sla_days };
    if (source === 'evidence') return { ...common, ...seen, content_hash: hash };
    if (source === 'actions') return { ...common, ...governance };
    return { ...common, ...seen, ...governance, title: result.title ?? definition?.title, details: result.details, content_hash: hash };
  });
}

/** The rows of `runs`: one per recorded run, in seq order. */
export function runRows(summaries: readonly RunSummary[], now: Date): CqlRow[] {
  return summaries.map((s) => ({
    seq: s.seq,
    id: s.id,
    recorded_at: s.recorded_at,
    as_of: s.as_of,
    age: ageInDays(s.as_of, now),
    input: s.input.name,
    tool: s.source?.tool,
    tenant: s.source?.tenant,
    merkle_root: s.merkle_root,
    ...s.counts,
    poam_open: s.poam.open,
    poam_overdue: s.poam.overdue,
    poam_closed: s.poam.closed,
    drift: Object.values(s.drift).reduce((sum, n) => sum + n, 0),
  }));
}

/** `IAM` of `KSI-IAM-01`, `IA` of `KSI-IA-02`: the id's middle part, whatever catalog it comes from. */
export function areaOf(ksiId: string): string {
  const parts = ksiId.split('-');
  return parts.length >= 3 ? parts.slice(1, -1).join('-') : '';
}
