import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { RunAdapter } from '../../src/application/adapters/run-adapter';
import { readNormalizedReport } from '../../src/domain/ksi/ksi-result';
import { VENDOR_PARSERS } from '../../src/infrastructure/scans/registry';
import { VendorScanReader } from '../../src/infrastructure/scans/vendor-scan-reader';
import { rawSample } from '../support/adapters';
import { FIXTURES, REFERENCE } from '../support/run-svc';
import { doubles } from '../support/harness';
import { asJson, brokenText, jsonKey, jsonText, mutate, mutations, SEED, typedOutcome } from './bad-input';

/** Real output files of each scanner, and how their content is taken apart and put back together for mutation. */
type Format = 'json' | 'scoutsuite-js' | 'xml' | 'csv';
interface Sample {
  vendor: string;
  /** A file of ../shared/reference/raw-samples, or content written here. */
  file?: string;
  content?: unknown;
  format: Format;
  trim?: (document: any) => unknown;
}
const SAMPLES: Sample[] = [
  // The consolidated file without its 650 KB Raw section, which the adapter does not read; and the older TestResults.json.
  { vendor: 'scubagear', file: rawSample('scubagear', 'ScubaResults_fa5589b7-d528-4f80.json'), format: 'json', trim: ({ Raw: _raw, ...rest }) => rest },
  { vendor: 'scubagear', file: rawSample('scubagear', 'TestResults.json'), format: 'json', trim: (rows) => rows.slice(0, 20) },
  { vendor: 'prowler', file: rawSample('prowler', 'example_output_aws.ocsf.json'), format: 'json' },
  { vendor: 'aws-securityhub', file: rawSample('aws-securityhub', 'config_one_finding.json'), format: 'json' },
  { vendor: 'azure-policy', file: rawSample('azure-policy', 'PolicyStates_QueryResourceGroupScope.json'), format: 'json' },
  { vendor: 'defender', file: rawSample('defender', 'many_vulns.csv'), format: 'csv' },
  // The assessments JSON of the REST list, as test/integration/adapters/defender.test.ts writes it.
  { vendor: 'defender', content: defenderAssessments(), format: 'json' },
  { vendor: 'sarif', file: rawSample('sarif', 'results.sarif'), format: 'json' },
  { vendor: 'trivy', file: rawSample('trivy', 'misconfigurations_and_secrets.json'), format: 'json' },
  { vendor: 'openscap', file: rawSample('openscap', 'test_report_check_with_empty_selector.xccdf.xml.result.xml'), format: 'xml' },
  { vendor: 'nessus', file: rawSample('nessus', 'sample-basic-network-scan-2hosts.nessus'), format: 'xml' },
  // The first 6 of the 20 resources, their results and the summaries of their controls, without the frameworks'
  // summaries: the rest only slows every mutation down.
  { vendor: 'kubescape', file: rawSample('kubescape', 'k3d-sample-subset-a.json'), format: 'json', trim: kubescapeSubset },
  { vendor: 'inspec', file: rawSample('inspec', 'triple_overlay_profile_sample.json'), format: 'json' },
  { vendor: 'hdf', file: rawSample('hdf', 'minimal_hdf.json'), format: 'json' },
  {
    vendor: 'hdf',
    file: rawSample('hdf', 'red_hat_good.json'),
    format: 'json',
    trim: (d) => ({ ...d, profiles: d.profiles.map((p: { controls: unknown[] }) => ({ ...p, controls: p.controls.slice(0, 12) })) }),
  },
  { vendor: 'scoutsuite', file: rawSample('scoutsuite', 'scoutsuite_sample.js'), format: 'scoutsuite-js' },
  { vendor: 'zap', file: rawSample('zap', 'webgoat.json'), format: 'json' },
  { vendor: 'ckl', file: rawSample('ckl', 'small_ckl_overrides.ckl'), format: 'xml' },
  { vendor: 'ckl', file: join(FIXTURES, 'ckl', 'small_ckl_overrides.cklb'), format: 'json' },
  { vendor: 'oscal-ar', file: join(REFERENCE, 'oscal', 'examples', 'ar_ifa_assessment-results-example.json'), format: 'json' },
  { vendor: 'grype', file: rawSample('grype', 'anchore_grype.json'), format: 'json', trim: (d) => ({ ...d, matches: d.matches.slice(0, 8) }) },
  {
    vendor: 'checkov',
    file: rawSample('checkov', 'checkov_json.json'),
    format: 'json',
    trim: (d) => ({ ...d, results: { ...d.results, passed_checks: d.results.passed_checks.slice(1, 9), failed_checks: d.results.failed_checks.slice(0, 8) } }),
  },
  { vendor: 'checkov', file: rawSample('checkov', 'checkov_with_skips.json'), format: 'json' },
];

