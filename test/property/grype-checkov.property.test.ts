import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { RunAdapter } from '../../src/application/adapters/run-adapter';
import { readNormalizedReport } from '../../src/domain/ksi/ksi-result';
import { VENDOR_PARSERS } from '../../src/infrastructure/scans/registry';
import { VendorScanReader } from '../../src/infrastructure/scans/vendor-scan-reader';
import { rawSample } from '../support/adapters';
import { doubles } from '../support/harness';
import { REFERENCE } from '../support/run-svc';
import { asJson, brokenText, jsonText, jsonValue, mutate, mutations, SEED, typedOutcome } from './bad-input';

const GRYPE = rawSample('grype', 'anchore_grype.json');
const PLAN = rawSample('checkov', 'checkov_json.json');
const SKIPS = rawSample('checkov', 'checkov_with_skips.json');
const read = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));

/**
 * The real files, trimmed where they are large (every field kept): the Grype sample to 8 of its 89 matches (fixed and
 * unknown fix states, distribution and NVD namespaces), the Checkov plan to 8 passed checks (not the first, whose code
 * block is the whole 170 KB plan) and 8 failed ones.
 */
const grypeSample = () => {
  const document = read(GRYPE);
  return { ...document, matches: [...document.matches.slice(0, 5), ...document.matches.slice(-3)] };
};
const planSample = () => {
  const document = read(PLAN);
  return {
    ...document,
    results: { ...document.results, passed_checks: document.results.passed_checks.slice(1, 9), failed_checks: document.results.failed_checks.slice(0, 8) },
  };
};
const SAMPLES: { name: string; vendor: 'grype' | 'checkov'; document: () => unknown }[] = [
  { name: 'grype anchore_grype.json', vendor: 'grype', document: grypeSample },
  { name: 'checkov checkov_json.json', vendor: 'checkov', document: planSample },
  { name: 'checkov checkov_with_skips.json', vendor: 'checkov', document: () => read(SKIPS) },
  { name: 'checkov, a list of two frameworks', vendor: 'checkov', document: () => [planSample(), read(SKIPS)] },
];

/** A field as a tool might write it, or anything at all. */
const either = <T>(plausible: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: plausible }, { weight: 1, arbitrary: jsonValue(2) });
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });

const grypeMatch = fc.record(
  {
    vulnerability: either(
      fc.record(
        {
          id: either(fc.constantFrom('CVE-2024-1', 'GHSA-xxxx-yyyy-zzzz', 'ALAS-2024-1')),
          severity: either(fc.constantFrom('Critical', 'High', 'Medium', 'Low', 'Negligible', 'Unknown', 'critical', '')),
          description: either(fc.string({ maxLength: 400 })),
          fix: either(
            fc.record({
              versions: either(fc.array(either(fc.string({ maxLength: 8 })), { maxLength: 3 })),
              state: either(fc.constantFrom('fixed', 'not-fixed', 'wont-fix', 'unknown')),
            }),
          ),
          cvss: either(
            fc.array(
              fc.record({
                source: either(fc.constantFrom('nvd@nist.gov', 'ghsa')),
                version: either(fc.constantFrom('3.1', '3.0', '2.0', '4.0')),
                vector: jsonValue(1),
                metrics: either(fc.record({ baseScore: either(fc.double({ min: -1, max: 11 })) })),
              }),
              { maxLength: 3 },
            ),
          ),
        },
        { requiredKeys: ['id'] },
      ),
    ),
    relatedVulnerabilities: either(
      fc.array(fc.record({ id: either(fc.constantFrom('CVE-2024-1', 'CVE-2024-2')), cvss: jsonValue(2), description: jsonValue(1) }, { requiredKeys: [] }), {
        maxLength: 3,
      }),
    ),
    matchDetails: either(fc.array(fc.record({ type: jsonValue(1) }), { maxLength: 2 })),
    artifact: either(
      fc.record(
        {
          name: either(fc.constantFrom('openssl', 'lodash')),
          version: jsonValue(1),
          type: jsonValue(1),
          locations: either(fc.array(fc.record({ path: jsonValue(1) }), { maxLength: 2 })),
        },
        { requiredKeys: ['name'] },
      ),
    ),
    appliedIgnoreRules: either(fc.array(fc.dictionary(fc.string({ maxLength: 6 }), jsonValue(1), { maxKeys: 3 }), { maxLength: 2 })),
  },
  { requiredKeys: ['vulnerability', 'artifact'] },
);
const grypeDocument = fc.record(
  {
    matches: fc.array(grypeMatch, { maxLength: 5 }),
    ignoredMatches: maybe(either(fc.array(grypeMatch, { maxLength: 3 }))),
    source: maybe(either(fc.record({ type: jsonValue(1), target: either(fc.oneof(fc.string({ maxLength: 12 }), fc.record({ userInput: jsonValue(1) }))) }))),
    descriptor: fc.record({
      name: fc.constant('grype'),
      version: jsonValue(1),
      timestamp: either(fc.constantFrom('2024-07-23T08:42:03.544511-04:00', '0001-01-01T00:00:00Z', 'yesterday')),
    }),
  },
  { requiredKeys: ['matches', 'descriptor'] },
);

