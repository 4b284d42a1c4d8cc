import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEDRAMP_SCHEMAS, fedrampSchemaErrors } from '../support/fedramp-schemas';
import { registerAt, type RegisterGroup } from '../support/vuln-register';
import { REFERENCE, startSvc, svc, type SvcRun } from '../support/run-svc';
import { TRUST_PROFILE } from '../support/trust-center';

/*
 * Issue 33: a provider's real week. ScubaGear on Monday, Nessus on Tuesday, Trivy on Wednesday, Prowler on Thursday
 * (FedRAMP's and the vendors' own sample files, through `svc adapter run auto`), recorded one after another: each
 * report is the latest part of its source, and the store's state is every source's latest part. Nothing a scanner
 * found is lost or judged fixed because another scanner ran; every documented path from the raw files to the store
 * (the reports, `evidence build`, `ir auditor-bundle`, several reports in one `conmon process`) gives the same register.
 */

const RAW = join(REFERENCE, 'raw-samples');
const SCANNERS = [
  { name: 'scuba', raw: join(RAW, 'scubagear', 'TestResults.json'), day: '2026-11-23', source: 'ScubaGear' },
  { name: 'nessus', raw: join(RAW, 'nessus', 'sample-basic-network-scan-2hosts.nessus'), day: '2026-11-24', source: 'Nessus (2 hosts)' },
  { name: 'trivy', raw: join(RAW, 'trivy', 'misconfigurations_and_secrets.json'), day: '2026-11-25', source: 'Trivy' },
  { name: 'prowler', raw: join(RAW, 'prowler', 'example_output_aws.ocsf.json'), day: '2026-11-26', source: 'Prowler (<account_uid>)' },
];
const FRIDAY = '2026-11-27T12:00:00Z';

interface Detections {
  source: { tool: string };
  vulnerabilities: { finding_id: string; source: string }[];
}

const epoch = (time: string) => String(Date.parse(time) / 1000);

