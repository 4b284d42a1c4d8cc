import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { RunAdapter } from '../../src/application/adapters/run-adapter';
import { assess } from '../../src/domain/assessment/assessment';
import { InvalidInputError } from '../../src/domain/errors';
import { HdfResults } from '../../src/domain/hdf/hdf-results';
import { readNormalizedReport } from '../../src/domain/ksi/ksi-result';
import { VendorScanReader } from '../../src/infrastructure/scans/vendor-scan-reader';
import { hdf } from '../../src/infrastructure/scans/vendors/hdf';
import { builtInCatalog } from '../fakes/fixed-catalog-source';
import { rawSample } from '../support/adapters';
import { TEST_SETTINGS } from '../support/builders';
import { doubles } from '../support/harness';
import { asJson, brokenText, jsonText, mutations, mutate, SEED, typedOutcome } from './bad-input';

/** A SAF CLI conversion with what HDF adds to InSpec: a converter platform, passthrough, CCIs, UM-1, a waiver, an attestation. */
const CONVERTED = {
  platform: { name: 'Heimdall Tools', release: '2.10.8', target_id: 'registry.example/app:1.4' },
  version: '2.10.8',
  statistics: { duration: null },
  profiles: [
    {
      name: 'Anchore - Grype',
      version: '0.74.0',
      sha256: '',
      supports: [],
      attributes: [],
      groups: [],
      status: 'loaded',
      controls: [
        {
          id: 'CVE-2024-0001',
          impact: 0.7,
          refs: [],
          tags: { nist: ['SI-2', 'RA-5'], cci: ['CCI-002605'] },
          source_location: {},
          results: [{ status: 'failed', code_desc: 'openssl', message: 'vulnerable', start_time: '2024-05-01T12:00:00Z' }],
        },
        {
          id: 'C-2',
          impact: 0.5,
          refs: [],
          tags: { cci: ['CCI-000015'] },
          source_location: {},
          results: [{ status: 'passed', code_desc: 'ok', start_time: '2024-05-01T12:00:00Z' }],
        },
        {
          id: 'C-3',
          impact: 0.5,
          refs: [],
          tags: { nist: ['UM-1'] },
          source_location: {},
          results: [{ status: 'error', code_desc: 'x', exception: 'boom', start_time: '2024-05-01T12:00:00Z' }],
        },
        {
          id: 'C-4',
          impact: 0.7,
          refs: [],
          tags: { nist: ['AC-2'] },
          source_location: {},
          waiver_data: { justification: 'AR-1', run: false, skipped_due_to_waiver: true, expiration_date: '2026-12-31' },
          results: [{ status: 'skipped', code_desc: 'waived', skip_message: 'waived', start_time: '2024-05-01T12:00:00Z' }],
        },
        {
          id: 'C-5',
          impact: 0.5,
          refs: [],
          tags: { nist: ['AC-8'] },
          source_location: {},
          attestation_data: { control_id: 'C-5', explanation: 'seen', frequency: '1y', status: 'passed', updated: '2026-01-01', updated_by: 'ISSO' },
          results: [
            {
              status: 'passed',
              code_desc: 'Manually verified status provided through attestation',
              message: 'Attestation',
              start_time: '2026-01-01T00:00:00Z',
            },
          ],
        },
      ],
    },
  ],
  passthrough: { auxiliary_data: [{ name: 'Grype', data: { matches: 1 } }] },
};

/** The first 20 of red_hat_good.json's 247 controls: the rest only slows every mutation down. */
function redHatSubset(): unknown {
  const document = JSON.parse(readFileSync(rawSample('hdf', 'red_hat_good.json'), 'utf8')) as { profiles: { controls: unknown[] }[] };
  document.profiles[0].controls = document.profiles[0].controls.slice(0, 20);
  return document;
}

/** What svc generate hdf writes for fixtures/sample-baseline.json, built here with the domain's writer. */
function svcOwn(): unknown {
  const report = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'sample-baseline.json'), 'utf8'));
  const catalog = builtInCatalog();
  const document = new HdfResults({
    tool: TEST_SETTINGS.tool,
    context: { input: { name: 'sample-baseline.json', sha256: 'ab'.repeat(32) }, source: report.source, runAt: new Date('2026-11-20T12:00:00Z') },
    catalog,
    merkleRoot: 'cd'.repeat(32),
  });
  const items = assess(report.results, catalog, TEST_SETTINGS.governance).items;
  return JSON.parse(document.head() + items.map((item) => document.control(item, 'ef'.repeat(32))).join('') + document.tail());
}

const SAMPLES: [string, unknown][] = [
  ['minimal_hdf.json', JSON.parse(readFileSync(rawSample('hdf', 'minimal_hdf.json'), 'utf8'))],
  ['triple_overlay_profile_sample.json', JSON.parse(readFileSync(rawSample('hdf', 'triple_overlay_profile_sample.json'), 'utf8'))],
  ['red_hat_good.json (20 controls)', redHatSubset()],
  ['a SAF conversion (synthetic)', CONVERTED],
  ["svc generate hdf's own", svcOwn()],
];

describe('svc adapter run hdf on mutated HDF: a valid normalized report or a typed InvalidInputError naming the file', () => {
  let dir = '';
  let n = 0;
  const d = doubles();
  const adapter = new RunAdapter(new VendorScanReader([hdf]), d.writer, d.clock, d.settings, d.hashing);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-property-hdf-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (content: string | Buffer) => {
    const path = join(dir, `hdf-${n++}.json`);
    writeFileSync(path, content);
    const outcome = await typedOutcome(() => adapter.execute({ vendor: 'hdf', input: path }), path);
    if (outcome.ok) readNormalizedReport(asJson(outcome.value.report), path);
    else expect(outcome.error).toBeInstanceOf(InvalidInputError);
    return outcome;
  };

  it.each(SAMPLES)('%s: up to three mutations anywhere in the document', async (_name, document) => {
    await fc.assert(
      fc.asyncProperty(mutations(3), fc.nat(), async (changes, style) => {
        await run(jsonText(mutate(document, changes), style));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it.each(SAMPLES)('%s: cut short, a byte changed, or not JSON at all', async (_name, document) => {
    const start = JSON.stringify(document, null, 2).slice(0, 4096);
    await fc.assert(
      fc.asyncProperty(brokenText(start), async (content) => {
        const outcome = await run(content);
        if (!outcome.ok) expect(['input-empty', 'wrong-vendor', 'invalid-json', 'invalid-scan']).toContain(outcome.error.code);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('reads every sample unchanged', async () => {
    for (const [, document] of SAMPLES) expect(await run(JSON.stringify(document))).toMatchObject({ ok: true });
  });
});
