import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, REFERENCE, svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const SAMPLE_B = 'fixtures/sample-baseline-b.json';
const SIX = ['evidence-bundle.json', 'governance-report.md', 'lineage.json', 'manifest.json', 'poam.json', 'ssp-narrative.md'];

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('svc ir baseline-transform', () => {
  it('prints the progress line, the mapped line and the summary', () => {
    expect(svc(['ir', 'baseline-transform', SAMPLE])).toEqual({
      stdout: `Transforming ${SAMPLE} ...\nMapped 4 KSIs to controls and policies\nTotal: 5\nPASS: 2\nWARN: 1\nFAIL: 2\nUnmapped: 1 (KSI-CNA-01)\n`,
      stderr: '',
      status: 0,
    });
  });

  it('prints one JSON object under --json', () => {
    const run = svc(['ir', 'baseline-transform', SAMPLE, '--json']);
    expect(JSON.parse(run.stdout)).toEqual({
      input: SAMPLE,
      counts: { results: 5, pass: 2, warn: 1, fail: 2, mapped: 4, unmapped: 1 },
      unmapped: ['KSI-CNA-01'],
    });
  });

  it('maps the KSIs of CR26 (KSI-IAM-APM) to the controls CR26 lists, as the fedramp commands read them', () => {
    const report = join(tmp, 'cr26.json');
    writeFileSync(
      report,
      JSON.stringify([
        { ksi_id: 'KSI-AC-02', status: 'PASS' },
        { ksi_id: 'KSI-IAM-APM', status: 'FAIL' },
        { ksi_id: 'KSI-IAM-02', status: 'PASS' },
      ]),
    );
    expect(svc(['ir', 'baseline-transform', report])).toEqual({
      stdout: `Transforming ${report} ...\nMapped 2 KSIs to controls and policies\nTotal: 3\nPASS: 2\nWARN: 0\nFAIL: 1\nUnmapped: 1 (KSI-IAM-02)\n`,
      stderr: '',
      status: 0,
    });
    expect(JSON.parse(svc(['ir', 'baseline-transform', report, '--json']).stdout)).toEqual({
      input: report,
      counts: { results: 3, pass: 2, warn: 0, fail: 1, mapped: 2, unmapped: 1 },
      unmapped: ['KSI-IAM-02'],
    });
  });

  it('counts agree in number: 1 KSI, 2 KSIs; 1 report into 1 entry, 2 reports into 2 entries', () => {
    const one = join(tmp, 'one.json');
    const two = join(tmp, 'two.json');
    writeFileSync(one, JSON.stringify([{ ksi_id: 'KSI-AC-02', status: 'PASS' }]));
    writeFileSync(
      two,
      JSON.stringify([
        { ksi_id: 'KSI-AC-02', status: 'PASS' },
        { ksi_id: 'KSI-AU-02', status: 'FAIL' },
      ]),
    );
    expect(svc(['ir', 'baseline-transform', one]).stdout).toBe(
      `Transforming ${one} ...\nMapped 1 KSI to controls and policies\nTotal: 1\nPASS: 1\nWARN: 0\nFAIL: 0\nUnmapped: 0\n`,
    );
    expect(svc(['ir', 'baseline-transform', two]).stdout).toContain('\nMapped 2 KSIs to controls and policies\n');
    expect(svc(['evidence', 'build', one, '--out', join(tmp, 'e1.json')]).stdout).toMatch(/^Merged 1 report into 1 entry\n/);
    expect(svc(['evidence', 'build', one, two, '--out', join(tmp, 'e2.json')]).stdout).toMatch(/^Merged 2 reports into 2 entries\n/);
  });

  it('maps official FedRAMP ids with --catalog', () => {
    const run = svc(['ir', 'baseline-transform', SAMPLE, '--catalog', '../shared/reference/fedramp/FRMR.KSI.key-security-indicators.25.12A.json']);
    expect(run.stdout).toContain('Mapped 5 KSIs to controls and policies\n');
    expect(run.stdout).toContain('Unmapped: 0\n');
  });
});

