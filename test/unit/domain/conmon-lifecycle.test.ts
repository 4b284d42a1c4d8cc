import { assess } from '../../../src/domain/assessment/assessment';
import type { RunContext } from '../../../src/domain/artifacts/run-context';
import { advanceLifecycle, countLifecycle, type LifecycleStep } from '../../../src/domain/conmon/lifecycle';
import { recordStep, type RunToRecord } from '../../../src/domain/conmon/record-run';
import { ongoingAuthorizationMarkdown, ongoingAuthorizationReport } from '../../../src/domain/conmon/ongoing-authorization';
import type { DecidedRun, StoredRun, TrackedPoamItem } from '../../../src/domain/conmon/run-record';
import { evidenceHash } from '../../../src/domain/evidence/evidence-entry';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { aResult } from '../../support/builders';

const catalog = builtInCatalog();
const digest = new PureJsHashing();

function context(day: string): RunContext {
  return {
    input: { name: `run-${day}.json`, sha256: digest.sha256(day) },
    generatedAt: `${day}T06:00:00Z`,
    source: { tool: 'ScubaGear', version: '1.5.0', tenant: 'contoso.example' },
    runAt: new Date(`${day}T06:00:00Z`),
  };
}

function step(previous: readonly TrackedPoamItem[], day: string, results: KsiResult[]): LifecycleStep {
  const { items } = assess(results, catalog, DEFAULT_GOVERNANCE_POLICY);
  return advanceLifecycle(previous, { id: `run-${day}`, asOf: day, context: context(day), items });
}

const item = (s: LifecycleStep, id: string) => s.items.find((i) => i.ksi_id === id) as TrackedPoamItem;
const kinds = (s: LifecycleStep) => s.changes.map((c) => `${c.kind} ${c.item.ksi_id}`);