function defenderAssessments(): unknown {
  const vmss = '/subscriptions/0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/vmss1';
  const assessment = (key: string, code: string, extra: Record<string, unknown> = {}) => ({
    id: `${vmss}/providers/Microsoft.Security/assessments/${key}`,
    name: key,
    type: 'Microsoft.Security/assessments',
    properties: {
      resourceDetails: { source: 'Azure', id: vmss },
      displayName: 'Install endpoint protection solution on virtual machine scale sets',
      status: { code },
      ...extra,
    },
  });
  return {
    value: [
      assessment('21300918-b2e3-0346-785f-c77ff57d243b', 'Healthy'),
      assessment('1f655fb7-63ca-4980-91a3-56dbc2b715c6', 'Unhealthy', {
        metadata: { severity: 'High', displayName: 'MFA should be enabled on accounts with owner permissions' },
      }),
      assessment('35f45c95-27cf-4e52-891f-8390d1de5828', 'NotApplicable', {
        status: { code: 'NotApplicable', cause: 'OffByPolicy', description: 'The resource is exempt' },
      }),
    ],
  };
}

function kubescapeSubset(document: any): unknown {
  const results = document.results.slice(0, 6);
  const ids = new Set(results.flatMap((r: any) => r.controls.map((c: any) => c.controlID)));
  const controls = Object.fromEntries(Object.entries(document.summaryDetails.controls).filter(([id]) => ids.has(id)));
  return { ...document, summaryDetails: { ...document.summaryDetails, controls, frameworks: [] }, resources: document.resources.slice(0, 6), results };
}

const VENDORS = VENDOR_PARSERS.map((p) => p.info.vendor);
const SCOUTSUITE_PREFIX = /^\s*scoutsuite_results\s*=\s*/;

const text = (sample: Sample) => (sample.file ? readFileSync(sample.file, 'utf8').replace(/^\uFEFF/, '') : JSON.stringify(sample.content, null, 2));
const extension = (sample: Sample) => (sample.file ? sample.file.slice(sample.file.lastIndexOf('.')) : '.json');
const structured = (sample: Sample): unknown => {
  const { format, trim = (d: unknown) => d } = sample;
  if (format === 'json') return trim(JSON.parse(text(sample)));
  if (format === 'scoutsuite-js') return JSON.parse(text(sample).replace(SCOUTSUITE_PREFIX, ''));
  if (format === 'csv') return parseCsv(text(sample), { bom: true, skip_empty_lines: true }) as string[][];
  return text(sample);
};

/** A CSV cell as an export writes it: always quoted, quotes doubled. */
const csvCell = (value: unknown) => `"${(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/"/g, '""')}"`;
const csvText = (rows: unknown) => (Array.isArray(rows) ? rows : [rows]).map((row) => (Array.isArray(row) ? row : [row]).map(csvCell).join(',')).join('\r\n');

/** Changes to an XML text: a text node or attribute value replaced, an element dropped, doubled or renamed, the text cut. */
interface XmlChange {
  op: 'text' | 'attr' | 'drop' | 'double' | 'rename' | 'cut';
  at: number;
  value: string;
  escape: boolean;
}
const xmlChange: fc.Arbitrary<XmlChange> = fc.record({
  op: fc.constantFrom<XmlChange['op']>('text', 'text', 'attr', 'attr', 'drop', 'double', 'rename', 'cut'),
  at: fc.nat(),
  value: fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', '-1', '0', '99999999999999999999', 'NaN', 'true', 'Critical', '1970-01-01', 'not a date', '&amp;', ']]>', '<', '\n'),
  ),
  escape: fc.boolean(),
});

