import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { VENDOR_PARSERS } from '../../src/infrastructure/scans/registry';
import { CronParserSchedule } from '../../src/infrastructure/orchestrator/cron-parser-schedule';
import { FsOrchestratorConfigSource } from '../../src/infrastructure/orchestrator/fs-orchestrator-config-source';
import { brokenText, jsonText, jsonValue, mutate, mutations, SEED, typedOutcome } from './bad-input';

const CONFIG = {
  $schema: './svc.orchestrator.schema.json',
  jobs: [
    {
      name: 'm365-daily',
      adapter: 'scubagear',
      input: 'scans/ScubaResults.json',
      command: ['pwsh', '-File', 'run-scuba.ps1'],
      schedule: '0 6 * * *',
      outputs: { bundle: 'out/m365', store: true, sinks: ['ndjson:out/events.ndjson', 'https://siem.example/ingest'] },
    },
    { name: 'aws-weekdays', adapter: 'prowler', input: '/scans/prowler.ocsf.json', schedule: '30 7 * * 1-5', outputs: { bundle: 'out/aws' } },
    { name: 'zap-every-15s', adapter: 'zap', input: 'zap.json', schedule: '*/15 * * * * *', outputs: { bundle: 'out/zap', store: false, sinks: [] } },
  ],
};

/** Cron-like text: fields of numbers, ranges, steps, lists, names and the odd character, 1 to 7 of them. */
const cronText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '*',
        '?',
        'L',
        'W',
        '#',
        'LW',
        '5L',
        '1#3',
        '0',
        '59',
        '60',
        '-1',
        '99999999999999',
        'MON',
        'JAN',
        'mon-fri',
        'SUN,SAT',
        'H',
        '@daily',
        '',
        '*/0',
        '1-',
        '-',
        '/',
        ',',
      ),
      fc.tuple(fc.nat({ max: 70 }), fc.constantFrom('-', '/', ','), fc.nat({ max: 70 })).map(([a, op, b]) => `${a}${op}${b}`),
      fc.string({ maxLength: 4 }),
    ),
    { minLength: 1, maxLength: 7 },
  )
  .chain((fields) => fc.constantFrom(' ', '  ', '\t', '\n').map((gap) => fields.join(gap)));

describe('svc.orchestrator.json (FsOrchestratorConfigSource) on bad input', () => {
  let dir = '';
  let n = 0;
  const source = () => new FsOrchestratorConfigSource({ cwd: dir, cron: new CronParserSchedule(), vendors: () => VENDOR_PARSERS.map((p) => p.info.vendor) });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-property-orchestrator-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Loads `content`: a config, or invalid-orchestrator-config naming the file and a JSON path (or the JSON syntax). */
  const load = async (content: string | Buffer) => {
    const file = join(dir, `svc.orchestrator-${n++}.json`);
    writeFileSync(file, content);
    const outcome = await typedOutcome(() => source().load(file), file);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('invalid-orchestrator-config');
      expect(outcome.error.message.startsWith(`${file}: `)).toBe(true);
      expect(outcome.error.message.slice(file.length + 2)).toMatch(
        /^(not valid JSON \(.*\); see docs\/orchestrator\.md$|(\$|jobs|\S.*?): .+; see docs\/orchestrator\.md$)/,
      );
    }
    return outcome;
  };

  it('loads the valid example', async () => {
    const outcome = await load(JSON.stringify(CONFIG));
    expect(outcome.ok && outcome.value.jobs.map((j) => j.name)).toEqual(['m365-daily', 'aws-weekdays', 'zap-every-15s']);
  });

  it('loads a mutated config or names the file and the JSON path of the first problem', async () => {
    await fc.assert(
      fc.asyncProperty(mutations(3), fc.nat(), async (changes, style) => {
        await load(jsonText(mutate(CONFIG, changes), style));
      }),
      { seed: SEED, numRuns: 250 },
    );
  });

  it('refuses any schedule cron-parser refuses with the job path, and takes the others', async () => {
    await fc.assert(
      fc.asyncProperty(cronText, fc.nat({ max: 2 }), async (schedule, job) => {
        const config = structuredClone(CONFIG);
        config.jobs[job].schedule = schedule;
        const outcome = await load(JSON.stringify(config));
        if (!outcome.ok) expect(outcome.error.message).toContain(`: jobs[${job}].schedule: `);
      }),
      { seed: SEED, numRuns: 250 },
    );
  });

  it('refuses random JSON and text that is not JSON, naming the file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          jsonValue(4).map((v) => JSON.stringify(v)),
          jsonValue(3).map((jobs) => JSON.stringify({ jobs })),
          brokenText(JSON.stringify(CONFIG, null, 2)),
        ),
        async (content) => {
          await load(content);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});
