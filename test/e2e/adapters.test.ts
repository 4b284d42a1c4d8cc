import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VENDOR_PARSERS } from '../../src/infrastructure/scans/registry';
import { rawSample } from '../support/adapters';
import { REFERENCE, svc } from '../support/run-svc';

const SCUBA = rawSample('scubagear', 'ScubaResults_fa5589b7-d528-4f80.json');
// The parser registry is the only list of vendors: --list must print it, in its order.
const VENDORS = VENDOR_PARSERS.map((p) => p.info.vendor);

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-adapters-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('svc adapter run-baseline → svc ir auditor-bundle', () => {
  it('normalizes ScubaGear results into a report the pipeline takes unchanged', () => {
    const report = join(tmp, 'scuba.json');
    const run = svc(['adapter', 'run-baseline', SCUBA, '--out', report]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      [
        `Normalized ${SCUBA} (ScubaGear 1.8.0): 92 checks, 26 KSIs`,
        'PASS: 11',
        'WARN: 4',
        'FAIL: 11',
        'Checks: pass 57, fail 26, error 0, manual 0, not-applicable 9, omitted 0, incorrect 0',
        'Unmapped checks: 0',
        'Not assessed: 4 (KSI-AC-19, KSI-AU-04, KSI-AU-11, KSI-SI-10)',
        `Report written to ${report}`,
        '',
      ].join('\n'),
    );
    const written = JSON.parse(readFileSync(report, 'utf8'));
    expect(written.source).toMatchObject({
      tool: 'ScubaGear',
      version: '1.8.0',
      raw_file: 'ScubaResults_fa5589b7-d528-4f80.json',
      adapter: 'svc-adapter-scubagear',
      adapter_version: '0.5.0',
    });
    expect(written.source.raw_sha256).toMatch(/^sha256:[0-9a-f]{64}$/);

    const transform = svc(['ir', 'baseline-transform', report]);
    expect(transform.stdout).toBe(`Transforming ${report} ...\nMapped 26 KSIs to controls and policies\nTotal: 26\nPASS: 11\nWARN: 4\nFAIL: 11\nUnmapped: 0\n`);
    const bundle = svc(['ir', 'auditor-bundle', report, '--out-dir', join(tmp, 'bundle')]);
    expect(bundle.status).toBe(0);
    expect(bundle.stdout).toContain('Evidence: 26\nActions: 26\nPOA&M: 15\n');
    const poam = JSON.parse(readFileSync(join(tmp, 'bundle', 'poam.json'), 'utf8'));
    expect(poam.rows.find((r: { ksi_id: string }) => r.ksi_id === 'KSI-AC-02').remediation_plan).toBe(
      'REMEDIATE within 7 days (Critical): fix MS.AAD.7.4v1, MS.AAD.7.5v1, MS.AAD.7.7v1 and re-run the assessment.',
    );
  });

  it('prints the report to stdout without --out, for a pipe', () => {
    const run = svc(['adapter', 'run', 'scubagear', rawSample('scubagear', 'TestResults.json')]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ schema_version: '1', source: { tool: 'ScubaGear', raw_file: 'TestResults.json' }, summary: { checks: 93 } });
  });

  it('is the same as adapter run scubagear', () => {
    const [a, b] = [join(tmp, 'a.json'), join(tmp, 'b.json')];
    svc(['adapter', 'run-baseline', SCUBA, '--out', a]);
    svc(['adapter', 'run', 'scubagear', SCUBA, '--out', b]);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });
});