describe('svc ir auditor-bundle', () => {
  it('writes the six artifacts and prints where, with Evidence, Actions and POA&M counts', () => {
    const out = join(tmp, 'bundle');
    const run = svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', out]);
    expect(run).toEqual({
      stdout: `Building auditor bundle from ${SAMPLE} ...\nMapped 4 KSIs to controls and policies\nBundle written to ${out}\nEvidence: 5\nActions: 5\nPOA&M: 3\n`,
      stderr: '',
      status: 0,
    });
    expect(readdirSync(out).sort()).toEqual(SIX);
  });

  it('gives byte-identical artifacts for the same input and SOURCE_DATE_EPOCH', () => {
    const [a, b] = [join(tmp, 'same-a'), join(tmp, 'nested', 'same-b')];
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', a]);
    svc(['ir', 'auditor-bundle', join(FIXTURES, 'sample-baseline.json'), '--out-dir', b]);
    for (const f of SIX) expect(readFileSync(join(b, f))).toEqual(readFileSync(join(a, f)));
    expect(JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8')).generated_at).toBe('2026-01-01T00:00:00Z');
  });

  it('writes an aggregate hash that sha256sum of the five files reproduces', () => {
    const out = join(tmp, 'sums');
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', out]);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const files = SIX.filter((f) => f !== 'manifest.json');
    const sums = spawnSync('sha256sum', files, { cwd: out, encoding: 'utf8' }).stdout;
    const aggregate = spawnSync('sha256sum', { input: sums, encoding: 'utf8' }).stdout.split(' ')[0];
    expect(manifest.aggregate_hash).toBe(`sha256:${aggregate}`);
    for (const line of sums.trim().split('\n')) {
      const [hash, name] = line.split(/\s+/);
      expect(manifest.files[name].sha256).toBe(`sha256:${hash}`);
    }
  });

  it('replaces an earlier bundle in the same directory', () => {
    const out = join(tmp, 'again');
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', out]);
    svc(['ir', 'auditor-bundle', SAMPLE_B, '--out-dir', out]);
    // The six files link through .svc-current to the one generation there (docs/artifacts.md, "Crashes").
    const generation = readlinkSync(join(out, '.svc-current'));
    expect(readdirSync(out).sort()).toEqual(['.svc-current', generation, ...SIX]);
    expect(readdirSync(join(out, generation)).sort()).toEqual(SIX);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).input.name).toBe('sample-baseline-b.json');
  });

  it('leaves no temporary files next to a bundle', () => {
    expect(readdirSync(tmp).filter((f) => f.includes('svc-tmp'))).toEqual([]);
    expect(existsSync(join(tmp, 'bundle'))).toBe(true);
  });

  it('writes a valid bundle with zero counts for an empty report', () => {
    const input = join(tmp, 'empty.json');
    writeFileSync(input, '[]');
    const run = svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'empty')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Evidence: 0\nActions: 0\nPOA&M: 0\n');
  });
});

describe('svc ir diff', () => {
  it('prints the three sections: FAIL 2 -> 1 and PASS 2 -> 3 for the two samples', () => {
    const run = svc(['ir', 'diff', SAMPLE, SAMPLE_B]);
    expect(run.status).toBe(0);
    const hashes = [...run.stdout.matchAll(/- (KSI-\S+): ([0-9a-f]{12}) -> ([0-9a-f]{12})/g)].map((m) => m[1]);
    expect(hashes).toEqual(['KSI-AC-02', 'KSI-SC-08']);
    expect(run.stdout.replace(/[0-9a-f]{12} -> [0-9a-f]{12}/g, 'H -> H').replace(/sha256:[0-9a-f]{64}/g, 'sha256:X')).toBe(
      [
        '# Drift: sample-baseline.json -> sample-baseline-b.json',
        '',
        'Run A: sample-baseline.json (sha256:X)',
        'Run B: sample-baseline-b.json (sha256:X)',
        '',
        '## KSI transitions',
        '',
        '- KSI-AC-02: FAIL -> PASS',
        '',
        '## Evidence hash deltas',
        '',
        '- KSI-AC-02: H -> H',
        '- KSI-SC-08: H -> H',
        '',
        '## Status counts',
        '',
        '- FAIL: 2 -> 1',
        '- WARN: 1 -> 1',
        '- PASS: 2 -> 3',
        '',
      ].join('\n'),
    );
  });

  it('agrees with the content hashes the bundle records', () => {
    const out = join(tmp, 'for-diff');
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', out]);
    const entry = JSON.parse(readFileSync(join(out, 'evidence-bundle.json'), 'utf8')).entries.find((e: { ksi_id: string }) => e.ksi_id === 'KSI-SC-08');
    expect(svc(['ir', 'diff', SAMPLE, SAMPLE_B]).stdout).toContain(`- KSI-SC-08: ${entry.content_hash.slice(7, 19)} -> `);
  });
});

