import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { InvalidInputError } from '../../../domain/errors';
import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import { parseJson } from '../../../domain/encoding/json-syntax-problem';
import table from '../data/defender-controls.json';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'Microsoft Defender for Cloud';
const SECURITY_CONTROLS = new Map(Object.entries(table.securityControls as Record<string, string[]>).map(([name, controls]) => [name.toLowerCase(), controls]));
const KEYWORDS = table.recommendationKeywords.map(({ pattern, controls }) => ({ pattern: new RegExp(pattern, 'i'), controls }));

/** Assessment status codes, compared without case or spaces (`NotApplicable`, `Not applicable`). */
const STATES: Record<string, CheckOutcome> = { healthy: 'pass', unhealthy: 'fail', notapplicable: 'not-applicable' };

interface Recommendation {
  id: string;
  state: string;
  severity?: string;
  title?: string;
  resource?: string;
  subscription?: string;
  details?: string;
  controls: string[];
  /** When the assessment last changed status: for an unhealthy one, when it became unhealthy. */
  statusChanged?: string;
}

/**
 * Microsoft Defender for Cloud recommendations (assessments): the portal's "Download CSV report" of the
 * recommendations blade, or the JSON of `microsoft.security/assessments` as the REST list (`{"value": [...]}`,
 * also in the REST API's documented example wrapper), `az security assessment list` or Resource Graph rows
 * (`securityresources`, bare or under `data`). Recommendations carry no NIST references: controls come from
 * svc's table of Defender security controls and recommendation names (`data/defender-controls.json`).
 */
