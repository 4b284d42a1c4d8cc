import { readOrchestratorConfig, type Job } from '../../../src/domain/orchestrator/job';
import { crontabLines } from '../../../src/domain/orchestrator/crontab';
import { windowsTaskXml } from '../../../src/domain/orchestrator/windows-task';
import { cronJobManifest } from '../../../src/domain/orchestrator/cron-job-manifest';

const checks = { validateCron: (e: string) => (e.split(' ').length >= 5 ? undefined : 'has too few fields'), vendors: ['scubagear', 'prowler'], resolvePath: (p: string) => `/cfg/${p}` };
const job = (over: Record<string, unknown> = {}) => ({ name: 'm365-daily', adapter: 'scubagear', input: 'in.json', schedule: '0 6 * * *', outputs: { bundle: 'out' }, ...over });
const read = (jobs: unknown) => () => readOrchestratorConfig({ jobs }, 'o.json', '/cfg', checks);
const problem = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

describe('readOrchestratorConfig', () => {
  it('resolves paths against the config directory, ndjson sinks included', () => {
    const config = readOrchestratorConfig({ jobs: [job({ outputs: { bundle: 'out', store: true, sinks: ['ndjson:e.ndjson', 'syslog+udp://h:514'] } })] }, 'o.json', '/cfg', checks);
    expect(config.jobs[0]).toEqual({ name: 'm365-daily', adapter: 'scubagear', input: '/cfg/in.json', schedule: '0 6 * * *', outputs: { bundle: '/cfg/out', store: true, sinks: ['ndjson:/cfg/e.ndjson', 'syslog+udp://h:514'] } });
  });

  it.each([
    [[], 'o.json: jobs: expected a non-empty array of jobs, got an array; see docs/orchestrator.md'],
    [[job({ name: 'M365' })], 'o.json: jobs[0].name: expected 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit (a Kubernetes name), got "M365"; see docs/orchestrator.md'],
    [[job(), job()], 'o.json: jobs[1].name: "m365-daily" is already the name of jobs[0]; job names must be unique; see docs/orchestrator.md'],
    [[job({ adapter: 'nope' })], 'o.json: jobs[0].adapter: unknown adapter "nope" (known: scubagear, prowler); see docs/orchestrator.md'],
    [[job({ input: '' })], `o.json: jobs[0].input: expected the path of the scanner's output file, got ""; see docs/orchestrator.md`],
    [[job({ command: 'pwsh' })], 'o.json: jobs[0].command: expected the program and its arguments as an array of strings, such as ["pwsh", "-File", "run-scuba.ps1"], got "pwsh"; see docs/orchestrator.md'],
    [[job({ schedule: '0 6' })], 'o.json: jobs[0].schedule: "0 6" has too few fields; see docs/orchestrator.md'],
    [[job({ schedule: 6 })], 'o.json: jobs[0].schedule: expected a cron expression such as "0 6 * * *", got number 6; see docs/orchestrator.md'],
    [[job({ outputs: undefined })], 'o.json: jobs[0].outputs: expected an object with "bundle" (and optionally "store", "sinks"), got nothing; see docs/orchestrator.md'],
    [[job({ outputs: { bundle: 'o', store: 'yes' } })], 'o.json: jobs[0].outputs.store: expected true (record each run in the run store) or false, got "yes"; see docs/orchestrator.md'],
    [[job({ outputs: { bundle: 'o', sinks: ['ndjson:e'] } })], 'o.json: jobs[0].outputs.sinks: events come from recording the run: set "store": true as well; see docs/orchestrator.md'],
    [[job({ extra: 1 })], 'o.json: jobs[0].extra: unknown setting (known: name, adapter, input, command, schedule, outputs); see docs/orchestrator.md'],
  ])('refuses %j', (jobs, message) => {
    expect(read(jobs)).toThrow(problem(message));
  });

  // A key is written as a JSON path: quoted, line breaks escaped, when it is not a plain name (found by
  // test/property/orchestrator-config.property.test.ts: the message had two lines).
  it('quotes an unknown key that is not a plain name, so the message stays one line', () => {
    expect(() => readOrchestratorConfig({ jobs: [job()], 'a\nb': 1 }, 'o.json', '/cfg', checks)).toThrow(problem('o.json: ["a\\nb"]: unknown setting (known: jobs, $schema); see docs/orchestrator.md'));
    expect(read([job({ 'x y': 1 })])).toThrow(problem('o.json: jobs[0]["x y"]: unknown setting (known: name, adapter, input, command, schedule, outputs); see docs/orchestrator.md'));
    expect(read([job({ outputs: { bundle: 'o', '\u0007': true } })])).toThrow(problem('o.json: jobs[0].outputs["\\u0007"]: unknown setting (known: bundle, store, sinks); see docs/orchestrator.md'));
  });
});

describe('schedule emitters', () => {
  const base: Job = { name: 'a', adapter: 'scubagear', input: '/i', schedule: '0 6 * * *', outputs: { bundle: '/o', store: false, sinks: [] } };
  it('writes crontab lines quoted for sh, % escaped', () => {
    expect(crontabLines([base], ['/opt/my svc/svc'], '/c/50%.json')).toBe(
      "# svc orchestrator jobs of /c/50%.json\nCRON_TZ=UTC\n0 6 * * * '/opt/my svc/svc' orchestrator dispatch a --config /c/50\\%.json\n",
    );
  });
  it('refuses seconds for the platforms, and unexpressible Windows schedules', () => {
    expect(() => crontabLines([{ ...base, schedule: '* * * * * *' }], ['svc'], '/c')).toThrow(/^job a: schedule "\* \* \* \* \* \*" has a seconds field/);
    expect(() => windowsTaskXml({ ...base, schedule: '0 6 1 * *' }, ['svc'], '/c')).toThrow(
      'job a: schedule "0 6 1 * *" cannot be a Windows Task Scheduler trigger: only daily or weekly times and every N minutes or hours map to Task Scheduler triggers; emit crontab or k8s for it, or change the schedule',
    );
  });
  it('escapes XML and maps hourly repetition', () => {
    const xml = windowsTaskXml({ ...base, schedule: '5 */2 * * *' }, ['svc'], 'C:\\a&b\\o.json');
    expect(xml).toContain('<Arguments>orchestrator dispatch a --config C:\\a&amp;b\\o.json</Arguments>');
    expect(xml).toContain('<Interval>PT2H</Interval>');
    expect(xml).toContain('<StartBoundary>2026-01-01T00:05:00Z</StartBoundary>');
  });
  it('builds a Forbid CronJob', () => {
    expect(cronJobManifest(base, { image: 'img', configName: 'o.json' })).toMatchObject({ kind: 'CronJob', spec: { schedule: '0 6 * * *', concurrencyPolicy: 'Forbid' } });
  });
});
