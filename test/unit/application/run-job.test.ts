import { RunJob } from '../../../src/application/orchestrator/run-job';
import type { RunAdapter } from '../../../src/application/adapters/run-adapter';
import type { ProcessRun } from '../../../src/application/conmon/process-run';
import type { BuildAuditorBundle } from '../../../src/application/pipeline/build-auditor-bundle';
import { ConflictError, InvalidInputError } from '../../../src/domain/errors';
import type { OrchestratorConfig } from '../../../src/domain/orchestrator/job';
import type { JobResult } from '../../../src/domain/orchestrator/job-result';
import type { JobHistory } from '../../../src/ports/job-history';
import type { JobLock } from '../../../src/ports/job-lock';
import type { ProcessRunner } from '../../../src/ports/process-runner';

const config: OrchestratorConfig = {
  file: '/etc/svc/svc.orchestrator.json',
  dir: '/etc/svc',
  jobs: [
    {
      name: 'm365',
      adapter: 'scubagear',
      input: '/scans/ScubaResults.json',
      command: ['pwsh', '-File', 'scan.ps1'],
      schedule: '0 6 * * *',
      outputs: { bundle: '/out/m365', store: true, sinks: ['ndjson:/out/e.ndjson'] },
    },
  ],
};

/** Every collaborator of RunJob as a double that records what happened, in order. */
function setup(failAt?: 'command' | 'adapter' | 'bundle' | 'conmon' | 'sink', jobs = config.jobs) {
  const steps: string[] = [];
  const results: JobResult[] = [];
  let held = false;
  const lock: JobLock = {
    acquire: async (job) => {
      if (held) throw new ConflictError('job-running', `job ${job} is already running`);
      held = true;
      steps.push('lock');
      return async () => {
        held = false;
        steps.push('unlock');
      };
    },
  };
  const history: JobHistory = {
    last: async () => results[results.length - 1],
    record: async (_job, result) => void results.push(result),
    workspace: async () => ({ report: '/home/orchestrator/m365/report.json', log: '/home/orchestrator/m365/command.log' }),
  };
  const processes: ProcessRunner = {
    run: async (command) => (steps.push(`command ${command.join(' ')}`), failAt === 'command' ? { exitCode: 2, problem: 'exited with 2' } : { exitCode: 0 }),
  };
  const stage = (name: string, value: unknown) => async (input: unknown) => {
    steps.push(`${name} ${JSON.stringify(input)}`);
    if (failAt === name) throw new InvalidInputError(`${name}-broke`, `${name} broke`);
    return value;
  };
  const adapter = { execute: stage('adapter', {}) } as unknown as RunAdapter;
  const bundle = { execute: stage('bundle', { outDir: '/out/m365' }) } as unknown as BuildAuditorBundle;
  const delivery =
    failAt === 'sink'
      ? { sink: 'ndjson:/out/e.ndjson', delivered: 0, attempts: 4, error: 'EACCES' }
      : { sink: 'ndjson:/out/e.ndjson', delivered: 3, attempts: 1 };
  const conmon = {
    execute: stage('conmon', { run: { seq: 7 }, recorded: true, store: '/home/store', events: 3, deliveries: [delivery] }),
  } as unknown as ProcessRun;
  let tick = 0;
  const timer = { now: () => new Date(Date.UTC(2026, 10, 21, 6, 0, tick++)), sleep: async () => undefined };
  const run = new RunJob({ load: async () => ({ ...config, jobs }) }, lock, history, processes, timer as never, adapter, bundle, conmon);
  return { run, steps, results };
}

describe('RunJob', () => {
  it('runs command, adapter, bundle and conmon in order under the lock, and records the result', async () => {
    const { run, steps, results } = setup();
    const result = await run.execute({ job: 'm365' });
    expect(steps).toEqual([
      'lock',
      'command pwsh -File scan.ps1',
      'adapter {"vendor":"scubagear","input":"/scans/ScubaResults.json","out":"/home/orchestrator/m365/report.json"}',
      'bundle {"input":"/home/orchestrator/m365/report.json","outDir":"/out/m365"}',
      'conmon {"input":"/out/m365","sinks":["ndjson:/out/e.ndjson"]}',
      'unlock',
    ]);
    expect(result).toEqual({ job: 'm365', bundle: '/out/m365', run: { seq: 7, recorded: true, store: '/home/store', events: 3 }, result: results[0] });
    expect(results).toEqual([{ started: '2026-11-21T06:00:00.000Z', finished: '2026-11-21T06:00:01.000Z', status: 'ok', stage: 'conmon', run_seq: 7 }]);
  });

  it.each([
    [
      'command',
      'job-command-failed',
      'job m365 failed at stage command: pwsh -File scan.ps1 exited with 2; its output is in /home/orchestrator/m365/command.log',
      1,
    ],
    ['adapter', 'adapter-broke', 'job m365 failed at stage adapter: adapter broke', 2],
    ['bundle', 'bundle-broke', 'job m365 failed at stage bundle: bundle broke', 3],
    ['conmon', 'conmon-broke', 'job m365 failed at stage conmon: conmon broke', 4],
    [
      'sink',
      'sink-failed',
      'job m365 failed at stage conmon: ndjson:/out/e.ndjson: could not deliver the events of run 7 (EACCES); the run is recorded in /home/store',
      4,
    ],
  ] as const)('stops at a failing %s: names the stage, records the failure, releases the lock, runs nothing after', async (failAt, code, message, stepsRun) => {
    const { run, steps, results } = setup(failAt);
    await expect(run.execute({ job: 'm365' })).rejects.toMatchObject({ code, message });
    expect(steps.slice(1, -1)).toHaveLength(stepsRun);
    expect(steps[steps.length - 1]).toBe('unlock');
    expect(results).toEqual([
      expect.objectContaining({
        status: 'failed',
        stage: failAt === 'sink' ? 'conmon' : failAt,
        error: message.replace(/^job m365 failed at stage \w+: /, ''),
      }),
    ]);
  });

  it("records the run as the job's source when it names one", async () => {
    const { run, steps } = setup(undefined, [{ ...config.jobs[0], source: 'm365-contoso' }]);
    await run.execute({ job: 'm365' });
    expect(steps).toContain('conmon {"input":"/out/m365","sinks":["ndjson:/out/e.ndjson"],"source":"m365-contoso"}');
  });

  it('refuses a second run of the same job while the first holds the lock', async () => {
    const { run } = setup();
    const first = run.execute({ job: 'm365' });
    await expect(run.execute({ job: 'm365' })).rejects.toMatchObject({ code: 'job-running' });
    await first;
  });
});