describe("a provider's week of several scanners (issue 33)", () => {
  let work: string;
  const at = (...parts: string[]) => join(work, ...parts);
  const reports: Record<string, Detections> = {};

  /** svc in `work` with its own store (`home`), at `time`; must exit 0. */
  const run = (home: string, args: string[], time = FRIDAY): SvcRun => {
    const r = svc(args, { cwd: work, env: { SVC_HOME: at(home), SOURCE_DATE_EPOCH: epoch(time) } });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r;
  };
  /** The register of store `home` on Friday: per finding, its sources, resources and state. */
  const register = (home: string) => registerAt((args) => run(home, args), FRIDAY);

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-provider-week-'));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: TRUST_PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
    for (const s of SCANNERS) {
      run('.svc', ['adapter', 'run', 'auto', s.raw, '--out', `${s.name}.json`], `${s.day}T08:00:00Z`);
      reports[s.name] = JSON.parse(readFileSync(at(`${s.name}.json`), 'utf8')) as Detections;
    }
    // Each scanner on its day, into one store.
    for (const s of SCANNERS) run('week', ['conmon', 'process', `${s.name}.json`], `${s.day}T09:00:00Z`);
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('every sample found something, each with its own tool', () => {
    expect(
      SCANNERS.map((s) => [s.name, reports[s.name].vulnerabilities.length > 0, [...new Set(reports[s.name].vulnerabilities.map((v) => v.source))]]),
    ).toEqual([
      ['scuba', true, ['ScubaGear']],
      ['nessus', true, ['Nessus']],
      ['trivy', true, ['Trivy']],
      ['prowler', true, ['Prowler']],
    ]);
  });

  it("recording the scanners one after another keeps every scanner's findings open: the register holds the detections of all four", () => {
    const groups = register('week');
    const expected = new Set(SCANNERS.flatMap((s) => reports[s.name].vulnerabilities.map((v) => v.finding_id)));
    expect(groups.map((g) => g.finding_id).sort()).toEqual([...expected].sort());
    expect(groups.filter((g) => g.state === 'remediated')).toEqual([]);
    expect([...new Set(groups.flatMap((g) => g.sources))].sort()).toEqual(['Nessus', 'Prowler', 'ScubaGear', 'Trivy']);
  });

  it('each recording names its source, and drift compares a source with itself only: no drift across scanners', () => {
    const r = run('drift', ['conmon', 'process', 'scuba.json'], '2026-11-23T09:00:00Z');
    expect(r.stdout).toContain('\nSource: ScubaGear\n');
    const next = run('drift', ['conmon', 'process', 'nessus.json'], '2026-11-24T09:00:00Z').stdout;
    expect(next).toContain('\nSource: Nessus (2 hosts)\n');
    expect(next).toContain('\nDrift: 0 findings (P1 0, P2 0, P3 0, P4 0)\n');
  });

  it("readiness judges the state, every source's latest run with its date", () => {
    const readiness = JSON.parse(
      svc(['fedramp', 'readiness', '--json', '--now', FRIDAY], { cwd: work, env: { SVC_HOME: at('week'), SOURCE_DATE_EPOCH: epoch(FRIDAY) } }).stdout,
    ) as {
      run: { seq: number; results: number; sources: { source: string; seq: number; as_of: string }[] };
    };
    expect(readiness.run.seq).toBe(4);
    expect(readiness.run.sources.map((s) => [s.source, s.seq])).toEqual(SCANNERS.map((s, i) => [s.source, i + 1]));
    const text = svc(['fedramp', 'readiness', '--now', FRIDAY], { cwd: work, env: { SVC_HOME: at('week'), SOURCE_DATE_EPOCH: epoch(FRIDAY) } }).stdout;
    expect(text).toMatch(
      /^Sources: ScubaGear \(run 1, as of [^)]+\); Nessus \(2 hosts\) \(run 2, as of [^)]+\); Trivy \(run 3, as of [^)]+\); Prowler \(<account_uid>\) \(run 4, as of [^)]+\)$/m,
    );
    const direct = SCANNERS.reduce((n, s) => n + (JSON.parse(readFileSync(at(`${s.name}.json`), 'utf8')) as { results: unknown[] }).results.length, 0);
    expect(readiness.run.results).toBe(direct);
  });

  it("ends in a package of the store's state whose VDR lists the detections of every scanner, and says what it judged", () => {
    const r = run('week', ['fedramp', 'package', '--out-dir', 'pkg', '--now', FRIDAY]);
    expect(r.stdout).toMatch(
      /^Judged: the run store's state, ScubaGear \(run 1, as of [^)]+\); Nessus \(2 hosts\) \(run 2, as of [^)]+\); Trivy \(run 3, as of [^)]+\); Prowler \(<account_uid>\) \(run 4, as of [^)]+\)$/m,
    );
    const vdr = JSON.parse(readFileSync(at('pkg', 'vdr.json'), 'utf8')) as { vulnerabilities: { detection: { detectionSource: string } }[] };
    expect(fedrampSchemaErrors('vdr', vdr)).toEqual([]);
    expect([...new Set(vdr.vulnerabilities.map((v) => v.detection.detectionSource))].sort()).toEqual(['Nessus', 'Prowler', 'ScubaGear', 'Trivy']);
    expect(vdr.vulnerabilities).toHaveLength(register('week').length);
    // KSI metrics count each day as the state stood at its end: KSI-CED-RAT, first reached on Tuesday, has its status
    // on Tuesday, Wednesday, Thursday and today (Friday), not only on the days its own scanner ran.
    const sdr = JSON.parse(readFileSync(at('pkg', 'sdr.json'), 'utf8')) as { ksiMetrics: Record<string, { lastYear: Record<string, number> }> };
    expect(sdr.ksiMetrics['KSI-CED-RAT'].lastYear).toEqual({ days: 5, implemented: 4, noEvidence: 1, notImplemented: 0, partially: 0 });
  });

  it('a source that stopped reporting goes stale by the class cadence and says so; its findings stay open', () => {
    // A week after Monday's ScubaGear run, the others ran since: ScubaGear's next run was due (Class B, VDR-TFR-MVX).
    const later = '2026-11-30T12:00:00Z';
    const env = { SVC_HOME: at('week'), SOURCE_DATE_EPOCH: epoch(later) };
    const readiness = JSON.parse(svc(['fedramp', 'readiness', '--json', '--now', later], { cwd: work, env }).stdout) as {
      run: { sources: { source: string; stale?: unknown }[] };
    };
    expect(readiness.run.sources.map((s) => [s.source, s.stale])).toEqual([
      ['ScubaGear', { rule: 'VDR-TFR-MVX', every: '7 days', due: '2026-11-30T08:00:00Z' }],
      ['Nessus (2 hosts)', undefined],
      ['Trivy', undefined],
      ['Prowler (<account_uid>)', undefined],
    ]);
    expect(svc(['fedramp', 'readiness', '--now', later], { cwd: work, env }).stdout.split('\n')[2]).toBe(
      'Sources: ScubaGear (run 1, as of 2026-11-23T08:00:00Z, stale: VDR-TFR-MVX asks every 7 days, due 2026-11-30T08:00:00Z); Nessus (2 hosts) (run 2, as of 2026-11-24T08:00:00Z); Trivy (run 3, as of 2026-11-25T08:00:00Z); Prowler (<account_uid>) (run 4, as of 2026-11-26T08:00:00Z)',
    );
    // Stale is not fixed: every ScubaGear finding is still in the register, none remediated.
    const groups = JSON.parse(run('week', ['vuln', 'list', '--json', '--now', later], later).stdout) as RegisterGroup[];
    const scuba = groups.filter((g) => g.sources.includes('ScubaGear'));
    expect(scuba.map((g) => g.finding_id).sort()).toEqual([...new Set(reports.scuba.vulnerabilities.map((v) => v.finding_id))].sort());
    expect(scuba.filter((g) => g.state === 'remediated')).toEqual([]);
  });

  it("a source scanned again without a finding remediates that finding alone; the other scanners' stay open", () => {
    run('again', ['conmon', 'process', 'scuba.json', 'nessus.json', 'trivy.json', 'prowler.json']);
    const nessus = JSON.parse(readFileSync(at('nessus.json'), 'utf8')) as Detections & { generated_at: string };
    const [fixed, ...rest] = nessus.vulnerabilities;
    writeFileSync(at('nessus-friday.json'), JSON.stringify({ ...nessus, generated_at: '2026-11-27T08:00:00Z', vulnerabilities: rest }));
    run('again', ['conmon', 'process', 'nessus-friday.json']);
    const groups = register('again');
    expect(groups.filter((g) => g.state === 'remediated').map((g) => g.finding_id)).toEqual([fixed.finding_id]);
    expect(groups.filter((g) => g.state !== 'remediated')).toHaveLength(groups.length - 1);
  });

  it('every documented path from the raw files to the store gives the register of recording the reports directly', () => {
    const direct = register('week');
    // Several reports in one command, each its own source.
    const batch = run('batch', ['conmon', 'process', ...SCANNERS.map((s) => `${s.name}.json`)]).stdout;
    expect(batch.match(/^Source: .*$/gm)).toEqual(SCANNERS.map((s) => `Source: ${s.source}`));
    expect(register('batch')).toEqual(direct);
    // Merged with `evidence build` (one source of its own), the detections of every scanner carried through.
    const built = run('.svc', ['evidence', 'build', ...SCANNERS.map((s) => `${s.name}.json`), '--out', 'merged.json']).stdout;
    expect(built).toContain(
      `\nDetections: ${SCANNERS.reduce((n, s) => n + reports[s.name].vulnerabilities.length, 0)} (every report's vulnerabilities[], one per id)\n`,
    );
    run('merged', ['conmon', 'process', 'merged.json']);
    expect(register('merged')).toEqual(direct);
    // Each through an auditor bundle directory.
    for (const s of SCANNERS) run('.svc', ['ir', 'auditor-bundle', `${s.name}.json`, '--out-dir', `bundle-${s.name}`]);
    run('bundles', ['conmon', 'process', ...SCANNERS.map((s) => `bundle-${s.name}`)]);
    expect(register('bundles')).toEqual(direct);
    // Recorded on Friday, each bundle speaks for its scan's day (the report's generated_at, which the bundle carries).
    const state = JSON.parse(
      svc(['fedramp', 'readiness', '--json', '--now', FRIDAY], { cwd: work, env: { SVC_HOME: at('bundles'), SOURCE_DATE_EPOCH: epoch(FRIDAY) } }).stdout,
    ) as { run: { sources: { source: string; as_of: string }[] } };
    expect(state.run.sources.map((s) => [s.source, s.as_of])).toEqual(SCANNERS.map((s) => [s.source, `${s.day}T08:00:00Z`]));
  });

  it('records several reports in one store transaction: a report that cannot be read records none of them, and the same command fixed records all', () => {
    writeFileSync(at('broken.json'), '{"results": [');
    const refused = svc(['conmon', 'process', 'scuba.json', 'nessus.json', 'broken.json'], { cwd: work, env: { SVC_HOME: at('atomic') } });
    expect([refused.status, refused.stdout, refused.stderr.trim()]).toEqual([
      3,
      '',
      'Error: broken.json: invalid JSON at line 1, column 14: Unexpected end of JSON input; fix the syntax there (a JSON validator shows the context)',
    ]);
    expect(existsSync(at('atomic', 'store', 'index.json'))).toBe(false);
    const recorded = run('atomic', ['conmon', 'process', 'scuba.json', 'nessus.json']).stdout;
    expect(recorded.match(/^Recorded run \d+/gm)).toEqual(['Recorded run 1', 'Recorded run 2']);
  });

  it('two recordings of different sources at once both land, in either order', async () => {
    const env = { SVC_HOME: at('together'), SOURCE_DATE_EPOCH: epoch(FRIDAY) };
    const done = await Promise.all(['trivy', 'prowler'].map((name) => startSvc(['conmon', 'process', `${name}.json`], { cwd: work, env }).done));
    expect(done.map((d) => d.status)).toEqual([0, 0]);
    // One of the two made the development key, which both signed with; the one that took the lock second may say it
    // waited for it (after TELL_AFTER_MS: a loaded machine records a report in more than a second). Nothing else.
    const waited = /^Waiting for the run store lock held by process \d+ on \S+ since \S+ \.\.\.\n/m;
    expect(done.map((d) => d.stderr.replace(/^Warning: no signing key given .*\n/m, '').replace(waited, '')).join('')).toBe('');
    expect(done.filter((d) => waited.test(d.stderr)).length).toBeLessThanOrEqual(1);
    const state = JSON.parse(svc(['fedramp', 'readiness', '--json', '--now', FRIDAY], { cwd: work, env }).stdout) as { run: { sources: { source: string }[] } };
    expect(state.run.sources.map((s) => s.source).sort()).toEqual(['Prowler (<account_uid>)', 'Trivy']);
  });

  it("says so when an svc adapter's report arrives without its detections", () => {
    const { vulnerabilities: _dropped, ...stripped } = JSON.parse(readFileSync(at('nessus.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(at('stripped.json'), JSON.stringify(stripped));
    const r = run('stripped', ['conmon', 'process', 'stripped.json']);
    expect(r.stderr).toContain(
      'stripped.json: its source Nessus (2 hosts) is an svc adapter\'s, which always writes vulnerabilities[], and it has none: something on the way dropped the detections (a bundle of svc before 0.6?); record the adapter\'s report itself (docs/conmon.md, "Sources")',
    );
  });

  it("--source names one report's source; a bad name or several reports are refused before anything is recorded", () => {
    expect(run('named', ['conmon', 'process', 'nessus.json', '--source', 'nessus-prod-hosts']).stdout).toContain('\nSource: nessus-prod-hosts\n');
    const several = svc(['conmon', 'process', 'scuba.json', 'nessus.json', '--source', 'x'], { cwd: work, env: { SVC_HOME: at('refused') } });
    expect([several.status, several.stderr.trim()]).toEqual([
      3,
      'Error: --source names one source, and 2 reports were given; record each with its own --source, or leave it out to name each by its scanner and tenant',
    ]);
    const bad = svc(['conmon', 'process', 'scuba.json', '--source', ' padded'], { cwd: work, env: { SVC_HOME: at('refused') } });
    expect([bad.status, bad.stderr.trim()]).toEqual([
      3,
      'Error: --source " padded" is empty or has spaces around it; name the scanner and its scope, e.g. --source "nessus-prod-hosts"',
    ]);
    // Nothing recorded: the store was never made.
    expect(existsSync(at('refused', 'store'))).toBe(false);
  });
});
