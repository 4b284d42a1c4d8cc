import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAt } from '../support/vuln-register';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';

/*
 * Issue 33 through the orchestrator: two jobs of two scanners, dispatched one after the other into one store, each
 * record their run as its own source (the job's `source`, else the report's scanner and tenant), so the store's state
 * holds both and the register is the one of recording the two adapter reports directly.
 */

const RAW = join(REFERENCE, 'raw-samples');
const JOBS = [
  {
    name: 'm365-weekly',
    adapter: 'scubagear',
    input: join(RAW, 'scubagear', 'TestResults.json'),
    schedule: '0 6 * * 1',
    outputs: { bundle: 'out/m365', store: true },
  },
  {
    name: 'hosts-daily',
    adapter: 'nessus',
    input: join(RAW, 'nessus', 'sample-basic-network-scan-2hosts.nessus'),
    schedule: '0 7 * * *',
    source: 'nessus-prod-hosts',
    outputs: { bundle: 'out/hosts', store: true },
  },
];
const FRIDAY = '2026-11-27T12:00:00Z';

describe('orchestrator jobs of several scanners into one store (issue 33)', () => {
  let work: string;
  const at = (...parts: string[]) => join(work, ...parts);
  /** svc in `work` with the store of `home`, at `time`; must exit as `status` says. */
  const run = (home: string, args: string[], time = FRIDAY, status = 0): SvcRun => {
    const r = svc(args, { cwd: work, env: { SVC_HOME: at(home), SOURCE_DATE_EPOCH: String(Date.parse(time) / 1000) } });
    if (r.status !== status) throw new Error(`svc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r;
  };
  const register = (home: string) => registerAt((args) => run(home, args), FRIDAY);

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-orchestrator-sources-'));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: { type: '20x', class: 'B' } }));
    writeFileSync(at('svc.orchestrator.json'), JSON.stringify({ jobs: JOBS }));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("records each job as its source, the job's name where it gives one; the register is the one of recording the reports directly", () => {
    expect(run('home', ['orchestrator', 'dispatch', 'm365-weekly'], '2026-11-23T08:00:00Z').stdout).toMatch(/; recorded run 1 in /);
    expect(run('home', ['orchestrator', 'dispatch', 'hosts-daily'], '2026-11-24T08:00:00Z').stdout).toMatch(/; recorded run 2 in /);
    const readiness = JSON.parse(run('home', ['fedramp', 'readiness', '--json', '--now', FRIDAY], FRIDAY, 1).stdout) as {
      run: { sources: { source: string; seq: number }[] };
    };
    expect(readiness.run.sources.map((s) => [s.source, s.seq])).toEqual([
      ['ScubaGear', 1],
      ['nessus-prod-hosts', 2],
    ]);
    // The adapter reports the jobs wrote, recorded directly, each as its scanner's source.
    const reports = JOBS.map((job) => at('home', 'orchestrator', job.name, 'report.json'));
    expect(run('direct', ['conmon', 'process', ...reports]).stdout.match(/^Source: .*$/gm)).toEqual(['Source: ScubaGear', 'Source: Nessus (2 hosts)']);
    const groups = register('home');
    expect([...new Set(groups.flatMap((g) => g.sources))].sort()).toEqual(['Nessus', 'ScubaGear']);
    expect(groups).toEqual(register('direct'));
  });
});