describe('advanceLifecycle: the POA&M lifecycle rules', () => {
  const first = step([], '2026-11-01', [aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AU-02', 'WARN'), aResult('KSI-SC-08', 'PASS')]);

  it('opens an item for each new FAIL and WARN, detected on the run day, due after the SLA of its severity', () => {
    expect(kinds(first)).toEqual(['opened KSI-AU-02', 'opened KSI-IA-02']);
    expect(item(first, 'KSI-IA-02')).toMatchObject({
      poam_id: 'POAM-KSI-IA-02',
      status: 'Open',
      overdue: false,
      risk_rating: 'Critical',
      original_detection_date: '2026-11-01',
      scheduled_completion_date: '2026-11-08',
      status_date: '2026-11-01',
      last_status: 'FAIL',
      last_run: 'run-2026-11-01',
    });
    expect(item(first, 'KSI-AU-02')).toMatchObject({ risk_rating: 'Moderate', scheduled_completion_date: '2026-12-01' });
    expect(first.items).toHaveLength(2);
  });

  it('detects a result on its own observed_at day when it has one', () => {
    const s = step([], '2026-11-05', [aResult('KSI-AU-02', 'FAIL', { observed_at: '2026-11-03T23:00:00Z' })]);
    expect(item(s, 'KSI-AU-02')).toMatchObject({ original_detection_date: '2026-11-03', scheduled_completion_date: '2026-11-17' });
  });

  it('keeps a persisting item open with its original detection date, and emits nothing for it', () => {
    const second = step(first.items, '2026-11-04', [
      aResult('KSI-IA-02', 'FAIL', { details: 'still no MFA' }),
      aResult('KSI-AU-02', 'WARN'),
      aResult('KSI-SC-08', 'PASS'),
    ]);
    expect(second.changes).toEqual([]);
    expect(item(second, 'KSI-IA-02')).toMatchObject({
      status: 'Open',
      original_detection_date: '2026-11-01',
      scheduled_completion_date: '2026-11-08',
      status_date: '2026-11-01',
      weakness_description: 'still no MFA',
      last_run: 'run-2026-11-04',
    });
  });

  it('closes an item when its KSI passes, on the run day', () => {
    const second = step(first.items, '2026-11-06', [aResult('KSI-IA-02', 'PASS'), aResult('KSI-AU-02', 'WARN')]);
    expect(kinds(second)).toEqual(['closed KSI-IA-02']);
    expect(item(second, 'KSI-IA-02')).toMatchObject({
      status: 'Closed',
      completion_date: '2026-11-06',
      status_date: '2026-11-06',
      overdue: false,
      last_status: 'PASS',
      original_detection_date: '2026-11-01',
    });
    expect(countLifecycle(second.items)).toEqual({ open: 1, overdue: 0, closed: 1 });
  });

  it('marks an open item overdue once the run day is past its scheduled completion date, once', () => {
    const late = step(first.items, '2026-11-09', [aResult('KSI-IA-02', 'FAIL')]);
    expect(kinds(late)).toEqual(['overdue KSI-IA-02']);
    expect(item(late, 'KSI-IA-02')).toMatchObject({ overdue: true, status_date: '2026-11-09', original_detection_date: '2026-11-01' });
    const later = step(late.items, '2026-11-12', [aResult('KSI-IA-02', 'FAIL')]);
    expect(later.changes).toEqual([]);
    expect(item(later, 'KSI-IA-02').overdue).toBe(true);
    expect(item(step([], '2026-11-08', [aResult('KSI-IA-02', 'FAIL', { observed_at: '2026-11-01T00:00:00Z' })]), 'KSI-IA-02').overdue).toBe(false);
  });

  it('keeps an item whose KSI the run does not report as it was (absence of evidence closes nothing), but still ages it', () => {
    const silent = step(first.items, '2026-11-10', [aResult('KSI-SC-08', 'PASS')]);
    expect(kinds(silent)).toEqual(['overdue KSI-IA-02']);
    expect(item(silent, 'KSI-IA-02')).toMatchObject({ status: 'Open', last_run: 'run-2026-11-01' });
    expect(item(silent, 'KSI-AU-02')).toMatchObject({ status: 'Open', overdue: false });
  });

  it('reopens a closed item when its KSI fails again, with the new detection date', () => {
    const closed = step(first.items, '2026-11-03', [aResult('KSI-IA-02', 'PASS')]);
    const again = step(closed.items, '2026-11-20', [aResult('KSI-IA-02', 'WARN')]);
    expect(again.changes).toEqual([expect.objectContaining({ kind: 'opened', reopened: true })]);
    expect(item(again, 'KSI-IA-02')).toMatchObject({
      status: 'Open',
      original_detection_date: '2026-11-20',
      risk_rating: 'High',
      scheduled_completion_date: '2026-12-04',
    });
    expect(item(again, 'KSI-IA-02').completion_date).toBeUndefined();
  });

  it('follows a change of risk on an open item: new rating and due date from the original detection', () => {
    const worse = step(first.items, '2026-11-02', [aResult('KSI-AU-02', 'FAIL')]);
    expect(worse.changes).toEqual([expect.objectContaining({ kind: 'risk-changed', previousRisk: 'Moderate' })]);
    expect(item(worse, 'KSI-AU-02')).toMatchObject({ risk_rating: 'High', original_detection_date: '2026-11-01', scheduled_completion_date: '2026-11-15' });
  });

  it('clears overdue when a lower risk moves the due date past the run day', () => {
    const late = step(first.items, '2026-11-09', [aResult('KSI-IA-02', 'FAIL')]);
    const milder = step(late.items, '2026-11-10', [aResult('KSI-IA-02', 'WARN')]);
    expect(item(milder, 'KSI-IA-02')).toMatchObject({ overdue: false, risk_rating: 'High', scheduled_completion_date: '2026-11-15' });
  });
});

function toRecord(day: string, results: KsiResult[], meta = {}): RunToRecord {
  const assessment = assess(results, catalog, DEFAULT_GOVERNANCE_POLICY);
  const hashed = assessment.items.map((item) => ({ item, hash: evidenceHash(item.result, item.definition, digest) }));
  return {
    id: digest.sha256(`record ${day}`),
    record: { schema: 'svc.run/v1', report: { generated_at: `${day}T06:00:00Z` } },
    context: context(day),
    asOf: `${day}T06:00:00Z`,
    recordedAt: `${day}T07:00:00Z`,
    merkleRoot: 'ab'.repeat(32),
    counts: assessment.counts,
    side: { meta, results: hashed },
  };
}

const uuid = (key: string) => `uuid(${key})`;

/** A decided run as the store gives it back: its POA&M state and events read out (recordStep gives them as LazyArrays). */
function stored<T extends DecidedRun>(run: T): T & StoredRun {
  return { ...run, poam: [...run.poam], events: [...run.events] };
}

describe('recordStep: summary, lifecycle, drift and one event per change', () => {
  const first = stored(
    recordStep(toRecord('2026-11-01', [aResult('KSI-IA-02', 'PASS'), aResult('KSI-AU-02', 'WARN'), aResult('KSI-ZZ-01', 'PASS')]), undefined, 1, uuid),
  );
  const secondRun = toRecord('2026-11-04', [aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AU-02', 'PASS'), aResult('KSI-ZZ-01', 'PASS')]);
  const second = stored(
    recordStep(
      secondRun,
      { poam: first.poam, side: toRecord('2026-11-01', [aResult('KSI-IA-02', 'PASS'), aResult('KSI-AU-02', 'WARN'), aResult('KSI-ZZ-01', 'PASS')]).side },
      2,
      uuid,
    ),
  );

  it('summarises the run: counts, areas, POA&M and drift', () => {
    expect(first.summary).toMatchObject({
      seq: 1,
      as_of: '2026-11-01T06:00:00Z',
      recorded_at: '2026-11-01T07:00:00Z',
      areas: { AU: { pass: 0, warn: 1, fail: 0 }, IA: { pass: 1, warn: 0, fail: 0 }, UNMAPPED: { pass: 1, warn: 0, fail: 0 } },
    });
    expect(first.summary.poam).toEqual({ open: 1, overdue: 0, closed: 0, opened: 1, closed_now: 0 });
    expect(second.summary.poam).toEqual({ open: 1, overdue: 0, closed: 1, opened: 1, closed_now: 1 });
    expect(second.summary.drift).toEqual({ 'DRIFT-IDENTITY': 1, 'DRIFT-AUTHZ': 0, 'DRIFT-SEMANTIC': 1, 'DRIFT-PROVENANCE': 0, 'DRIFT-SCHEMA': 0 });
  });

  it('emits run.recorded, then the lifecycle changes, then the drift findings, with stable ids and RFC 5424 severities', () => {
    expect(second.events.map((e) => `${e.kind} ${e.ksi_id} ${e.severity}`)).toEqual([
      'run.recorded null info',
      'poam.closed KSI-AU-02 info',
      'poam.opened KSI-IA-02 critical',
      'drift.detected KSI-IA-02 critical',
      'drift.detected KSI-AU-02 notice',
    ]);
    const opened = second.events[2];
    expect(opened).toEqual({
      schema: 'svc.conmon-event/v1',
      event_id: `uuid(conmon-event/${secondRun.id}/poam.opened/POAM-KSI-IA-02)`,
      kind: 'poam.opened',
      time: '2026-11-04T06:00:00Z',
      severity: 'critical',
      run: { id: secondRun.id, seq: 2, input: secondRun.context.input },
      ksi_id: 'KSI-IA-02',
      poam_id: 'POAM-KSI-IA-02',
      summary: 'POAM-KSI-IA-02 opened: KSI-IA-02 FAIL (Critical), due 2026-11-11',
      data: {
        status: 'FAIL',
        risk_rating: 'Critical',
        point_of_contact: 'identity-team@agency.example',
        original_detection_date: '2026-11-04',
        scheduled_completion_date: '2026-11-11',
        reopened: false,
      },
    });
    expect(second.events[3].summary).toBe(
      'DRIFT-IDENTITY P1 KSI-IA-02: status worsened PASS -> FAIL on identity controls ia-2, ia-2.1, ia-2.2, ia-2.5 and 3 more (FAIL severity Critical)',
    );
    expect(new Set(second.events.map((e) => e.event_id)).size).toBe(second.events.length);
  });

  it('tallies the events it will emit as it walks the lifecycle once: the run, each change (overdue ones too), each drift finding by severity', () => {
    expect(first.tally).toEqual({ events: 2, drift: { P1: 0, P2: 0, P3: 0, P4: 0 } });
    expect(second.tally).toEqual({ events: 5, drift: { P1: 1, P2: 0, P3: 0, P4: 1 } });
    // Two weeks on: KSI-IA-02's item (due 2026-11-11) became overdue while it still fails, and nothing drifted.
    const late = recordStep(
      toRecord('2026-11-18', [aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AU-02', 'PASS'), aResult('KSI-ZZ-01', 'PASS')]),
      { poam: second.poam, side: secondRun.side },
      3,
      uuid,
    );
    const events = [...late.events];
    expect(events.map((e) => e.kind)).toEqual(['run.recorded', 'poam.overdue']);
    expect(late.tally).toEqual({ events: events.length, drift: { P1: 0, P2: 0, P3: 0, P4: 0 } });
  });

  it('merges a small lifecycle once for every read of it, a large one again for each read, with the same items and events', () => {
    /** The previous state as the store gives it: read again each time it is iterated, counted. */
    const counted = (poam: readonly TrackedPoamItem[]) => {
      let reads = 0;
      const state = { [Symbol.iterator]: () => (reads++, poam[Symbol.iterator]()) } as unknown as readonly TrackedPoamItem[];
      return { state, reads: () => reads };
    };
    const side = toRecord('2026-11-01', [aResult('KSI-IA-02', 'PASS'), aResult('KSI-AU-02', 'WARN'), aResult('KSI-ZZ-01', 'PASS')]).side;
    const small = counted(first.poam);
    expect(stored(recordStep(secondRun, { poam: small.state, side }, 2, uuid))).toEqual(second);
    expect(small.reads()).toBe(1);
    // 20,001 items of KSIs this run does not report, after its own in poam_id order: kept as they were, aged.
    const others = Array.from({ length: 20_001 }, (_, i) => ({
      ...first.poam[0],
      ksi_id: `KSI-ZZZ-${String(i).padStart(5, '0')}`,
      poam_id: `POAM-KSI-ZZZ-${String(i).padStart(5, '0')}`,
    }));
    const large = counted([...first.poam, ...others]);
    const run = recordStep(secondRun, { poam: large.state, side }, 2, uuid);
    const [poam, events] = [[...run.poam], [...run.events]];
    expect(large.reads()).toBeGreaterThan(2);
    expect(poam).toHaveLength(20_003);
    expect(poam.slice(0, 2)).toEqual(second.poam);
    expect(events).toEqual(second.events.map((e) => ({ ...e, ...(e.kind === 'run.recorded' ? { data: { ...e.data, poam: run.summary.poam } } : {}) })));
    expect(run.summary.poam).toEqual({ ...second.summary.poam, open: second.summary.poam.open + 20_001 });
    expect(run.tally).toEqual(second.tally);
  });

  it('builds the Ongoing Authorization Report of a period from stored runs', () => {
    const runs: StoredRun[] = [first, second];
    const report = ongoingAuthorizationReport({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-30T23:59:59.999Z',
      generatedAt: '2026-12-01T00:00:00Z',
      tool: { name: 'svc', version: '0.5.0' },
      store: '/tmp/store',
      runs,
      areaTitle: (a) => `Area ${a}`,
    });
    expect(report.runs).toEqual({
      count: 2,
      first: { seq: 1, id: first.summary.id, as_of: '2026-11-01T06:00:00Z' },
      last: { seq: 2, id: second.summary.id, as_of: '2026-11-04T06:00:00Z' },
    });
    expect(report.system).toBe('contoso.example');
    expect(report.ksi_status?.pass_rate).toEqual({ first: 0.6667, last: 0.6667 });
    expect(report.changes.map((c) => `${c.ksi_id} ${c.from}->${c.to} ${c.severity}`)).toEqual(['KSI-IA-02 PASS->FAIL P1', 'KSI-AU-02 WARN->PASS P4']);
    expect(report.poam.opened.map((p) => `${p.poam_id} ${p.date} run ${p.run}`)).toEqual([
      'POAM-KSI-AU-02 2026-11-01 run 1',
      'POAM-KSI-IA-02 2026-11-04 run 2',
    ]);
    expect(report.poam.closed.map((p) => `${p.poam_id} ${p.date}`)).toEqual(['POAM-KSI-AU-02 2026-11-04']);
    expect(report.poam).toMatchObject({ open_at_end: 1, overdue_at_end: 0, overdue: [] });
    const text = ongoingAuthorizationMarkdown(report);
    expect(text).toContain('Runs: 2 (run 1, 2026-11-01T06:00:00Z to run 2, 2026-11-04T06:00:00Z)\n');
    expect(text).toContain('| IA | Area IA | 0 | 0 | 1 | 0.0 % |\n');
    expect(text).toContain('| 2026-11-04T06:00:00Z | 2 | KSI-IA-02 | PASS | FAIL | DRIFT-IDENTITY | P1 |\n');
    expect(text).toContain('Opened: 2; closed: 1; became overdue: 0; open at the end of the period: 1 (0 overdue).\n');
    expect(text).toContain('By severity: P1 1, P2 0, P3 0, P4 1.\n');
    const empty = ongoingAuthorizationMarkdown(
      ongoingAuthorizationReport({ from: 'a', to: 'b', generatedAt: 'c', tool: { name: 'svc', version: '0.5.0' }, store: 's', runs: [], areaTitle: (a) => a }),
    );
    expect(empty).toContain('No runs were recorded in the period: there is no evidence of continuous monitoring to report.\n');
  });
});
