import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { CONMON_EVENT_SCHEMA, type ConmonEvent } from '../../src/domain/conmon/conmon-event';
import { RUN_RECORD_SCHEMA, type RunRecord, type RunSummary, type StoredRun, type TrackedPoamItem } from '../../src/domain/conmon/run-record';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A run's id as the port defines it, computed independently of the adapters' own helper. */
export function runIdOf(record: RunRecord): string {
  return sha(canonicalize(record) as string);
}

/** The record of the n-th ScubaGear run of a tenant: generated a day apart. */
export function recordFor(n: number): RunRecord {
  const generatedAt = new Date(Date.UTC(2026, 10, 1 + n, 14, 3, 12)).toISOString();
  return {
    schema: RUN_RECORD_SCHEMA,
    report: { generated_at: generatedAt, source: { tool: 'ScubaGear', version: '1.5.0', tenant: 'contoso.onmicrosoft.com' } },
  };
}

/** The canonical evidence bundle of the n-th run (MFA failing on odd runs), as a run stores it beside its record. */
export function bundleTextFor(n: number): string {
  const generatedAt = recordFor(n).report?.generated_at;
  const entries = [
    { content_hash: `sha256:${sha(`KSI-IA-02 ${n}`)}`, ksi_id: 'KSI-IA-02', observed_at: generatedAt, status: n % 2 === 1 ? 'FAIL' : 'PASS' },
    { content_hash: `sha256:${sha(`KSI-SC-08 ${n}`)}`, evidence: { min_tls: '1.2' }, ksi_id: 'KSI-SC-08', status: 'PASS' },
  ];
  return canonicalize({
    schema: 'svc.evidence-bundle/v1',
    entries,
    input: { name: `scubagear-${n}.json`, sha256: `sha256:${sha(`input ${n}`)}` },
    merkle_root: `sha256:${sha(entries.map((e) => e.content_hash).join(''))}`,
  }) as string;
}

/** The id of a run whose record is `record` and whose evidence bundle document is `bundleText`: the port's rule, computed here on its own. */
export function runIdWithBundle(record: RunRecord, bundleText: string): string {
  const full = canonicalize({ ...record, bundle: JSON.parse(bundleText) as unknown }) as string;
  return sha(full);
}

export interface StoredRunOverrides {
  /** Defaults to recordFor(seq); `id` must be runIdOf of whichever record it is. */
  record?: RunRecord;
  summary?: Partial<RunSummary>;
  poam?: TrackedPoamItem[];
  events?: ConmonEvent[];
}

/** A complete StoredRun for run `id` at `seq`: summary, one open and one closed POA&M item, and its events. */
export function storedRunFor(id: string, seq: number, overrides: StoredRunOverrides = {}): StoredRun {
  const record = overrides.record ?? recordFor(seq);
  const asOf = record.report?.generated_at ?? '2026-11-01T00:00:00.000Z';
  const input = { name: `scubagear-${seq}.json`, sha256: sha(`input ${canonicalize(record) as string}`) };
  const summary: RunSummary = {
    seq,
    id,
    recorded_at: new Date(Date.parse(asOf) + 60_000).toISOString(),
    as_of: asOf,
    input,
    source: record.report?.source,
    merkle_root: sha(`merkle ${canonicalize(record) as string}`),
    counts: { results: 2, pass: 1, warn: 0, fail: 1, mapped: 2, unmapped: 0 },
    areas: { IA: { pass: 0, warn: 0, fail: 1 }, SC: { pass: 1, warn: 0, fail: 0 } },
    poam: { open: 1, overdue: 0, closed: 1, opened: seq === 1 ? 2 : 0, closed_now: 0 },
    drift: { 'DRIFT-IDENTITY': seq === 1 ? 0 : 1, 'DRIFT-AUTHZ': 0, 'DRIFT-SEMANTIC': 0, 'DRIFT-PROVENANCE': 0, 'DRIFT-SCHEMA': 0 },
    ...overrides.summary,
  };
  return { summary, record, poam: overrides.poam ?? poamFor(id, asOf), events: overrides.events ?? eventsFor(summary) };
}

function poamFor(runId: string, asOf: string): TrackedPoamItem[] {
  const day = asOf.slice(0, 10);
  const item = (ksiId: string, n: number): Omit<TrackedPoamItem, 'status' | 'status_date' | 'last_status'> => ({
    poam_id: `POAM-${String(n).padStart(4, '0')}`,
    ksi_id: ksiId,
    controls: ksiId === 'KSI-IA-02' ? ['ia-2', 'ia-2.1'] : ['sc-8'],
    weakness_name: `${ksiId} not satisfied`,
    weakness_description: `The assessment reported ${ksiId} as FAIL.`,
    weakness_source: 'ScubaGear 1.5.0',
    asset_identifier: 'contoso.onmicrosoft.com',
    point_of_contact: 'ISSO',
    original_detection_date: '2026-11-02',
    scheduled_completion_date: '2026-12-02',
    risk_rating: 'High',
    remediation_plan: 'Enforce phishing-resistant MFA for all users.',
    milestones: [{ description: 'Conditional access policy in report-only mode', due: '2026-11-16' }],
    overdue: false,
    last_run: runId,
  });
  // The open item has no completion_date at all: stores must not turn an absent field into null.
  return [
    { ...item('KSI-IA-02', 1), status: 'Open', status_date: '2026-11-02', last_status: 'FAIL' },
    { ...item('KSI-SC-08', 2), status: 'Closed', status_date: day, completion_date: day, last_status: 'PASS' },
  ];
}

function eventsFor(summary: RunSummary): ConmonEvent[] {
  const run = { id: summary.id, seq: summary.seq, input: summary.input };
  const event = (kind: ConmonEvent['kind'], subject: string): Pick<ConmonEvent, 'schema' | 'event_id' | 'kind' | 'time' | 'run'> => {
    const h = sha(`${summary.id} ${kind} ${subject}`);
    return {
      schema: CONMON_EVENT_SCHEMA,
      event_id: `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`,
      kind,
      time: summary.as_of,
      run,
    };
  };
  return [
    {
      ...event('run.recorded', summary.id),
      severity: 'info',
      ksi_id: null,
      poam_id: null,
      summary: `Run ${summary.seq} recorded`,
      data: { counts: summary.counts },
    },
    {
      ...event('poam.opened', 'POAM-0001'),
      severity: 'warning',
      ksi_id: 'KSI-IA-02',
      poam_id: 'POAM-0001',
      summary: 'POA&M item POAM-0001 opened for KSI-IA-02',
      data: { risk_rating: 'High', scheduled_completion_date: '2026-12-02', note: null },
    },
  ];
}