describe('svc adapter run auto', () => {
  it('picks the vendor from the file, says so on stderr, and writes what the named vendor writes', () => {
    const [auto, named] = [join(tmp, 'auto.json'), join(tmp, 'named.json')];
    const run = svc(['adapter', 'run', 'auto', SCUBA, '--out', auto]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(`Note: ${SCUBA} is ScubaGear output: read as svc adapter run scubagear\n`);
    expect(run.stdout).toMatch(/^Normalized .* \(ScubaGear 1\.8\.0\): 92 checks, 26 KSIs\n/);
    svc(['adapter', 'run', 'scubagear', SCUBA, '--out', named]);
    expect(readFileSync(auto, 'utf8')).toBe(readFileSync(named, 'utf8'));
    expect(JSON.parse(svc(['adapter', 'run', 'auto', SCUBA, '--json']).stdout)).toMatchObject({
      vendor: 'scubagear',
      detected: { format: 'ScubaGear' },
      tool: 'ScubaGear',
    });
  });

  it('a file of no known format exits 3 naming the vendors, and writes nothing', () => {
    const other = join(tmp, 'other.json');
    writeFileSync(other, '{"hello": "world"}');
    const run = svc(['adapter', 'run', 'auto', other, '--out', join(tmp, 'never.json')]);
    expect(run.status).toBe(3);
    expect(run.stderr).toBe(
      `Error: ${other}: looks like the output of none of the ${VENDORS.length} scanners svc reads (${VENDORS.join(', ')}); name the vendor (svc adapter run <vendor> ${other}), or check that this is the scanner's JSON or XML output file\n`,
    );
    expect(readdirSync(tmp)).not.toContain('never.json');
  });
});

describe('svc adapter run --list', () => {
  it("names every vendor of the parser registry, in its order, with each one's declared evidence type and detection kind", () => {
    const run = svc(['adapter', 'run', '--list']);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(VENDORS);
    expect(JSON.parse(svc(['adapter', 'run', '--list', '--json']).stdout).vendors).toEqual(VENDOR_PARSERS.map((p) => p.info));
    expect(JSON.parse(svc(['adapter', 'run', '--list', '--json']).stdout).vendors.find((v: { vendor: string }) => v.vendor === 'trivy')).toMatchObject({
      tool: 'Trivy',
      evidence: 'Report',
      detections: 'vulnerability',
    });
  });

  it.each(VENDORS)('%s reads every real sample of its folder', (vendor) => {
    // NIST's OSCAL examples stand for oscal-ar's folder: its assessment results.
    const folder = vendor === 'oscal-ar' ? join(REFERENCE, 'oscal', 'examples') : rawSample(vendor, '');
    for (const file of readdirSync(folder).filter((f) => (vendor === 'oscal-ar' ? f.startsWith('ar_') : !/\.(md|tsv)$/.test(f)))) {
      const out = join(tmp, `${vendor}-${file}.json`);
      const run = svc(['adapter', 'run', vendor, join(folder, file), '--out', out]);
      expect({ file, status: run.status, stderr: run.stderr }).toEqual({ file, status: 0, stderr: '' });
      expect(svc(['ir', 'baseline-transform', out]).status).toBe(0);
    }
  });
});

describe('bad input: exit 3, one line naming the file, nothing written', () => {
  const run = (vendor: string, file: string) => {
    const out = join(tmp, 'never.json');
    const result = svc(['adapter', 'run', vendor, file, '--out', out]);
    expect(readdirSync(tmp)).not.toContain('never.json');
    return result;
  };

  it('an unknown vendor', () => {
    expect(run('qualys', SCUBA)).toMatchObject({
      status: 3,
      stderr: `Error: unknown vendor "qualys"; use one of ${VENDORS.join(', ')} (svc adapter run --list)\n`,
    });
  });

  it('a file of another vendor, naming the vendor it looks like', () => {
    expect(run('nessus', SCUBA)).toMatchObject({
      status: 3,
      stderr: `Error: ${SCUBA}: does not look like Nessus output; it looks like ScubaGear output: try "svc adapter run scubagear ${SCUBA}"\n`,
    });
  });

  it('an empty file', () => {
    const empty = join(tmp, 'empty.json');
    writeFileSync(empty, '');
    expect(run('scubagear', empty)).toMatchObject({ status: 3, stderr: `Error: ${empty}: the file is empty; pass the ScubaGear output file itself\n` });
  });

  it('truncated JSON, with line and column', () => {
    const cut = join(tmp, 'cut.json');
    writeFileSync(cut, readFileSync(SCUBA).subarray(0, 40_000));
    expect(run('scubagear', cut)).toMatchObject({
      status: 3,
      stderr: expect.stringMatching(new RegExp(`^Error: ${cut}: invalid JSON at line \\d+, column \\d+: `)),
    });
  });

  it('a missing file', () => {
    expect(run('scubagear', join(tmp, 'nope.json'))).toMatchObject({
      status: 3,
      stderr: `Error: ${join(tmp, 'nope.json')}: no such input file; check the path\n`,
    });
  });

  it('a vendor without a file', () => {
    expect(svc(['adapter', 'run', 'nessus'])).toMatchObject({
      status: 2,
      stderr: 'Error: give a vendor and a file (svc adapter run <vendor> <raw>), or --list\n',
    });
  });
});

describe('svc ksi evaluate', () => {
  it('turns check rows into KSI results the pipeline takes', () => {
    const checks = join(tmp, 'checks.json');
    writeFileSync(
      checks,
      JSON.stringify([
        { ksi_id: 'KSI-AC-02', check_id: 'okta-mfa', status: 'pass', criticality: 'must' },
        { ksi_id: 'KSI-AC-02', check_id: 'okta-stale', status: 'fail', criticality: 'should' },
        { ksi_id: 'KSI-SC-07', check_id: 'fw-review', status: 'manual', criticality: 'must' },
      ]),
    );
    const out = join(tmp, 'evaluated.json');
    expect(svc(['ksi', 'evaluate', checks, '--out', out]).stdout).toBe(
      `Evaluated ${checks}: 1 KSI\nPASS: 0\nWARN: 1\nFAIL: 0\nNot assessed: 1 (KSI-SC-07)\nReport written to ${out}\n`,
    );
    expect(svc(['ir', 'baseline-transform', out]).stdout).toContain('Total: 1\nPASS: 0\nWARN: 1\n');
    expect(JSON.parse(svc(['ksi', 'evaluate', checks]).stdout).results[0].checks).toEqual([
      { id: 'okta-mfa', status: 'PASS' },
      { id: 'okta-stale', status: 'WARN' },
    ]);
  });

  it('refuses a bad row with exit 3', () => {
    const bad = join(tmp, 'bad-checks.json');
    writeFileSync(bad, JSON.stringify([{ ksi_id: 'KSI-AC-02', check_id: 'x', status: 'ok', criticality: 'must' }]));
    expect(svc(['ksi', 'evaluate', bad])).toMatchObject({
      status: 3,
      stderr: `Error: ${bad}: [0].status: "ok" is not a check status; use pass, fail, error or manual\n`,
    });
  });
});
