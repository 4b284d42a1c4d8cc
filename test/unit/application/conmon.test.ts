import { BuildTrendDashboard } from '../../../src/application/conmon/build-trend-dashboard';
import { ExportOngoingAuthorization } from '../../../src/application/conmon/export-ongoing-authorization';
import { DetectDrift } from '../../../src/application/drift/detect-drift';
import { CheckFreshness } from '../../../src/application/freshness/check-freshness';
import { RunLoader } from '../../../src/application/shared/run-loader';
import { storedKsiHistory } from '../../../src/application/shared/stored-ksi-history';
import type { RunDashboardModel, TrendDashboardModel } from '../../../src/domain/reporting/dashboard-model';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import type { HtmlRenderer } from '../../../src/ports/html-renderer';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import { RecordingEventSinks } from '../../fakes/recording-event-sinks';
import { aResult, TEST_SETTINGS } from '../../support/builders';
import { doubles, processRunOver } from '../../support/harness';

const report = (day: string, results: KsiResult[]) => ({
  schema_version: '1',
  generated_at: `${day}T06:00:00Z`,
  source: { tool: 'ScubaGear', version: '1.5.1', tenant: 'contoso.example' },
  results,
});
const files = {
  '/runs/1.json': report('2026-11-01', [aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AU-02', 'PASS')]),
  '/runs/2.json': report('2026-11-04', [aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AU-02', 'WARN')]),
  '/runs/3.json': report('2026-11-10', [aResult('KSI-IA-02', 'PASS'), aResult('KSI-AU-02', 'WARN')]),
  '/runs/bare.json': [aResult('KSI-SC-08', 'PASS')],
  // Another scanner on another scope, reporting KSI-IA-02 too.
  '/runs/okta.json': { ...report('2026-11-05', [aResult('KSI-IA-02', 'PASS')]), source: { tool: 'Okta', tenant: 'example.okta.com' } },
  '/runs/okta-fail.json': { ...report('2026-11-06', [aResult('KSI-IA-02', 'WARN')]), source: { tool: 'Okta', tenant: 'example.okta.com' } },
  '/runs/okta-again.json': { ...report('2026-11-12', [aResult('KSI-IA-02', 'PASS')]), source: { tool: 'Okta', tenant: 'example.okta.com' } },
};

function setup(settings = TEST_SETTINGS) {
  const d = doubles(files);
  const store = new InMemoryRunStore();
  const sinks = new RecordingEventSinks();
  const runs = new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, settings);
  const process = processRunOver(d, runs, store, sinks, settings);
  return { d, store, sinks, runs, process };
}

describe('ProcessRun', () => {
  it('records runs in order and moves the lifecycle on, sending one event per change to every sink', async () => {
    const { process, sinks, store } = setup();
    const first = await process.execute({ input: '/runs/1.json', sinks: ['ndjson:a'] });
    expect(first).toMatchObject({
      store: 'memory',
      recorded: true,
      events: 2,
      drift: { P1: 0, P2: 0, P3: 0, P4: 0 },
      deliveries: [{ sink: 'ndjson:a', delivered: 2, attempts: 1 }],
    });
    expect(first.run).toMatchObject({ seq: 1, as_of: '2026-11-01T06:00:00Z', poam: { open: 1, opened: 1, overdue: 0 } });
    await process.execute({ input: '/runs/2.json', sinks: ['ndjson:a'] });
    const third = await process.execute({ input: '/runs/3.json', sinks: ['ndjson:a'] });
    expect(third.run.poam).toEqual({ open: 1, overdue: 0, closed: 1, opened: 0, closed_now: 1 });
    expect((sinks.received.get('ndjson:a') ?? []).map((e) => `${e.run.seq} ${e.kind} ${e.ksi_id}`)).toEqual([
      '1 run.recorded null',
      '1 poam.opened KSI-IA-02',
      '2 run.recorded null',
      '2 poam.opened KSI-AU-02',
      '2 drift.detected KSI-AU-02',
      '3 run.recorded null',
      '3 poam.closed KSI-IA-02',
      '3 drift.detected KSI-IA-02',
    ]);
    expect((await store.latest())?.poam.map((i) => `${i.poam_id} ${i.status} ${i.original_detection_date}`)).toEqual([
      'POAM-KSI-AU-02 Open 2026-11-04',
      'POAM-KSI-IA-02 Closed 2026-11-01',
    ]);
  });

  it('records a run once: the same input again records nothing and sends its stored events again', async () => {
    const { process, sinks, store } = setup();
    const first = await process.execute({ input: '/runs/1.json', sinks: ['ndjson:a'] });
    const again = await process.execute({ input: '/runs/1.json', sinks: ['ndjson:b'] });
    expect(again.recorded).toBe(false);
    expect(again.run).toEqual(first.run);
    expect(sinks.received.get('ndjson:b')).toEqual(sinks.received.get('ndjson:a'));
    expect(await store.list()).toHaveLength(1);
  });

  it('keeps the run when a sink fails, and reports the failure', async () => {
    const { process, store } = setup();
    const result = await process.execute({ input: '/runs/1.json', sinks: ['fail:siem', 'ndjson:a'] });
    expect(result.deliveries).toEqual([
      { sink: 'fail:siem', delivered: 0, attempts: 4, error: 'connect ECONNREFUSED' },
      { sink: 'ndjson:a', delivered: 2, attempts: 1 },
    ]);
    expect((await store.latest())?.summary.seq).toBe(1);
  });

  it('opens the sinks before recording, so a bad one records nothing; without --sink it uses conmon.sinks', async () => {
    const { process, store } = setup();
    await expect(process.execute({ input: '/runs/1.json', sinks: ['bogus'] })).rejects.toMatchObject({ code: 'bad-sink' });
    expect(await store.list()).toEqual([]);
    const configured = setup({ ...TEST_SETTINGS, conmon: { sinks: ['ndjson:configured'] } });
    await configured.process.execute({ input: '/runs/1.json' });
    expect(configured.sinks.opened).toEqual([['ndjson:configured']]);
  });

  it('treats a bare array as a report that states no schema_version and no source: its own source, (unnamed), with no drift against another source', async () => {
    const { process } = setup();
    await process.execute({ input: '/runs/1.json' });
    const result = await process.execute({ input: '/runs/bare.json' });
    expect([result.source, result.drift]).toEqual(['(unnamed)', { P1: 0, P2: 0, P3: 0, P4: 0 }]);
  });

  it("one scanner's PASS does not close the POA&M item of a KSI another scanner still reports failing; the last failing source's PASS does", async () => {
    const { process } = setup();
    const item = (r: { run: { poam: { open: number; closed_now: number } } }) => [r.run.poam.open, r.run.poam.closed_now];
    // [open, closed now] after each run.
    expect(item(await process.execute({ input: '/runs/1.json' }))).toEqual([1, 0]); // ScubaGear: KSI-IA-02 FAIL opens it
    expect(item(await process.execute({ input: '/runs/okta.json' }))).toEqual([1, 0]); // Okta PASS: ScubaGear still FAILs it
    expect(item(await process.execute({ input: '/runs/okta-fail.json' }))).toEqual([1, 0]); // Okta WARN: still open
    expect(item(await process.execute({ input: '/runs/3.json' }))).toEqual([2, 0]); // ScubaGear PASS: Okta still WARNs it (AU-02 WARN opens)
    expect(item(await process.execute({ input: '/runs/okta-again.json' }))).toEqual([1, 1]); // Okta PASS: no source fails it, closed
  });

  it('named as the same source (--source), a bare array after a report: its missing schema_version and source are drift', async () => {
    const { process } = setup();
    await process.execute({ input: '/runs/1.json', source: 'tenant-scan' });
    const result = await process.execute({ input: '/runs/bare.json', source: 'tenant-scan' });
    expect([result.source, result.drift]).toEqual(['tenant-scan', { P1: 0, P2: 1, P3: 4, P4: 0 }]);
  });
});

describe('ProcessRun: the KSI history each run keeps (issue 35)', () => {
  /** Each run of the newest's history: its seq, source and the ids of its changed rows. */
  async function historyOf(store: InMemoryRunStore): Promise<[number, string, string[]][]> {
    const latest = (await store.latest())!.summary;
    const history = (await storedKsiHistory(store, latest))!;
    return history.runs.map((r) => [r.seq, r.source, (r.changed ?? []).map((c) => `${c.ksi_id} ${c.pass}/${c.fail}/${c.other}`)]);
  }

  it('adds each run to the history of the run before it, several reports recorded in one transaction too', async () => {
    const { process, store } = setup();
    await process.execute({ input: '/runs/1.json' });
    await process.executeAll({ inputs: ['/runs/okta.json', '/runs/2.json', '/runs/3.json'] });
    expect(await historyOf(store)).toEqual([
      [1, 'ScubaGear (contoso.example)', ['KSI-AU-02 1/0/0', 'KSI-IA-02 0/1/0']],
      [2, 'Okta (example.okta.com)', ['KSI-IA-02 1/0/0']],
      // Against the source's run before: only what changed.
      [3, 'ScubaGear (contoso.example)', ['KSI-AU-02 0/0/1']],
      [4, 'ScubaGear (contoso.example)', ['KSI-IA-02 1/0/0']],
    ]);
  });
});

describe('ExportOngoingAuthorization and BuildTrendDashboard', () => {
  it('reports the runs of the period from the store, and writes Markdown and JSON side by side', async () => {
    const { process, store, d } = setup();
    for (const n of [1, 2, 3]) await process.execute({ input: `/runs/${n}.json` });
    const oa = new ExportOngoingAuthorization(store, d.writer, d.catalogs, d.clock, TEST_SETTINGS);
    const result = await oa.execute({ from: '2026-11-02', to: '2026-11-30', out: '/out/oa.md' });
    expect(result.report.runs).toMatchObject({ count: 2, first: { seq: 2 }, last: { seq: 3 } });
    expect(result.written.map((w) => w.path)).toEqual(['/out/oa.md', '/out/oa.json']);
    expect(d.writer.files.get('/out/oa.md')).toBe(result.markdown);
    expect(JSON.parse(d.writer.files.get('/out/oa.json') as string)).toEqual(result.report);
    await expect(oa.execute({ from: '2026-11-30', to: '2026-11-01' })).rejects.toMatchObject({ kind: 'usage', code: 'bad-period' });
  });

  it('draws one trend point per stored run through the HTML renderer', async () => {
    const { process, store, d } = setup();
    for (const n of [1, 2, 3]) await process.execute({ input: `/runs/${n}.json` });
    let seen: TrendDashboardModel | undefined;
    const html: HtmlRenderer = {
      runDashboard: (_m: RunDashboardModel) => '',
      trendDashboard: (m) => ((seen = m), '<html>'),
      vulnerabilityActivity: () => '',
      agencyPortfolio: () => '',
    };
    const result = await new BuildTrendDashboard(store, html, d.writer, d.catalogs, d.clock, TEST_SETTINGS).execute({ out: '/out/t.html' });
    expect(result.runs).toBe(3);
    expect(seen?.runs.map((r) => [r.seq, r.pass_rate, r.open, r.overdue])).toEqual([
      [1, 0.5, 1, 0],
      [2, 0, 2, 0],
      [3, 0.5, 1, 0],
    ]);
    expect(seen?.areas).toEqual([
      { area: 'AU', title: 'Audit and Accountability' },
      { area: 'IA', title: 'Identification and Authentication' },
    ]);
    expect(d.writer.files.get('/out/t.html')).toBe('<html>');
  });
});

describe('DetectDrift and CheckFreshness', () => {
  it('gates on --fail-on', async () => {
    const { runs } = setup();
    const drift = new DetectDrift(runs);
    expect((await drift.execute({ runA: '/runs/1.json', runB: '/runs/2.json', failOn: 'P2' })).gated).toBe(true);
    expect((await drift.execute({ runA: '/runs/2.json', runB: '/runs/3.json', failOn: 'P3' })).gated).toBe(false);
  });

  it('measures ages at --now, else at the clock', async () => {
    const { runs, d } = setup();
    const check = new CheckFreshness(runs, d.clock, d.hashing, TEST_SETTINGS);
    expect((await check.execute({ input: '/runs/3.json', now: new Date('2026-11-11T00:00:00Z') })).stale).toBe(false);
    expect((await check.execute({ input: '/runs/3.json' })).stale).toBe(true); // FixedClock: 2026-11-20
  });
});