describe('single artifacts', () => {
  it('ir evidence-bundle writes the same evidence-bundle.json as the auditor bundle', () => {
    const out = join(tmp, 'eb.json');
    const run = svc(['ir', 'evidence-bundle', SAMPLE, '--out', out]);
    expect(run.stdout).toMatch(new RegExp(`^Evidence bundle written to ${out}\nEntries: 5\nMerkle root: sha256:[0-9a-f]{64}\n$`));
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', join(tmp, 'eb-bundle')]);
    expect(readFileSync(out)).toEqual(readFileSync(join(tmp, 'eb-bundle', 'evidence-bundle.json')));
  });

  it('ir governance-report prints the report; ir ssp-report writes the narrative', () => {
    const report = svc(['ir', 'governance-report', SAMPLE]).stdout;
    expect(report.split('\n').slice(5, 10)).toEqual([
      '- REMEDIATE | KSI-AC-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d',
      '- REMEDIATE | KSI-IA-02 | sev=Critical | owner=identity-team@agency.example | SLA=7d',
      '- REMEDIATE | KSI-AU-02 | sev=Medium | owner=secops-team@agency.example | SLA=30d',
      '- MONITOR | KSI-CNA-01 | sev=Low | owner=compliance-team@agency.example | SLA=60d',
      '- MONITOR | KSI-SC-08 | sev=Low | owner=platform-team@agency.example | SLA=60d',
    ]);
    const out = join(tmp, 'ssp.md');
    expect(svc(['ir', 'ssp-report', SAMPLE, '--out', out]).stdout).toBe(`SSP narrative written to ${out}\n`);
    expect(readFileSync(out, 'utf8')).toContain('## ia-2.1 Multi-factor Authentication to Privileged Accounts\n\nImplementation status: planned\n');
  });

  it('evidence build merges reports, worst status per KSI', () => {
    const out = join(tmp, 'merged.json');
    const run = svc(['evidence', 'build', SAMPLE, SAMPLE_B, '--out', out]);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual(['Merged 2 reports into 5 entries', `Evidence bundle written to ${out}`]);
    const entries = JSON.parse(readFileSync(out, 'utf8')).entries;
    expect(entries.find((e: { ksi_id: string }) => e.ksi_id === 'KSI-AC-02').status).toBe('FAIL');
  });

  it('evidence graph traces a control of a bundle directory, in JSON, DOT and Mermaid', () => {
    const out = join(tmp, 'graph-bundle');
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', out]);
    const graph = JSON.parse(svc(['evidence', 'graph', out, '--control', 'ac-2']).stdout);
    expect(graph.nodes.map((n: { type: string }) => n.type)).toEqual(['control', 'ksi', 'policy', 'evidence', 'action', 'poam']);
    expect(graph.merkle_root).toBe(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).merkle_root);
    expect(svc(['evidence', 'graph', SAMPLE, '--control', 'ac-2', '--format', 'dot']).stdout).toMatch(
      /^digraph evidence \{\n {2}rankdir=LR;\n {2}"control:ac-2" \[label="ac-2 Account Management", shape=box\];\n/,
    );
    expect(svc(['evidence', 'graph', SAMPLE, '--control', 'ac-2', '--format', 'mermaid']).stdout).toMatch(
      /^graph LR\n {2}n0\["ac-2 Account Management"\]\n {2}n1\(\["KSI-AC-02 FAIL"\]\)\n/,
    );
  });
});