export const defender: VendorParser = {
  info: {
    vendor: 'defender',
    tool: TOOL,
    formats: 'recommendations CSV export, or microsoft.security/assessments JSON (REST, az security assessment list, Resource Graph)',
    mapping: 'Defender security control / recommendation name table (data/defender-controls.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) => {
    const header = head.slice(0, head.search(/\r?\n|$/));
    if (/(^|,)"?recommendationName"?(,|$)/.test(header) && /(^|,)"?state"?(,|$)/.test(header)) return true;
    return /^\s*[[{]/.test(head) && /microsoft\.security\/assessments/i.test(head) && /"status"\s*:\s*\{/.test(head);
  },

  async parse(input: RawInput): Promise<ParsedScan> {
    const text = await input.text();
    const json = /^\s*[[{]/.test(text);
    const { recommendations, observedAt } = json ? fromJson(input, parseJson(text, input.path)) : fromCsv(input, text);
    const subscriptions = new Set<string>();
    const checks = recommendations.map((r) => {
      const subscription = r.subscription ?? /^\/subscriptions\/([^/]+)/i.exec(r.resource ?? '')?.[1];
      if (subscription) subscriptions.add(subscription);
      return recommendationCheck(r);
    });
    return {
      vendor: 'defender',
      tool: TOOL,
      ...(subscriptions.size > 0 ? { tenant: [...subscriptions].join(', ') } : {}),
      ...(observedAt ? { observed_at: observedAt } : {}),
      mapping: defender.info.mapping,
      checks,
    };
  },
};

/** The CSV export: one row per recommendation and resource; `exportedTimestamp` is the time of the export. */
function fromCsv(input: RawInput, text: string): { recommendations: Recommendation[]; observedAt?: string } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(text, { bom: true, skip_empty_lines: true, info: true }) as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new InvalidInputError('invalid-csv', `${input.path}: invalid CSV: ${error.message}; the file is damaged or cut short, export it again`, {
      cause: error,
    });
  }
  const header = records[0]?.record ?? [];
  if (!header.includes('recommendationName') || !header.includes('state')) {
    throw shapeError(input, TOOL, 'line 1', 'no recommendationName and state columns; expected the recommendations blade "Download CSV report" export');
  }
  let latest: string | undefined;
  const recommendations = records.slice(1).map(({ record, info }): Recommendation => {
    const row = Object.fromEntries(header.map((name, i) => [name, record[i] ?? '']));
    const assessment = row.recommendationId ?? '';
    const id = row.recommendationName || assessment.slice(assessment.lastIndexOf('/') + 1);
    if (!id) throw shapeError(input, TOOL, `line ${info.lines}.recommendationName`, 'empty');
    const exported = isoTime(row.exportedTimestamp);
    if (exported && (latest === undefined || Date.parse(exported) > Date.parse(latest))) latest = exported;
    const notApplicable = normalizedState(row.state) === 'notapplicable';
    return {
      id,
      state: checkState(input, row.state, `line ${info.lines}.state`),
      severity: row.severity || undefined,
      title: row.recommendationDisplayName || undefined,
      resource: row.resourceId || row.resourceName || undefined,
      subscription: row.subscriptionId || undefined,
      details: (notApplicable && row.notApplicableReason) || row.description || undefined,
      controls: securityControls(row.controls) ?? nameControls(row.recommendationDisplayName ?? ''),
      statusChanged: isoTime(row.statusChangeDate),
    };
  });
  return { recommendations, observedAt: latest };
}

/**
 * Assessment JSON has no export or evaluation time, so the scan gets no observed_at; `status.statusChangeDate`
 * (API 2021-06-01 and later) dates each unhealthy state.
 */
function fromJson(input: RawInput, document: unknown): { recommendations: Recommendation[]; observedAt?: string } {
  const { rows, at: where } = assessmentsOf(input, document);
  const recommendations = rows.map((row, i): Recommendation => {
    const at = where(i);
    const properties = isPlainObject(row) && isPlainObject(row.properties) ? row.properties : undefined;
    const status = properties && isPlainObject(properties.status) ? properties.status : undefined;
    if (!isPlainObject(row) || !properties || !status || typeof status.code !== 'string')
      throw shapeError(input, TOOL, `${at}.properties.status.code`, 'missing; an assessment has properties.status.code');
    const rowId = typeof row.id === 'string' ? row.id : '';
    const id = typeof row.name === 'string' && row.name !== '' ? row.name : rowId.slice(rowId.lastIndexOf('/') + 1);
    if (!id) throw shapeError(input, TOOL, `${at}.name`, 'missing (the assessment key)');
    const metadata = isPlainObject(properties.metadata) ? properties.metadata : {};
    const details = isPlainObject(properties.resourceDetails) ? properties.resourceDetails : {};
    // Resource Graph writes `Id`, the REST API `id`; without either, the assessment id names its resource.
    const resource = [details.Id, details.id, details.ResourceId, rowId.replace(/\/providers\/Microsoft\.Security\/assessments\/[^/]+$/i, '')].find(
      (x): x is string => typeof x === 'string' && x !== '',
    );
    const title = [properties.displayName, metadata.displayName].find((x): x is string => typeof x === 'string' && x !== '');
    return {
      id,
      state: checkState(input, status.code, `${at}.properties.status.code`),
      severity: typeof metadata.severity === 'string' ? metadata.severity : undefined,
      title,
      resource,
      subscription: typeof row.subscriptionId === 'string' && row.subscriptionId !== '' ? row.subscriptionId : undefined,
      details: [status.description, status.cause, metadata.description].find((x): x is string => typeof x === 'string' && x !== ''),
      controls: nameControls(title ?? ''),
      statusChanged: isoTime(status.statusChangeDate),
    };
  });
  return { recommendations };
}

/** The assessments of a document, with where each one sits in it (for shape errors). */
function assessmentsOf(input: RawInput, document: unknown): { rows: unknown[]; at: (i: number) => string } {
  const list = (rows: unknown[], path: string) => ({ rows, at: (i: number) => `${path}[${i}]` });
  if (Array.isArray(document)) return list(document, '');
  if (isPlainObject(document)) {
    if (Array.isArray(document.value)) return list(document.value, 'value');
    if (Array.isArray(document.data)) return list(document.data, 'data');
    const response = isPlainObject(document.responses) ? document.responses['200'] : undefined;
    const body = isPlainObject(response) ? response.body : undefined;
    if (isPlainObject(body) && Array.isArray(body.value)) return list(body.value, 'responses.200.body.value');
    // A single assessment (GET .../assessments/{key}), bare or in the documented example wrapper.
    const single = isPlainObject(body) ? { row: body, path: 'responses.200.body' } : { row: document, path: '$' };
    if (isPlainObject(single.row.properties) && single.row.properties.status !== undefined) return { rows: [single.row], at: () => single.path };
  }
  throw shapeError(input, TOOL, 'value', 'missing; expected assessments as {"value": [...]}, an array, or Resource Graph rows');
}

function recommendationCheck(r: Recommendation): ScanCheck {
  const outcome = STATES[normalizedState(r.state)]; // checkState vouched for it
  return {
    id: r.id,
    outcome,
    criticality: criticalityOf(r.severity),
    controls: r.controls,
    ...(r.title ? { title: r.title } : {}),
    ...(r.severity ? { severity: r.severity } : {}),
    ...(r.resource ? { resource: r.resource } : {}),
    ...(r.details ? { details: clip(r.details) } : {}),
    ...(outcome === 'fail' && r.statusChanged ? { weakness: { detected_at: r.statusChanged } } : {}),
  };
}

function checkState(input: RawInput, state: string, at: string): string {
  if (!entry(STATES, normalizedState(state)))
    throw shapeError(input, TOOL, at, `"${state.slice(0, 40)}" is not an assessment status (Healthy, Unhealthy, NotApplicable)`);
  return state;
}

function normalizedState(state: string): string {
  return state.replace(/\s+/g, '').toLowerCase();
}

/**
 * High (and the Critical of newer risk levels) are must; Medium and Low should. A recommendation without a
 * severity (the REST list omits metadata unless expanded) still failed: it is a should, not dropped.
 */
function criticalityOf(severity: string | undefined): Criticality {
  const label = severity?.toLowerCase();
  return label === 'high' || label === 'critical' ? 'must' : 'should';
}

/** The CSV `controls` column: JSON text `{"<security control name>": "<id>"}`. Undefined when none is in the table. */
function securityControls(text: string | undefined): string[] | undefined {
  if (!text) return undefined;
  let names: string[];
  try {
    const parsed: unknown = JSON.parse(text);
    names = isPlainObject(parsed) ? Object.keys(parsed) : [text];
  } catch {
    names = [text];
  }
  const controls = new Set(names.flatMap((name) => SECURITY_CONTROLS.get(name.trim().toLowerCase()) ?? []));
  return controls.size > 0 ? [...controls] : undefined;
}

function nameControls(name: string): string[] {
  const controls = new Set(KEYWORDS.filter(({ pattern }) => pattern.test(name)).flatMap(({ controls }) => controls));
  return controls.size > 0 ? [...controls] : table.default;
}
