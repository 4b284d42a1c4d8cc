import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import rulesData from '../../src/domain/fedramp/data/cr26-rules.json';
import { fedrampSchemaErrors, FEDRAMP_SCHEMAS } from '../support/fedramp-schemas';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';

const SCUBA = 'ScubaResults_fa5589b7-d528-4f80.json';
const EPOCH = String(Date.parse('2026-11-20T09:00:00Z') / 1000);
const NOW = '2026-11-25T00:00:00Z';
const PROFILE = {
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2611250001',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  evidence_base_uri: 'https://trust.example.com/fedramp/',
};

let tmp: string;
let work: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-fedramp-sdr-'));
  work = join(tmp, 'work');
  mkdirSync(work);
  copyFileSync(join(REFERENCE, 'raw-samples', 'scubagear', SCUBA), join(work, SCUBA));
  writeConfig(work, PROFILE);
  expect(inWork(['adapter', 'run-baseline', SCUBA, '--out', 'report.json']).status).toBe(0);
  expect(inWork(['conmon', 'process', 'report.json']).status).toBe(0);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function writeConfig(dir: string, fedramp: Record<string, unknown>): void {
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp }));
}
function inWork(args: string[], dir = work): SvcRun {
  return svc(args, { cwd: dir, env: { SVC_HOME: join(work, '.svc'), SOURCE_DATE_EPOCH: EPOCH, SVC_CACHE_DIR: join(tmp, 'cache') } });
}
const json = (file: string) => JSON.parse(readFileSync(join(work, file), 'utf8'));
const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(work, file)))
    .digest('hex');

type Sdr = {
  certificationPackageOverviewUri: string;
  metadata: Record<string, string>;
  fedRampRequirements: { frrID: string; frrImplementation: string[]; frrImplementationStatus?: string; frrValidation?: string[] }[];
  keySecurityIndicators: {
    ksiId: string;
    ksiImplementationStatus?: string;
    ksiImplementation: string[];
    ksiValidation: string[];
    ksiAssessment: string[];
    ksiTests: string[];
    ksiEvidence: Record<string, string>[];
  }[];
  ksiMetrics: Record<string, { last30Days: Record<string, number>; lastYear: Record<string, number>; daily?: unknown[] }>;
  securityControls?: { controlId: string; controlImplementationStatus?: string; controlImplementationDescription: string }[];
};