function mutateXml(xml: string, changes: readonly XmlChange[]): string {
  let out = xml;
  for (const change of changes) {
    const pick = <T>(list: T[]): T | undefined => (list.length === 0 ? undefined : list[change.at % list.length]);
    const value = change.escape ? change.value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;') : change.value;
    if (change.op === 'cut') {
      out = out.slice(0, change.at % (out.length + 1));
    } else if (change.op === 'text') {
      const hit = pick([...out.matchAll(/>([^<]+)</g)]);
      if (hit) out = out.slice(0, hit.index + 1) + value + out.slice(hit.index + 1 + hit[1].length);
    } else if (change.op === 'attr') {
      const hit = pick([...out.matchAll(/(\s[\w:.-]+=")([^"]*)"/g)]);
      if (hit) out = out.slice(0, hit.index + hit[1].length) + value + out.slice(hit.index + hit[1].length + hit[2].length);
    } else {
      const open = pick([...out.matchAll(/<([A-Za-z][\w:.-]*)(?:\s[^>]*)?(?<!\/)>/g)]);
      if (!open) continue;
      const close = out.indexOf(`</${open[1]}>`, open.index);
      if (close < 0) continue;
      const end = close + open[1].length + 3;
      const element = out.slice(open.index, end);
      if (change.op === 'drop') out = out.slice(0, open.index) + out.slice(end);
      else if (change.op === 'double') out = out.slice(0, end) + element + out.slice(end);
      else {
        const name = /^[A-Za-z_][\w.-]*$/.test(change.value) ? change.value : 'x';
        out = out.slice(0, open.index) + element.replace(open[1], name).replace(new RegExp(`</${open[1]}>$`), `</${name}>`) + out.slice(end);
      }
    }
  }
  return out;
}

/** A mutated copy of a sample, as file content. */
function mutatedSample(sample: Sample): fc.Arbitrary<string> {
  const original = structured(sample);
  if (sample.format === 'xml') return fc.array(xmlChange, { minLength: 1, maxLength: 3 }).map((changes) => mutateXml(original as string, changes));
  if (sample.format === 'csv') return mutations(3).map((changes) => csvText(mutate(original, changes)));
  return fc.tuple(mutations(3), fc.nat()).map(([changes, style]) => {
    const json = jsonText(mutate(original, changes), style);
    return sample.format === 'scoutsuite-js' ? `scoutsuite_results = ${json}` : json;
  });
}

const named = (sample: Sample) => `${sample.vendor} ${sample.file ? sample.file.slice(sample.file.lastIndexOf('/') + 1) : `(${sample.format})`}`;

describe('svc adapter run on bad scanner output (RunAdapter over every parser)', () => {
  let dir = '';
  let n = 0;
  const d = doubles();
  const adapter = new RunAdapter(new VendorScanReader(VENDOR_PARSERS), d.writer, d.clock, d.settings, d.hashing);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-property-adapters-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the adapter on `content`: a normalized report svc itself accepts, or a typed one-line error naming the file. */
  const run = async (vendor: string, content: string | Buffer, ext = '.json') => {
    const path = join(dir, `${vendor}-${n++}${ext}`);
    writeFileSync(path, content);
    const outcome = await typedOutcome(() => adapter.execute({ vendor, input: path }), path);
    if (outcome.ok) readNormalizedReport(asJson(outcome.value.report), path);
    return outcome;
  };

  it('covers every scanner of the registry', () => {
    expect([...new Set(SAMPLES.map((s) => s.vendor))].sort()).toEqual([...VENDORS].sort());
  });

  it.each(SAMPLES.map((sample) => [named(sample), sample] as const))('%s: a mutated sample gives a valid report or a typed error', async (_name, sample) => {
    await fc.assert(
      fc.asyncProperty(mutatedSample(sample), async (content) => {
        await run(sample.vendor, content, extension(sample));
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it.each(SAMPLES.map((sample) => [named(sample), sample] as const))(
    '%s: the sample cut short, with a byte changed, or random text gives a valid report or a typed error',
    async (_name, sample) => {
      const start = text(sample).slice(0, 4096);
      await fc.assert(
        fc.asyncProperty(brokenText(start), async (content) => {
          const outcome = await run(sample.vendor, content, extension(sample));
          if (!outcome.ok)
            expect([
              'input-empty',
              'wrong-vendor',
              'invalid-json',
              'invalid-xml',
              'invalid-csv',
              'invalid-scan',
              'input-too-large',
              'not-oscal',
              'wrong-oscal-model',
            ]).toContain(outcome.error.code);
        }),
        { seed: SEED, numRuns: 40 },
      );
    },
  );

  it("refuses another scanner's output saying which scanner it looks like, and random JSON documents with a typed error", async () => {
    const content = fc.oneof(
      fc.constantFrom(...SAMPLES).map((sample) => ({ sample })),
      fc.dictionary(jsonKey, fc.jsonValue({ maxDepth: 2 })).map((o) => ({ json: JSON.stringify(o) })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...VENDORS), content, async (vendor, given) => {
        const outcome = await run(vendor, 'sample' in given ? text(given.sample) : given.json);
        // A plain InSpec run is HDF too (docs/adapters.md): each of the pair reads the other's samples.
        const same =
          new Set([vendor, 'sample' in given ? given.sample.vendor : '']).size === 1 ||
          ['inspec', 'hdf'].every((v) => v === vendor || ('sample' in given && v === given.sample.vendor));
        if ('sample' in given && !same) {
          // The hint names what `auto` would pick: hdf for a plain InSpec run.
          const hinted = given.sample.vendor === 'inspec' ? 'hdf' : given.sample.vendor;
          expect(outcome.ok ? 'read' : outcome.error.message).toMatch(
            new RegExp(`: does not look like .* output; it looks like .* output: try "svc adapter run ${hinted} `),
          );
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