const checkovRow = fc.record(
  {
    check_id: either(fc.constantFrom('CKV_AWS_1', 'CKV_K8S_8', 'CKV_SECRET_2', 'CKV2_GHA_1')),
    check_name: either(fc.constantFrom('Ensure S3 bucket is encrypted', 'Ensure logging is enabled', 'x')),
    check_result: either(
      fc.record(
        { result: jsonValue(1), evaluated_keys: either(fc.array(jsonValue(1), { maxLength: 5 })), suppress_comment: jsonValue(1) },
        { requiredKeys: [] },
      ),
    ),
    file_path: jsonValue(1),
    file_line_range: either(fc.array(either(fc.integer({ min: -1, max: 99 })), { maxLength: 3 })),
    resource: jsonValue(1),
    severity: either(fc.constantFrom('CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO')),
    bc_category: either(fc.constantFrom('IAM', 'GENERAL_SECURITY', 'Networking')),
    bc_check_id: jsonValue(1),
    guideline: either(
      fc.constantFrom('https://docs.prismacloud.io/en/enterprise-edition/policy-reference/aws-policies/aws-iam-policies/x', 'not a url', '/', '//'),
    ),
    code_block: jsonValue(2),
  },
  { requiredKeys: ['check_id'] },
);
const checkovReport = fc.record(
  {
    check_type: fc.constantFrom('terraform', 'kubernetes'),
    results: either(
      fc.record(
        {
          passed_checks: either(fc.array(checkovRow, { maxLength: 4 })),
          failed_checks: either(fc.array(checkovRow, { maxLength: 4 })),
          skipped_checks: either(fc.array(checkovRow, { maxLength: 3 })),
          parsing_errors: either(fc.array(either(fc.string({ maxLength: 10 })), { maxLength: 2 })),
        },
        { requiredKeys: ['passed_checks'] },
      ),
    ),
    summary: either(fc.record({ checkov_version: jsonValue(1) })),
  },
  { requiredKeys: ['check_type', 'results'] },
);
const checkovDocument = fc.oneof(checkovReport, fc.array(checkovReport, { minLength: 1, maxLength: 3 }));

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);
const listOf = (results: unknown, list: string) =>
  results !== null && typeof results === 'object' && !Array.isArray(results) ? (results as Record<string, unknown>)[list] : undefined;