describe('catalog commands', () => {
  it('ksi list shows a family, a control, or all 163 as JSON', () => {
    expect(svc(['ksi', 'list', '--control', 'ia-2.1']).stdout).toBe(
      'KSI-IA-02   Critical   3d  identity-team@agency.example    Identification and Authentication (Organizational Users) [ia-2, ia-2.1, ia-2.2, ia-2.5, ia-2.6, ia-2.8, ia-2.12]\n',
    );
    expect(svc(['ksi', 'list', '--area', 'AC']).stdout.trim().split('\n')).toHaveLength(16);
    expect(JSON.parse(svc(['ksi', 'list', '--json']).stdout).ksis).toHaveLength(163);
  });

  it('canon check proves the catalog and compares a FedRAMP release', () => {
    const run = svc(['canon', 'check']);
    expect(run).toEqual({
      stdout:
        'Catalog: 163 KSIs in 18 families (FedRAMP Rev 5 Moderate Baseline 5.1.1+20231218-1)\nCrosswalk: 150 official KSIs, current release 2026.10.05.01\nConsistency: OK\n' +
        'CR26 rules 2026.10.05.01: 46 KSIs in 10 themes, 246 rules in 17 families; consistent\n',
      stderr: '',
      status: 0,
    });
    const release = svc(['canon', 'check', '--catalog', '../shared/reference/fedramp/fedramp-consolidated-rules.2026.07.14.01.json']);
    expect(release.stdout).toContain('Release 2026.07.14.01 compared with 2026.10.05.01\nAdded: 0\nRemoved: 0\n');
    expect(release.stdout).toMatch(/Coverage of 46 active KSIs: full \d+, partial \d+, none \d+, no controls \d+\n/);
  });

  it('canon check proves the CR26 rules in use: bundled, or the official file SVC_FEDRAMP_RULES names', () => {
    const official = svc(['canon', 'check', '--json'], {
      env: { SVC_FEDRAMP_RULES: '../shared/reference/fedramp/fedramp-consolidated-rules.2026.07.14.01.json' },
    });
    expect(JSON.parse(official.stdout).cr26).toEqual({
      version: '2026.07.14.01',
      date: '2026-07-14',
      consistency: { ok: true, counts: { rules: 246, families: 17, subsets: 54, ksis: 46, themes: 10, aliases: 86, retired: 273 }, problems: [] },
    });
    expect(svc(['canon', 'check'], { env: { SVC_FEDRAMP_RULES: 'missing.json' } })).toMatchObject({
      stderr: expect.stringContaining('missing.json (SVC_FEDRAMP_RULES): no such FedRAMP rules file; check the path'),
      status: 3,
    });
    const rules = JSON.parse(readFileSync(join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json'), 'utf8'));
    delete rules.KSI.IAM.indicators['KSI-IAM-APM'];
    writeFileSync(join(tmp, 'cr26-without-apm.json'), JSON.stringify(rules));
    expect(svc(['canon', 'check'], { env: { SVC_FEDRAMP_RULES: join(tmp, 'cr26-without-apm.json') } })).toEqual({
      stdout:
        'Catalog: 163 KSIs in 18 families (FedRAMP Rev 5 Moderate Baseline 5.1.1+20231218-1)\nCrosswalk: 150 official KSIs, current release 2026.10.05.01\nConsistency: OK\n' +
        'CR26 rules 2026.07.14.01: 45 KSIs in 10 themes, 246 rules in 17 families; 1 problem\n- FRC-CLA-MFR: related KSI-IAM-APM is not a rule or KSI\n',
      stderr: '',
      status: 1,
    });
  });
});

describe('svc.config.json', () => {
  it('overrides an owner and an SLA', () => {
    const dir = join(tmp, 'configured');
    mkdirSync(dir);
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ owners: { AC: 'iam@agency.example' }, sla_days: { Critical: 5 } }));
    const report = svc(['ir', 'governance-report', join(FIXTURES, 'sample-baseline.json')], { cwd: dir }).stdout;
    expect(report).toContain('- REMEDIATE | KSI-AC-02 | sev=Critical | owner=iam@agency.example | SLA=5d\n');
  });

  it('refuses a bad setting naming the file and the key', () => {
    const file = join(tmp, 'bad-config.json');
    writeFileSync(file, JSON.stringify({ sla_days: { Critical: -1 } }));
    const run = svc(['ksi', 'list'], { env: { SVC_CONFIG: file } });
    expect(run.status).toBe(3);
    expect(run.stderr).toBe(`Error: ${file}: sla_days.Critical: expected a positive whole number of days, got number -1; see docs/configuration.md\n`);
  });
});