describe('svc fedramp sdr: the ScubaGear walkthrough run', () => {
  let sdr: Sdr;
  let run: SvcRun;
  beforeAll(() => {
    run = inWork(['fedramp', 'sdr', 'report.json', '--out', 'package/sdr.json', '--now', NOW]);
    sdr = json('package/sdr.json');
  });

  it('writes the SDR and its twin and says what it holds', () => {
    expect(run).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        `SDR written to package/sdr.json (sha256:${sha256('package/sdr.json')})`,
        'Markdown twin written to package/sdr.md',
        'Profile: 20x Class B (CR26 2026.10.05.01)',
        "FedRAMP rules: 155 (provider's statement 0, svc's 8, no statement supplied 147)",
        'KSIs: 46 (Implemented 4, Partially Implemented 16, Not Implemented 11, no evidence 15)',
        'Evidence entries: 86',
        '',
      ].join('\n'),
    });
  });

  it("is valid against FedRAMP's SDR schema (an independent validator)", () => {
    expect(fedrampSchemaErrors('sdr', sdr)).toEqual([]);
    expect(inWork(['fedramp', 'validate', 'package/sdr.json', '--schemas', FEDRAMP_SCHEMAS]).stdout).toMatch(/\nValid\n$/);
  });

  it('names the package and carries SDR-CSO-MTD metadata', () => {
    expect(sdr.certificationPackageOverviewUri).toBe(PROFILE.package_uri);
    expect(sdr.metadata).toEqual({
      version: expect.stringMatching(/^2026-11-25-[0-9a-f]{12}$/),
      lastUpdated: NOW,
      updateSource: 'svc fedramp sdr report.json (svc 0.5.0)',
    });
  });

  it('has an entry for every applicable rule, the rules read from the data independently', () => {
    const applicable = svc(['fedramp', 'rules', '--type', '20x', '--class', 'B', '--now', NOW, '--json']);
    const ids = (JSON.parse(applicable.stdout).rules as { id: string }[]).map((r) => r.id);
    expect(sdr.fedRampRequirements.map((r) => r.frrID)).toEqual(ids);
    expect(ids).toHaveLength(155);
    const none = sdr.fedRampRequirements.find((r) => r.frrID === 'AFC-CSO-INB')!;
    expect(none).toEqual({
      frrID: 'AFC-CSO-INB',
      frrImplementation: [
        'No statement supplied: the provider has not yet written how this rule is met (statements file: a "## AFC-CSO-INB" heading and the statement under it).',
      ],
    });
    expect(sdr.fedRampRequirements.find((r) => r.frrID === 'VDR-TFR-MVX')).toEqual({
      frrID: 'VDR-TFR-MVX',
      frrImplementationStatus: 'Not Implemented',
      frrImplementation: [
        "svc measured the machine-based evidence of the run as of 2026-11-20T09:00:00Z (26 results) against VDR-TFR-MVX's cadence of 7 days: 0 of 26 fresh, the oldest observed 2026-05-04T17:15:48Z.",
      ],
    });
  });

  it('has every one of the 46 KSIs with all six arrays; no assessor statement: ksiAssessment []', () => {
    expect(sdr.keySecurityIndicators.map((k) => k.ksiId)).toEqual(rulesData.ksis.map((k: { id: string }) => k.id));
    for (const k of sdr.keySecurityIndicators) {
      expect(
        Object.keys(k)
          .filter((key) => key !== 'ksiImplementationStatus')
          .sort(),
      ).toEqual(['ksiAssessment', 'ksiEvidence', 'ksiId', 'ksiImplementation', 'ksiTests', 'ksiValidation']);
      expect(k.ksiAssessment).toEqual([]);
    }
  });

  it('evaluates KSI-IAM-APM from the ScubaGear results that share its controls, field by field', () => {
    const apm = sdr.keySecurityIndicators.find((k) => k.ksiId === 'KSI-IAM-APM')!;
    const report = json('report.json') as { results: { ksi_id: string; status: string; checks: { id: string }[] }[] };
    const apmControls = rulesData.ksis.find((k: { id: string }) => k.id === 'KSI-IAM-APM')!.controls as string[];
    expect(apm.ksiImplementationStatus).toBe('Partially Implemented');
    expect(apm.ksiEvidence).toHaveLength(5);
    const catalog = JSON.parse(readFileSync(join(__dirname, '..', '..', 'src', 'domain', 'catalog', 'data', 'ksi-catalog.json'), 'utf8')).ksis as {
      id: string;
      control: string;
      controls: string[];
    }[];
    const contributing: string[] = [];
    for (const e of apm.ksiEvidence) {
      expect(Object.keys(e).sort()).toEqual(['evidenceDescription', 'evidenceLocation', 'evidenceType', 'lastUpdated']);
      expect(e.evidenceType).toBe('Configuration');
      expect(e.evidenceLocation).toMatch(/^https:\/\/trust\.example\.com\/fedramp\/evidence\/[0-9a-f]{64}$/);
      expect(e.lastUpdated).toBe('2026-05-04');
      // A result keyed by a KSI of svc's catalog is named by the NIST control it stands for: CR26 documents carry only CR26 ids.
      const [, control, status] = /^ScubaGear result for ([a-z]{2}-\d+): (PASS|WARN|FAIL)$/.exec(e.evidenceDescription)!;
      const id = catalog.find((k) => k.control === control)!.id;
      expect(report.results.find((r) => r.ksi_id === id)!.status).toBe(status);
      contributing.push(id);
    }
    const base = (c: string) => c.replace(/\.\d+$/, '');
    for (const id of contributing) expect(catalog.find((k) => k.id === id)!.controls.some((c) => apmControls.map(base).includes(base(c)))).toBe(true);
    const checks = new Set(report.results.filter((r) => contributing.includes(r.ksi_id)).flatMap((r) => r.checks.map((c) => `ScubaGear:${c.id}`)));
    expect(apm.ksiTests).toEqual([...checks].sort());
    expect(apm.ksiImplementation).toEqual([
      `Generated by svc (no provider statement): 5 results from ScubaGear reach this KSI (5 through shared NIST SP 800-53 controls): ${apm.ksiEvidence.filter((e) => e.evidenceDescription.endsWith('PASS')).length} pass, ${apm.ksiEvidence.filter((e) => e.evidenceDescription.endsWith('FAIL')).length} fail, ${apm.ksiEvidence.filter((e) => e.evidenceDescription.endsWith('WARN')).length} other.`,
    ]);
    expect(apm.ksiValidation).toEqual([
      `svc validates this KSI with ${apm.ksiTests.length} automated methods (tool and check pairs) on every recorded run; FRC-CSX-VVK asks at least 1 (SHOULD); machine-based evidence every 7 days (VDR-TFR-MVX, MUST); last 30 days: 0 implemented, 1 partially, 0 not implemented, 29 without evidence; history recorded since 2026-11-20.`,
    ]);
  });

  it('lists a KSI no result reaches without a status, and with no evidence', () => {
    const none = sdr.keySecurityIndicators.find((k) => k.ksiId === 'KSI-RPL-ABO')!;
    expect(none).toMatchObject({
      ksiImplementation: ['Generated by svc (no provider statement): no result of the run reaches this KSI yet.'],
      ksiTests: [],
      ksiEvidence: [],
    });
    expect(none.ksiImplementationStatus).toBeUndefined();
  });

  it('carries ksiMetrics for every KSI: the recorded run is the history (no daily data for class B)', () => {
    expect(Object.keys(sdr.ksiMetrics)).toHaveLength(46);
    expect(sdr.ksiMetrics['KSI-IAM-APM']).toEqual({
      last30Days: { days: 30, implemented: 0, partially: 1, notImplemented: 0, noEvidence: 29 },
      lastYear: { days: 6, implemented: 0, partially: 1, notImplemented: 0, noEvidence: 5 },
    });
  });

  it('writes a twin that names the FedRAMP id, the rules version and svc, and agrees with the JSON', () => {
    const md = readFileSync(join(work, 'package', 'sdr.md'), 'utf8');
    expect(md.split('\n').slice(0, 7)).toEqual([
      '# Security Decision Record',
      '',
      '- FedRAMP ID: FR2611250001',
      '- Certification Package Overview: https://trust.example.com/fedramp/cpo.json',
      '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
      `- Generated: ${NOW} by svc 0.5.0`,
      '- Machine-readable twin: sdr.json (written from the same model)',
    ]);
    expect(md).toContain('- KSIs: 46 applicable; 4 Implemented, 16 Partially Implemented, 11 Not Implemented, 15 without evidence');
    expect(md).toContain('### KSI-IAM-APM: Adopting Passwordless Methods');
    expect(md).toContain('| KSI-IAM-APM | 0 / 1 / 0 / 29 | 0 / 1 / 0 / 5 (6) |');
    expect(md.match(/^\| (?!KSI-)[A-Z]{3}-[A-Z]{3}-[A-Z]{3} \|/gm)).toHaveLength(155);
  });

  it('is byte-identical when written again (SOURCE_DATE_EPOCH, --now)', () => {
    const before = [sha256('package/sdr.json'), sha256('package/sdr.md')];
    expect(inWork(['fedramp', 'sdr', 'report.json', '--out', 'package/sdr.json', '--now', NOW]).status).toBe(0);
    expect([sha256('package/sdr.json'), sha256('package/sdr.md')]).toEqual(before);
  });
});