describe('svc adapter run grype|checkov on arbitrary and mutated input', () => {
  let dir = '';
  let n = 0;
  const d = doubles();
  const adapter = new RunAdapter(new VendorScanReader(VENDOR_PARSERS), d.writer, d.clock, d.settings, d.hashing);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-property-grype-checkov-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the adapter on `content`: a normalized report svc itself accepts, or a typed one-line error naming the file. */
  const run = async (vendor: string, content: string | Buffer) => {
    const path = join(dir, `${vendor}-${n++}.json`);
    writeFileSync(path, content);
    const outcome = await typedOutcome(() => adapter.execute({ vendor, input: path }), path);
    if (outcome.ok) readNormalizedReport(asJson(outcome.value.report), path);
    return outcome;
  };

  it.each(SAMPLES.map((s) => [s.name, s] as const))('%s: a mutated sample gives a valid report or a typed error', async (_name, sample) => {
    const original = sample.document();
    await fc.assert(
      fc.asyncProperty(mutations(3), fc.nat(), async (changes, style) => {
        await run(sample.vendor, jsonText(mutate(original, changes), style));
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it.each(SAMPLES.map((s) => [s.name, s] as const))(
    '%s: the sample cut short, with a byte changed, or random text gives a valid report or a typed error',
    async (_name, sample) => {
      const start = JSON.stringify(sample.document(), null, 1).slice(0, 4096);
      await fc.assert(
        fc.asyncProperty(brokenText(start), async (content) => {
          const outcome = await run(sample.vendor, content);
          if (!outcome.ok) expect(['input-empty', 'wrong-vendor', 'invalid-json', 'invalid-scan']).toContain(outcome.error.code);
        }),
        { seed: SEED, numRuns: 40 },
      );
    },
  );

  it('a Grype-shaped document of arbitrary values gives a typed error, or one check per match and ignored match plus the scan check', async () => {
    await fc.assert(
      fc.asyncProperty(grypeDocument, async (document) => {
        const outcome = await run('grype', JSON.stringify(document));
        if (outcome.ok) expect(outcome.value.summary.checks).toBe(document.matches.length + lengthOf(document.ignoredMatches) + 1);
        else expect(outcome.error.code).toBe('invalid-scan');
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('a Checkov-shaped document of arbitrary values gives a typed error, or one check per listed check and parsing error, none dropped', async () => {
    await fc.assert(
      fc.asyncProperty(checkovDocument, async (document) => {
        const outcome = await run('checkov', JSON.stringify(document));
        const reports = Array.isArray(document) ? document : [document];
        const listed = reports.reduce(
          (sum, r) =>
            sum + ['passed_checks', 'failed_checks', 'skipped_checks', 'parsing_errors'].reduce((s, list) => s + lengthOf(listOf(r.results, list)), 0),
          0,
        );
        if (outcome.ok) {
          expect(outcome.value.summary.checks).toBe(listed);
          expect(JSON.stringify(outcome.value.report)).not.toContain('code_block');
        } else expect(outcome.error.code).toBe('invalid-scan');
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('telling Grype and Checkov output from the other formats', () => {
  const SAMPLES_DIR = join(REFERENCE, 'raw-samples');
  const files = readdirSync(SAMPLES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(join(SAMPLES_DIR, entry.name))
        .filter((file) => !/\.(md|tsv)$/.test(file))
        .map((file) => ({ folder: entry.name, file })),
    );
  const head = (folder: string, file: string) =>
    readFileSync(join(SAMPLES_DIR, folder, file))
      .subarray(0, 64 * 1024)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  const claimedBy = (text: string) => VENDOR_PARSERS.filter((p) => ['grype', 'checkov'].includes(p.info.vendor) && p.looksLike(text)).map((p) => p.info.vendor);

  it('takes each Grype and Checkov sample by its own parser, and no other vendor takes them', () => {
    for (const { folder, file } of files.filter((f) => ['grype', 'checkov'].includes(f.folder))) {
      expect({ file, by: VENDOR_PARSERS.filter((p) => p.looksLike(head(folder, file))).map((p) => p.info.vendor) }).toEqual({ file, by: [folder] });
    }
  });

  it("takes no other scanner's sample for Grype or Checkov output", () => {
    for (const { folder, file } of files.filter((f) => !['grype', 'checkov'].includes(f.folder)))
      expect({ file, by: claimedBy(head(folder, file)) }).toEqual({ file, by: [] });
  });

  it('tells the Grype and Checkov samples apart however they are indented, and as a Checkov list', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SAMPLES), fc.nat(), (sample, style) => {
        const text = jsonText(sample.document(), style)
          .replace(/^\uFEFF/, '')
          .slice(0, 64 * 1024);
        expect(claimedBy(text)).toEqual([sample.vendor]);
      }),
      { seed: SEED, numRuns: 24 },
    );
  });
});