describe('svc fedramp sdr: statements, classes and types', () => {
  const dir = (name: string, fedramp: Record<string, unknown>, statements?: string) => {
    const d = join(work, name);
    mkdirSync(d, { recursive: true });
    writeConfig(d, { ...fedramp, ...(statements === undefined ? {} : { statements: 'statements.md' }) });
    if (statements !== undefined) writeFileSync(join(d, 'statements.md'), statements);
    return d;
  };
  const sdrIn = (d: string, ...flags: string[]) => inWork(['fedramp', 'sdr', join(work, 'report.json'), '--now', NOW, ...flags], d);

  it("writes the provider's statements, an earlier id resolved, Planned as Not Implemented with the word kept", () => {
    const d = dir(
      'statements',
      PROFILE,
      [
        '# Our statements',
        '',
        '## VDR-TFR-MVX',
        'We scan every 3 days.',
        '',
        '### Validation',
        'Alerts page the on-call.',
        '',
        '## KSI-IAM-02',
        'Passkeys only.',
        '### Status',
        'Planned',
        '',
      ].join('\n'),
    );
    expect(sdrIn(d).status).toBe(0);
    const sdr = JSON.parse(readFileSync(join(d, 'sdr.json'), 'utf8')) as Sdr;
    expect(fedrampSchemaErrors('sdr', sdr)).toEqual([]);
    expect(sdr.fedRampRequirements.find((r) => r.frrID === 'VDR-TFR-MVX')).toEqual({
      frrID: 'VDR-TFR-MVX',
      frrImplementationStatus: 'Not Implemented',
      frrImplementation: ['We scan every 3 days.'],
      frrValidation: ['Alerts page the on-call.', expect.stringMatching(/^svc: svc measured the machine-based evidence/)],
    });
    const apm = sdr.keySecurityIndicators.find((k) => k.ksiId === 'KSI-IAM-APM')!;
    expect(apm.ksiImplementation).toEqual(['Passkeys only.', "Provider's status: Planned."]);
    expect(apm.ksiImplementationStatus).toBe('Partially Implemented');
  });

  it.each([
    [
      'an unknown id',
      '## KSI-XYZ-ABC\ntext\n',
      'statements.md:1: ## KSI-XYZ-ABC: not a CR26 rule or KSI id, an earlier FedRAMP id or a Rev5 control; write the id alone, such as "## KSI-IAM-APM", "## VDR-TFR-PVR" or "## AC-02 (01)"',
    ],
    [
      'a repeated id',
      '## KSI-IAM-APM\na\n\n## KSI-IAM-02\nb\n',
      'statements.md:4: ## KSI-IAM-02: a second statement for KSI-IAM-APM (the first at line 1); merge them',
    ],
    [
      'an unknown section',
      '## KSI-IAM-APM\na\n### Evidence\nb\n',
      'statements.md:3: ### Evidence: not a section of a statement; write ### Implementation, ### Validation or ### Status',
    ],
    [
      'an unknown status',
      '## KSI-IAM-APM\na\n### Status\nDone\n',
      'statements.md:1: ## KSI-IAM-APM: ### Status "Done" is not a status; write Implemented, Partially Implemented, Not Implemented, Planned, Alternative Implementation, Not Applicable',
    ],
    [
      'an empty statement',
      '## KSI-IAM-APM\n\n## VDR-TFR-MVX\nx\n',
      'statements.md:1: ## KSI-IAM-APM has no statement; write the implementation under the heading, or remove it',
    ],
  ])('refuses a statements file with %s: exit 3, one line, nothing written', (_name, text, message) => {
    const d = dir(`bad-${_name.replace(/\W+/g, '-')}`, PROFILE, text);
    expect(sdrIn(d)).toEqual({ status: 3, stdout: '', stderr: `Error: ${join(d, message)}\n` });
    expect(existsSync(join(d, 'sdr.json'))).toBe(false);
  });

  it.each([
    ['evidence_base_uri', 'svc.config.json: fedramp.evidence_base_uri: missing; svc fedramp sdr needs it: write the URI evidence links start with'],
    ['package_uri', 'svc.config.json: fedramp.package_uri: missing; svc fedramp sdr needs it: write the URI of the Certification Package Overview'],
    ['class', 'svc.config.json: fedramp.class: missing; svc fedramp sdr needs it: write A, B, C or D, or pass --class; see docs/configuration.md'],
  ])('refuses a profile without %s before writing anything (exit 3)', (key, message) => {
    const { [key]: _gone, ...rest } = PROFILE as Record<string, unknown>;
    const d = dir(`no-${key}`, rest);
    const result = sdrIn(d);
    expect([result.status, result.stdout]).toEqual([3, '']);
    expect(result.stderr.startsWith(`Error: ${join(d, message)}`)).toBe(true);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(existsSync(join(d, 'sdr.json'))).toBe(false);
  });

  it('gives Class A its 7 KSIs, and Class C the daily statuses', () => {
    const a = dir('class-a', PROFILE);
    expect(sdrIn(a, '--class', 'A').stdout).toContain('KSIs: 7 (');
    expect(fedrampSchemaErrors('sdr', JSON.parse(readFileSync(join(a, 'sdr.json'), 'utf8')))).toEqual([]);
    const c = dir('class-c', PROFILE);
    expect(sdrIn(c, '--class', 'C').status).toBe(0);
    const sdr = JSON.parse(readFileSync(join(c, 'sdr.json'), 'utf8')) as Sdr;
    expect(fedrampSchemaErrors('sdr', sdr)).toEqual([]);
    expect(sdr.ksiMetrics['KSI-IAM-APM'].daily).toEqual([{ date: '2026-11-20', status: 'Partially Implemented' }]);
  });

  it("gives a Rev5 Class B profile no KSIs and FRC-CSF-BSL's Class B controls as securityControls[]", () => {
    const d = dir('rev5', { ...PROFILE, type: 'rev5' });
    const result = sdrIn(d);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\nRev5 controls: 155 \(\d+ with a status\)\n$/);
    const sdr = JSON.parse(readFileSync(join(d, 'sdr.json'), 'utf8')) as Sdr;
    expect(fedrampSchemaErrors('sdr', sdr)).toEqual([]);
    expect(sdr.keySecurityIndicators).toBeUndefined();
    expect(sdr.securityControls!.map((c) => c.controlId)).toEqual(
      (rulesData.rules.find((r: { id: string }) => r.id === 'FRC-CSF-BSL') as { varies_by_class: { B: { rev5_controls: string[] } } }).varies_by_class.B
        .rev5_controls,
    );
    expect(sdr.securityControls![0].controlId).toBe('AC-01');
    expect(sdr.securityControls!.find((c) => c.controlId === 'AC-02')).toMatchObject({ controlImplementationStatus: expect.any(String) });
  });

  it('--class Z is a usage error (exit 2)', () => {
    expect(sdrIn(dir('usage', PROFILE), '--class', 'Z')).toEqual({
      status: 2,
      stdout: '',
      stderr: 'Error: --class Z: not a Certification Class; write A, B, C or D\n',
    });
  });
});
