import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { ProcessRun } from '../../../../src/application/conmon/process-run';
import { SdrBuilder } from '../../../../src/application/fedramp/sdr-builder';
import { WriteSdr, type WriteSdrInput } from '../../../../src/application/fedramp/write-sdr';
import type { FedrampProfile } from '../../../../src/domain/fedramp/profile';
import type { SdrDocument, SdrKsiEntry } from '../../../../src/domain/fedramp/sdr';
import { VENDOR_PARSERS } from '../../../../src/infrastructure/scans/registry';
import { SCAN_READER } from '../../../../src/ports/scan-reader';
import { FixedScanReader } from '../../../fakes/fixed-scan-reader';
import { TEST_SETTINGS } from '../../../support/builders';
import { unitContainer, type UnitOptions } from '../../../support/unit-container';
import catalogData from '../../../../src/domain/catalog/data/ksi-catalog.json';
import rulesData from '../../../../src/domain/fedramp/data/cr26-rules.json';

// WriteSdr (`svc fedramp sdr <report>`) and SdrBuilder.buildLatest (the trust center's SDR of the store's state) over the
// unit container's doubles, with SCAN_READER bound to the scanners svc reads as the composition root binds it (each
// parser declares its evidence type: Prowler, Checkov and Kubescape `Configuration`, Trivy `Report`). The report is the
// one of test/unit/application/fedramp/write-package.test.ts: Prowler, observed the day before NOW, KSI-IAM-APM passing,
// KSI-CNA-RNT failing, and a result keyed by the catalog's KSI-AC-02 (no checks, WARN, two weeks old) that reaches every
// CR26 KSI sharing ac-2. Every expected value is worked out by hand from it and the rules data (2026.10.05.01); an
// evidence location ends in the result's content hash, the SHA-256 of its canonical evidence entry without
// observed_at (docs/artifacts.md), written out below.

const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const NOW = '2026-11-25T00:00:00Z';
const CONFIG = '/work/svc.config.json';
const PACKAGE_URI = 'https://trust.example.com/fedramp/cpo.json';
/** With a trailing slash, which an evidence link does not repeat. */
const PROFILE: FedrampProfile = {
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2611250001',
  package_uri: PACKAGE_URI,
  evidence_base_uri: 'https://trust.example.com/fedramp/',
};
const EVIDENCE = 'https://trust.example.com/fedramp/evidence';
const SCANNERS = new FixedScanReader(Object.fromEntries(VENDOR_PARSERS.map((p) => [p.info.vendor, p.info])));

const report = (observed: string, ...extra: object[]) => ({
  schema_version: '1',
  generated_at: observed,
  source: { tool: 'Prowler', version: '5.0.0' },
  results: [
    { ksi_id: 'KSI-IAM-APM', status: 'PASS', observed_at: observed, checks: [{ id: 'iam_root_mfa_enabled', status: 'PASS' }] },
    { ksi_id: 'KSI-CNA-RNT', status: 'FAIL', observed_at: observed, checks: [{ id: 'vpc_flow_logs_enabled', status: 'FAIL' }] },
    ...extra,
  ],
});
const FRESH = report('2026-11-24T08:00:00Z', { ksi_id: 'KSI-AC-02', status: 'WARN', observed_at: '2026-11-10T08:00:00Z' });
const OLD = report('2026-05-04T08:00:00Z');
/** Another source (Kubescape) later on the same day. */
const KUBE = {
  schema_version: '1',
  generated_at: '2026-11-24T10:00:00Z',
  source: { tool: 'Kubescape', version: '3' },
  results: [{ ksi_id: 'KSI-CNA-RNT', status: 'PASS', observed_at: '2026-11-24T10:00:00Z', checks: [{ id: 'C-0260', status: 'PASS' }] }],
};
/** Kubescape's report of 2026-11-20, recorded after Prowler's of the 24th. */
const KUBE_LATE = { ...KUBE, generated_at: '2026-11-20T08:00:00Z', results: [{ ...KUBE.results[0], observed_at: '2026-11-20T08:00:00Z' }] };
/** Results without a report tool, each naming its own. */
const OWN_SOURCES = {
  schema_version: '1',
  generated_at: '2026-11-24T08:00:00Z',
  results: [
    { ksi_id: 'KSI-IAM-APM', status: 'PASS', source: 'Trivy 0.50.1', observed_at: '2026-11-24T08:00:00Z' },
    { ksi_id: 'KSI-IAM-AAM', status: 'PASS', source: 'Kubescape', observed_at: '2026-11-24T08:00:00Z' },
    { ksi_id: 'KSI-CED-RAT', status: 'PASS', source: 'Kubescape', evidence_kind: 'non-machine', observed_at: '2026-11-24T08:00:00Z' },
    { ksi_id: 'KSI-CNA-RNT', status: 'PASS', source: 'AWS CloudTrail', observed_at: '2026-11-24T08:00:00Z' },
    { ksi_id: 'KSI-SVC-SIN', status: 'PASS' },
  ],
};
const STATEMENTS = [
  '# Statements',
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
].join('\n');
const FILES = {
  '/work/fresh.json': FRESH,
  '/work/old.json': OLD,
  '/work/kube.json': KUBE,
  '/work/kube-late.json': KUBE_LATE,
  '/work/own-sources.json': OWN_SOURCES,
  '/work/not-a-report.json': { findings: [] },
  '/work/statements.md': STATEMENTS,
  '/work/bad-statements.md': '## KSI-XYZ-ABC\ntext\n',
};

const AC_02 = catalogData.ksis.find((k) => k.id === 'KSI-AC-02')!;
const HASH = {
  apm: hex('{"checks":[{"id":"iam_root_mfa_enabled","status":"PASS"}],"controls":[],"ksi_id":"KSI-IAM-APM","mapped":false,"policies":[],"status":"PASS"}'),
  cna: hex('{"checks":[{"id":"vpc_flow_logs_enabled","status":"FAIL"}],"controls":[],"ksi_id":"KSI-CNA-RNT","mapped":false,"policies":[],"status":"FAIL"}'),
  ac2: hex(
    `{"controls":${JSON.stringify(AC_02.controls)},"ksi_id":"KSI-AC-02","mapped":true,"policies":${JSON.stringify(AC_02.policies.map((p) => p.id))},"status":"WARN"}`,
  ),
  kube: hex('{"checks":[{"id":"C-0260","status":"PASS"}],"controls":[],"ksi_id":"KSI-CNA-RNT","mapped":false,"policies":[],"status":"PASS"}'),
};
/** The CR26 KSIs a result keyed by the catalog's KSI-AC-02 reaches: those naming ac-2 or an enhancement of it. */
const AC_2_KSIS = rulesData.ksis
  .filter((k: { controls: string[] }) => k.controls.some((c) => c.replace(/\.\d+$/, '') === 'ac-2'))
  .map((k: { id: string }) => k.id);
const ac2Evidence = {
  evidenceType: 'Configuration',
  evidenceDescription: 'Prowler result for ac-2: WARN',
  evidenceLocation: `${EVIDENCE}/${HASH.ac2}`,
  lastUpdated: '2026-11-10',
};

/** The use case over the doubles at NOW, after `conmon process` recorded `recorded` (fresh.json the day before by default). */
async function sdr(options: UnitOptions & { recorded?: [string, string][]; scanners?: boolean } = {}) {
  const { recorded = [['/work/fresh.json', '2026-11-24T09:00:00Z']], scanners = true, ...unit } = options;
  const d = unitContainer({ now: NOW, profile: PROFILE, files: FILES, ...unit });
  if (scanners) d.container.register(SCAN_READER, { useValue: SCANNERS });
  for (const [input, now] of recorded) await d.container.resolve(ProcessRun).execute({ input, now: new Date(now) });
  const write = (input: Partial<WriteSdrInput> = {}) => d.container.resolve(WriteSdr).execute({ input: '/work/fresh.json', out: '/out/sdr.json', ...input });
  const document = (path = '/out/sdr.json') =>
    JSON.parse(d.writer.files.get(path)!) as Omit<SdrDocument, 'keySecurityIndicators'> & {
      keySecurityIndicators: (Omit<SdrKsiEntry, 'ksiEvidence'> & { ksiEvidence: unknown[] })[];
    };
  const ksi = (id: string, path?: string) => document(path).keySecurityIndicators.find((k) => k.ksiId === id)!;
  const requirement = (id: string, path?: string) => document(path).fedRampRequirements.find((r) => r.frrID === id);
  return { ...d, write, document, ksi, requirement };
}

/** The rules svc judges for 20x Class B with a recorded run: both cadences, the methods, the metrics, the three vulnerability timeframes, the next OCR date. */
const SVC_JUDGED_20X_B = ['CCM-OCR-NRD', 'FRC-CSX-VVK', 'SDR-CSX-KMT', 'VDR-TFR-KEV', 'VDR-TFR-MVX', 'VDR-TFR-NMV', 'VDR-TFR-PVR', 'VER-TFR-EVU'];
const JUDGED = (asOf: string, results: number) => `run as of ${asOf} (${results} results)`;
const vulnerabilityStatement = (rule: string) =>
  `svc tracks every detected vulnerability across runs and judges it by ${rule} for Class B from the rules data: in run 1 (as of 2026-11-24T08:00:00Z), 0 groups are open and 0 late.`;

describe('WriteSdr (svc fedramp sdr), unit', () => {
  it('writes the SDR of a report and its twin, and says what it holds', async () => {
    const d = await sdr();
    const result = await d.write();
    const json = d.writer.files.get('/out/sdr.json')!;
    expect(result).toEqual({
      input: '/work/fresh.json',
      out: '/out/sdr.json',
      sha256: `sha256:${hex(json)}`,
      markdown: '/out/sdr.md',
      profile: { type: '20x', class: 'B' },
      rules: '2026.10.05.01',
      requirements: { total: 155, provider: 0, svc: 8, none: 147 },
      // KSI-IAM-APM: a pass and the WARN; KSI-CNA-RNT: a fail; the 8 other KSIs sharing ac-2: the WARN alone.
      ksis: { total: 46, implemented: 0, partially: 9, not_implemented: 1, no_evidence: 36 },
      evidence: 2 + 1 + 8,
    });
    expect([...d.writer.files.keys()]).toEqual(['/out/sdr.json', '/out/sdr.md']);
    expect(json).toBe(canonicalize(JSON.parse(json)));
    // Written, never recorded.
    expect(d.store.shared.journal).toHaveLength(0);
    expect(d.store.shared.runs).toHaveLength(1);
  });

  it('names the package, carries SDR-CSO-MTD metadata, and has an entry for every applicable rule: svc’s judgments, the rest without a statement', async () => {
    const d = await sdr();
    await d.write();
    const document = d.document();
    expect(Object.keys(document).sort()).toEqual(['certificationPackageOverviewUri', 'fedRampRequirements', 'keySecurityIndicators', 'ksiMetrics', 'metadata']);
    expect(document.certificationPackageOverviewUri).toBe(PACKAGE_URI);
    expect(document.metadata).toEqual({
      version: `2026-11-25-${hex(JSON.stringify(FRESH)).slice(0, 12)}`,
      lastUpdated: NOW,
      updateSource: `svc fedramp sdr fresh.json (svc ${TEST_SETTINGS.tool.version})`,
    });
    expect(document.fedRampRequirements).toHaveLength(155);
    const judged = document.fedRampRequirements.filter((r) => !r.frrImplementation[0].startsWith('No statement supplied'));
    expect(judged.map((r) => r.frrID)).toEqual(SVC_JUDGED_20X_B);
    const run = JUDGED('2026-11-24T08:00:00Z', 3);
    expect(judged).toEqual([
      {
        frrID: 'CCM-OCR-NRD',
        frrImplementationStatus: 'Implemented',
        frrImplementation: [
          "svc writes the target date of the next Ongoing Certification Report into the CPO (serviceProperties.nextOngoingCertificationReportDate): 2027-02-25, 3 months after the CPO's date while no OCR is recorded.",
        ],
      },
      // FRC-CSX-VVK asks Class B 1 method: the 10 KSIs a result reaches have one or more, the 36 others none.
      {
        frrID: 'FRC-CSX-VVK',
        frrImplementationStatus: 'Partially Implemented',
        frrImplementation: [
          `svc counted the automated validation methods (distinct tool and check pairs) of each KSI in the ${run}: 10 of 46 KSIs have at least 1.`,
        ],
      },
      {
        frrID: 'SDR-CSX-KMT',
        frrImplementationStatus: 'Implemented',
        frrImplementation: [
          "The SDR's ksiMetrics carries, for every KSI, its status per day over the last 30 days and the last year, from 1 day of recorded runs (svc conmon process).",
        ],
      },
      { frrID: 'VDR-TFR-KEV', frrImplementationStatus: 'Implemented', frrImplementation: [vulnerabilityStatement('VDR-TFR-KEV')] },
      // 7 days before NOW is 2026-11-18: the WARN of 2026-11-10 is stale.
      {
        frrID: 'VDR-TFR-MVX',
        frrImplementationStatus: 'Partially Implemented',
        frrImplementation: [
          `svc measured the machine-based evidence of the ${run} against VDR-TFR-MVX's cadence of 7 days: 2 of 3 fresh, the oldest observed 2026-11-10T08:00:00Z.`,
        ],
      },
      {
        frrID: 'VDR-TFR-NMV',
        frrImplementationStatus: 'Implemented',
        frrImplementation: [`The ${run} holds no non-machine evidence; svc would judge it by VDR-TFR-NMV's 3 months.`],
      },
      { frrID: 'VDR-TFR-PVR', frrImplementationStatus: 'Implemented', frrImplementation: [vulnerabilityStatement('VDR-TFR-PVR')] },
      { frrID: 'VER-TFR-EVU', frrImplementationStatus: 'Implemented', frrImplementation: [vulnerabilityStatement('VER-TFR-EVU')] },
    ]);
    expect(d.requirement('AFC-CSO-INB')).toEqual({
      frrID: 'AFC-CSO-INB',
      frrImplementation: [
        'No statement supplied: the provider has not yet written how this rule is met (statements file: a "## AFC-CSO-INB" heading and the statement under it).',
      ],
    });
  });

  it('lists every KSI with its evidence entries: each result that reaches it, typed as its scanner declares, linked by its content hash', async () => {
    const d = await sdr();
    await d.write();
    expect(d.document().keySecurityIndicators.map((k) => k.ksiId)).toEqual(rulesData.ksis.map((k: { id: string }) => k.id));
    const validation = (methods: number, month: string) =>
      `svc validates this KSI with ${methods} automated methods (tool and check pairs) on every recorded run; FRC-CSX-VVK asks at least 1 (SHOULD); machine-based evidence every 7 days (VDR-TFR-MVX, MUST); last 30 days: ${month}`;
    expect(d.ksi('KSI-IAM-APM')).toEqual({
      ksiId: 'KSI-IAM-APM',
      ksiImplementationStatus: 'Partially Implemented',
      ksiImplementation: [
        'Generated by svc (no provider statement): 2 results from Prowler reach this KSI (1 keyed by its id, 1 through shared NIST SP 800-53 controls): 1 pass, 0 fail, 1 other.',
      ],
      ksiValidation: [`${validation(2, '0 implemented, 1 partially, 0 not implemented, 29 without evidence')}; history recorded since 2026-11-24.`],
      ksiAssessment: [],
      // The result without checks is its own check, named as CR26 documents name the catalog's KSI-AC-02: ac-2.
      ksiTests: ['Prowler:ac-2', 'Prowler:iam_root_mfa_enabled'],
      ksiEvidence: [
        {
          evidenceType: 'Configuration',
          evidenceDescription: 'Prowler result for KSI-IAM-APM: PASS',
          evidenceLocation: `${EVIDENCE}/${HASH.apm}`,
          lastUpdated: '2026-11-24',
        },
        ac2Evidence,
      ],
    });
    expect(d.ksi('KSI-CNA-RNT')).toMatchObject({
      ksiImplementationStatus: 'Not Implemented',
      ksiImplementation: ['Generated by svc (no provider statement): 1 results from Prowler reach this KSI (1 keyed by its id): 0 pass, 1 fail, 0 other.'],
      ksiEvidence: [
        {
          evidenceType: 'Configuration',
          evidenceDescription: 'Prowler result for KSI-CNA-RNT: FAIL',
          evidenceLocation: `${EVIDENCE}/${HASH.cna}`,
          lastUpdated: '2026-11-24',
        },
      ],
    });
    expect(AC_2_KSIS).toHaveLength(9);
    for (const id of AC_2_KSIS.filter((k: string) => k !== 'KSI-IAM-APM')) {
      expect(d.ksi(id)).toMatchObject({ ksiImplementationStatus: 'Partially Implemented', ksiTests: ['Prowler:ac-2'], ksiEvidence: [ac2Evidence] });
    }
    expect(d.ksi('KSI-RPL-ABO')).toEqual({
      ksiId: 'KSI-RPL-ABO',
      ksiImplementation: ['Generated by svc (no provider statement): no result of the run reaches this KSI yet.'],
      ksiValidation: [`${validation(0, '0 implemented, 0 partially, 0 not implemented, 30 without evidence')}.`],
      ksiAssessment: [],
      ksiTests: [],
      ksiEvidence: [],
    });
  });

  it('carries every KSI’s metrics from the store, the report as the status of its day (no daily list for Class B)', async () => {
    const d = await sdr();
    await d.write();
    const metrics = d.document().ksiMetrics!;
    expect(Object.keys(metrics)).toEqual([...rulesData.ksis.map((k: { id: string }) => k.id)].sort());
    // The year from the first recorded day, 2026-11-24, to NOW's: 2 days.
    expect(metrics['KSI-IAM-APM']).toEqual({
      last30Days: { days: 30, implemented: 0, partially: 1, notImplemented: 0, noEvidence: 29 },
      lastYear: { days: 2, implemented: 0, partially: 1, notImplemented: 0, noEvidence: 1 },
    });
    expect(metrics['KSI-RPL-ABO']).toEqual({
      last30Days: { days: 30, implemented: 0, partially: 0, notImplemented: 0, noEvidence: 30 },
      lastYear: { days: 2, implemented: 0, partially: 0, notImplemented: 0, noEvidence: 2 },
    });
  });

  it('writes a twin from the same model: the header, the summary, the rules, each KSI with its evidence, the metrics', async () => {
    const d = await sdr();
    await d.write();
    const md = d.writer.files.get('/out/sdr.md')!;
    expect(md.split('\n').slice(0, 15)).toEqual([
      '# Security Decision Record',
      '',
      '- FedRAMP ID: FR2611250001',
      `- Certification Package Overview: ${PACKAGE_URI}`,
      '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
      `- Generated: ${NOW} by svc ${TEST_SETTINGS.tool.version}`,
      '- Machine-readable twin: sdr.json (written from the same model)',
      '',
      '## Summary',
      '',
      '- Profile: 20x Class B, program path, applying',
      `- Run: as of 2026-11-24T08:00:00Z, 3 results, from fresh.json (sha256:${hex(JSON.stringify(FRESH))})`,
      "- FedRAMP rules: 155 applicable; 0 with the provider's statement, 8 with svc's, 147 with no statement supplied",
      '- KSIs: 46 applicable; 0 Implemented, 9 Partially Implemented, 1 Not Implemented, 36 without evidence',
      '',
    ]);
    expect(md).toContain('| AFC-CSO-INB | Maintain a FedRAMP Security Inbox | MUST |  | none supplied |\n');
    expect(md).toContain("| VDR-TFR-MVX | Persistent Machine Verification and Validation for 20x | MUST | Partially Implemented | svc's |\n");
    expect(md.match(/^\| (?!KSI-)[A-Z]{3}-[A-Z]{3}-[A-Z]{3} \|/gm)).toHaveLength(155);
    // Only the rules with a statement get a section.
    expect(md).toContain(
      `### VDR-TFR-MVX\n\n> svc measured the machine-based evidence of the ${JUDGED('2026-11-24T08:00:00Z', 3)} against VDR-TFR-MVX's cadence of 7 days: 2 of 3 fresh, the oldest observed 2026-11-10T08:00:00Z.\n`,
    );
    expect(md).not.toContain('### AFC-CSO-INB');
    expect(md).toContain(
      [
        '### KSI-IAM-APM: Adopting Passwordless Methods',
        '',
        '- Status: Partially Implemented',
        '- Automated methods: 2 (FRC-CSX-VVK: at least 1)',
        '- Tests: `Prowler:ac-2`, `Prowler:iam_root_mfa_enabled`',
        '- Evidence entries: 2',
        '',
        'Implementation:',
        '',
        '> Generated by svc (no provider statement): 2 results from Prowler reach this KSI (1 keyed by its id, 1 through shared NIST SP 800-53 controls): 1 pass, 0 fail, 1 other.',
        '',
        'Validation:',
        '',
        '> svc validates this KSI with 2 automated methods (tool and check pairs) on every recorded run; FRC-CSX-VVK asks at least 1 (SHOULD); machine-based evidence every 7 days (VDR-TFR-MVX, MUST); last 30 days: 0 implemented, 1 partially, 0 not implemented, 29 without evidence; history recorded since 2026-11-24.',
        '',
        '| Type | Evidence | Location | Updated |',
        '|---|---|---|---|',
        `| Configuration | Prowler result for KSI-IAM-APM: PASS | ${EVIDENCE}/${HASH.apm} | 2026-11-24 |`,
        `| Configuration | Prowler result for ac-2: WARN | ${EVIDENCE}/${HASH.ac2} | 2026-11-10 |`,
        '',
        '### KSI-IAM-ELP',
      ].join('\n'),
    );
    expect(md).toContain(
      '### KSI-RPL-ABO: Aligning Backups with Objectives\n\n- Status: no evidence\n- Automated methods: 0 (FRC-CSX-VVK: at least 1)\n- Tests: none\n- Evidence entries: 0\n',
    );
    expect(md).toContain(
      '## KSI metrics (SDR-CSX-KMT)\n\nDays by status: implemented / partially / not implemented / no evidence.\n\n| KSI | Last 30 days | Last year (days) |\n|---|---|---|\n',
    );
    expect(md).toContain('| KSI-IAM-APM | 0 / 1 / 0 / 29 | 0 / 1 / 0 / 1 (2) |\n');
    // The last KSI by id, KSI-SVC-VRI, ends it.
    expect(md.endsWith('| KSI-SVC-VRI | 0 / 0 / 0 / 30 | 0 / 0 / 0 / 2 (2) |\n')).toBe(true);
  });

  it('types each result’s evidence by its own tool where the report names none: a scanner svc reads as its parser declares, another by its name; non-machine evidence is a Policy', async () => {
    const d = await sdr({ recorded: [] });
    await d.write({ input: '/work/own-sources.json' });
    const evidence = (id: string) => d.ksi(id).ksiEvidence as { evidenceType: string; evidenceDescription: string; lastUpdated?: string }[];
    expect(
      ['KSI-IAM-APM', 'KSI-IAM-AAM', 'KSI-CED-RAT', 'KSI-CNA-RNT', 'KSI-SVC-SIN'].map((id) =>
        evidence(id).map((e) => [e.evidenceType, e.evidenceDescription, e.lastUpdated]),
      ),
    ).toEqual([
      // Trivy's parser declares Report, whatever follows its name.
      [['Report', 'Trivy 0.50.1 result for KSI-IAM-APM: PASS', '2026-11-24']],
      [['Configuration', 'Kubescape result for KSI-IAM-AAM: PASS', '2026-11-24']],
      [['Policy', 'Kubescape result for KSI-CED-RAT: PASS', '2026-11-24']],
      // No parser: a log source by its name.
      [['Log', 'AWS CloudTrail result for KSI-CNA-RNT: PASS', '2026-11-24']],
      // No tool at all: `unknown`, a Report; dated by the report's generated_at.
      [['Report', 'unknown result for KSI-SVC-SIN: PASS', '2026-11-24']],
    ]);
    expect(d.ksi('KSI-IAM-APM').ksiTests).toEqual(['Trivy 0.50.1:KSI-IAM-APM']);
  });

  it('types a scanner svc reads by its name alone when SCAN_READER declares none (Kubescape: a Report)', async () => {
    const d = await sdr({ recorded: [], scanners: false });
    await d.write({ input: '/work/own-sources.json' });
    expect(d.ksi('KSI-IAM-AAM').ksiEvidence).toEqual([
      expect.objectContaining({ evidenceType: 'Report', evidenceDescription: 'Kubescape result for KSI-IAM-AAM: PASS' }),
    ]);
  });

  it('takes the KSIs’ history from the store: an older recorded run starts it and counts in the metrics', async () => {
    const d = await sdr({
      recorded: [
        ['/work/old.json', '2026-05-04T09:00:00Z'],
        ['/work/fresh.json', '2026-11-24T09:00:00Z'],
      ],
    });
    await d.write();
    // 2026-05-04 (Implemented: the old run's pass alone) to 2026-11-25: 28 + 30 + 31 + 31 + 30 + 31 + 25 = 206 days.
    expect(d.document().ksiMetrics!['KSI-IAM-APM']).toEqual({
      last30Days: { days: 30, implemented: 0, partially: 1, notImplemented: 0, noEvidence: 29 },
      lastYear: { days: 206, implemented: 1, partially: 1, notImplemented: 0, noEvidence: 204 },
    });
    expect(d.ksi('KSI-IAM-APM').ksiValidation[0]).toMatch(/; history recorded since 2026-05-04\.$/);
    expect(d.requirement('SDR-CSX-KMT')!.frrImplementation).toEqual([
      "The SDR's ksiMetrics carries, for every KSI, its status per day over the last 30 days and the last year, from 2 days of recorded runs (svc conmon process).",
    ]);
  });

  it('gives Class C the daily statuses, FRC-CSX-MOT’s 6 months and FRC-CSX-VVK’s 2 methods, judged from the store and the report', async () => {
    const d = await sdr({
      recorded: [
        ['/work/old.json', '2026-05-04T09:00:00Z'],
        ['/work/fresh.json', '2026-11-24T09:00:00Z'],
      ],
      profile: { ...PROFILE, class: 'C' },
    });
    const result = await d.write();
    expect(result.requirements).toEqual({ total: expect.any(Number), provider: 0, svc: 9, none: result.requirements.total - 9 });
    expect(d.document().ksiMetrics!['KSI-IAM-APM'].daily).toEqual([
      { date: '2026-05-04', status: 'Implemented' },
      { date: '2026-11-24', status: 'Partially Implemented' },
    ]);
    // 6 months before 2026-11-25: KSI-IAM-APM and KSI-CNA-RNT have a status since 2026-05-04; the 44 others none so early.
    expect(d.requirement('FRC-CSX-MOT')).toEqual({
      frrID: 'FRC-CSX-MOT',
      frrImplementationStatus: 'Partially Implemented',
      frrImplementation: ['svc keeps every run in its tamper-evident run store; 2 of 46 KSIs have a recorded history since 2026-05-25 or earlier (6 months).'],
    });
    // Only KSI-IAM-APM has 2 methods (iam_root_mfa_enabled and ac-2).
    expect(d.requirement('FRC-CSX-VVK')!.frrImplementation[0]).toMatch(/: 1 of 46 KSIs have at least 2\.$/);
    // Class C's 3 days: 2026-11-22 on.
    expect(d.requirement('VDR-TFR-MVX')!.frrImplementation[0]).toMatch(
      /against VDR-TFR-MVX's cadence of 3 days: 2 of 3 fresh, the oldest observed 2026-11-10T08:00:00Z\.$/,
    );
  });

  it('gives Class A the 7 KSIs FRC-CLA-MFR names', async () => {
    const d = await sdr({ profile: { ...PROFILE, class: 'A' } });
    const result = await d.write();
    expect(d.document().keySecurityIndicators.map((k) => k.ksiId)).toEqual([
      'KSI-CED-RAT',
      'KSI-CMT-LMC',
      'KSI-CNA-RNT',
      'KSI-IAM-AAM',
      'KSI-IAM-APM',
      'KSI-INR-RIR',
      'KSI-SVC-SIN',
    ]);
    // KSI-IAM-APM and KSI-IAM-AAM (through ac-2) partially, KSI-CNA-RNT not implemented; the 2 + 1 + 1 evidence entries.
    expect(result.ksis).toEqual({ total: 7, implemented: 0, partially: 2, not_implemented: 1, no_evidence: 4 });
    expect(result.evidence).toBe(4);
  });

  it("gives a Rev5 profile no KSIs or metrics and FRC-CSF-BSL's controls, with the statuses of the results that name them", async () => {
    const d = await sdr({ profile: { ...PROFILE, type: 'rev5' } });
    const result = await d.write();
    const document = d.document();
    expect(document).not.toHaveProperty('keySecurityIndicators');
    expect(document).not.toHaveProperty('ksiMetrics');
    expect(result.ksis).toEqual({ total: 0, implemented: 0, partially: 0, not_implemented: 0, no_evidence: 0 });
    expect(result.evidence).toBe(0);
    const listed = (rulesData.rules.find((r: { id: string }) => r.id === 'FRC-CSF-BSL') as unknown as { varies_by_class: { B: { rev5_controls: string[] } } })
      .varies_by_class.B.rev5_controls;
    expect(document.securityControls!.map((c) => c.controlId)).toEqual(listed);
    // KSI-AC-02's WARN names ac-2 (AC-02); the CR26 ids name no control.
    expect(result.controls).toEqual({ total: 155, with_status: 1 });
    expect(document.securityControls!.slice(0, 2)).toEqual([
      { controlId: 'AC-01', controlImplementationDescription: 'No statement supplied and no result of the run names this control.' },
      {
        controlId: 'AC-02',
        controlImplementationStatus: 'Partially Implemented',
        controlImplementationDescription: 'Generated by svc (no provider statement): 1 results of the run name this control: 0 pass, 0 fail, 1 other.',
      },
    ]);
    expect(d.requirement('SDR-CSF-CTF')).toEqual({
      frrID: 'SDR-CSF-CTF',
      frrImplementationStatus: 'Partially Implemented',
      frrImplementation: ["The SDR lists the 155 controls of the class's list; 1 have a status from the run's results."],
    });
    const md = d.writer.files.get('/out/sdr.md')!;
    expect(md).toContain('- Rev5 controls: 155; 1 with a status\n');
    expect(md).toContain("| AC-02 | Partially Implemented | svc's |\n");
    expect(md).not.toContain('## Key Security Indicators');
  });

  it("writes the provider's statements: a rule's with svc's judgment as validation, a KSI's under an earlier id with the word the schema has no value for kept", async () => {
    const d = await sdr({ profile: { ...PROFILE, statements: '/work/statements.md' } });
    const result = await d.write();
    expect(result.requirements).toEqual({ total: 155, provider: 1, svc: 7, none: 147 });
    expect(d.requirement('VDR-TFR-MVX')).toEqual({
      frrID: 'VDR-TFR-MVX',
      frrImplementationStatus: 'Partially Implemented',
      frrImplementation: ['We scan every 3 days.'],
      frrValidation: [
        'Alerts page the on-call.',
        `svc: svc measured the machine-based evidence of the ${JUDGED('2026-11-24T08:00:00Z', 3)} against VDR-TFR-MVX's cadence of 7 days: 2 of 3 fresh, the oldest observed 2026-11-10T08:00:00Z.`,
      ],
    });
    // The KSI's status is the run's; "Planned" is the provider's word, kept.
    expect(d.ksi('KSI-IAM-APM')).toMatchObject({
      ksiImplementationStatus: 'Partially Implemented',
      ksiImplementation: ['Passkeys only.', "Provider's status: Planned."],
    });
    expect(d.writer.files.get('/out/sdr.md')).toContain(
      "| VDR-TFR-MVX | Persistent Machine Verification and Validation for 20x | MUST | Partially Implemented | provider's |\n",
    );
  });

  it('writes the SDR of a report no run of the store holds: no vulnerability is judged without a recorded run', async () => {
    const d = await sdr({ recorded: [] });
    const result = await d.write();
    expect(result.requirements).toEqual({ total: 155, provider: 0, svc: 5, none: 150 });
    expect(d.requirement('VDR-TFR-PVR')!.frrImplementation[0]).toMatch(/^No statement supplied/);
    // The report is the history's one day.
    expect(d.document().ksiMetrics!['KSI-IAM-APM'].lastYear).toEqual({ days: 2, implemented: 0, partially: 1, notImplemented: 0, noEvidence: 1 });
  });

  it('names the files after sdr.json by default, and a twin beside any other name; a profile without a FedRAMP id says so', async () => {
    const d = await sdr({ profile: { ...PROFILE, fedramp_id: undefined } });
    const result = await d.write({ out: undefined });
    expect([result.out, result.markdown]).toEqual(['sdr.json', 'sdr.md']);
    expect([...d.writer.files.keys()]).toEqual(['./sdr.json', './sdr.md']);
    expect(d.writer.files.get('./sdr.md')).toContain('- FedRAMP ID: not assigned (fedramp.fedramp_id)\n');
    const named = await d.write({ out: '/out/decision' });
    expect([named.out, named.markdown]).toEqual(['/out/decision', '/out/decision.md']);
    expect(d.writer.files.get('/out/decision.md')).toContain('- Machine-readable twin: decision (written from the same model)\n');
  });

  describe('refuses before anything is written', () => {
    it.each<[string, FedrampProfile, string]>([
      [
        'class',
        { ...PROFILE, class: undefined },
        `${CONFIG}: fedramp.class: missing; svc fedramp sdr needs it: write A, B, C or D, or pass --class; see docs/configuration.md`,
      ],
      [
        'package_uri',
        { ...PROFILE, package_uri: undefined },
        `${CONFIG}: fedramp.package_uri: missing; svc fedramp sdr needs it: write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md`,
      ],
      [
        'evidence_base_uri',
        { ...PROFILE, evidence_base_uri: undefined },
        `${CONFIG}: fedramp.evidence_base_uri: missing; svc fedramp sdr needs it: write the URI evidence links start with, such as "https://trust.example.com/fedramp" (links are <uri>/evidence/<sha256>); see docs/configuration.md`,
      ],
    ])('a profile without %s, naming the key and the file', async (_key, profile, message) => {
      const d = await sdr({ profile });
      await expect(d.write()).rejects.toMatchObject({ code: 'invalid-config', message });
      expect(d.writer.files.size).toBe(0);
      expect(d.store.shared.runs).toHaveLength(1);
    });

    it('takes --class where the profile gives none', async () => {
      const d = await sdr({ profile: { ...PROFILE, class: undefined } });
      expect((await d.write({ class: 'B' })).profile).toEqual({ type: '20x', class: 'B' });
    });

    it.each<[string, Partial<WriteSdrInput>, FedrampProfile, string, string]>([
      ['an input that is not there', { input: '/work/missing.json' }, PROFILE, 'file-not-found', '/work/missing.json: no such input file; check the path'],
      [
        'an input that is not a report',
        { input: '/work/not-a-report.json' },
        PROFILE,
        'invalid-report',
        '/work/not-a-report.json: results: missing; a report object needs "results": [ ... ] (docs/report-format.md)',
      ],
      [
        'a statements file with an id that is none of CR26’s',
        {},
        { ...PROFILE, statements: '/work/bad-statements.md' },
        'invalid-statements',
        '/work/bad-statements.md:1: ## KSI-XYZ-ABC: not a CR26 rule or KSI id, an earlier FedRAMP id or a Rev5 control; write the id alone, such as "## KSI-IAM-APM", "## VDR-TFR-PVR" or "## AC-02 (01)"',
      ],
    ])('%s', async (_what, input, profile, code, message) => {
      const d = await sdr({ profile });
      await expect(d.write(input)).rejects.toMatchObject({ code, message });
      expect(d.writer.files.size).toBe(0);
      expect(d.store.shared.runs).toHaveLength(1);
      expect(d.store.shared.journal).toHaveLength(0);
    });

    it('an output that cannot be written: neither file is left', async () => {
      const d = await sdr();
      d.writer.failWriting = 'sdr.md';
      await expect(d.write()).rejects.toThrow('injected failure writing sdr.md');
      expect(d.writer.files.size).toBe(0);
    });

    it('a run store whose runs no longer verify', async () => {
      const d = await sdr();
      d.store.shared.runs[0].run.summary.as_of = '2026-11-23T08:00:00Z';
      await expect(d.write()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringMatching(/^memory: the hash chain does not match the summary of run 1 /),
      });
      expect(d.writer.files.size).toBe(0);
    });
  });
});

describe('SdrBuilder.buildLatest (the SDR of the store’s state), unit', () => {
  const latest = async (d: Awaited<ReturnType<typeof sdr>>) =>
    d.container.resolve(SdrBuilder).buildLatest({}, { command: 'svc fedramp sdr', jsonName: 'sdr.json' });

  it('is undefined for an empty store', async () => {
    const d = await sdr({ recorded: [] });
    expect(await latest(d)).toBeUndefined();
  });

  it('builds the SDR of every source’s latest run: their results together, their inputs named and digested as one, as of the newest', async () => {
    const d = await sdr({
      recorded: [
        ['/work/old.json', '2026-05-04T09:00:00Z'],
        ['/work/fresh.json', '2026-11-24T09:00:00Z'],
        ['/work/kube.json', '2026-11-24T11:00:00Z'],
      ],
    });
    const built = (await latest(d))!;
    const input = { name: 'fresh.json + kube.json', sha256: hex(`${hex(JSON.stringify(FRESH))}  fresh.json\n${hex(JSON.stringify(KUBE))}  kube.json\n`) };
    // Prowler's fresh run replaced its old one; Kubescape's is the newest.
    expect(built.run).toEqual({ asOf: '2026-11-24T10:00:00Z', results: 3 + 1, input });
    expect(built.model.document.metadata).toEqual({
      version: `2026-11-25-${input.sha256.slice(0, 12)}`,
      lastUpdated: NOW,
      updateSource: `svc fedramp sdr fresh.json + kube.json (svc ${TEST_SETTINGS.tool.version})`,
    });
    const cna = built.model.document.keySecurityIndicators!.find((k) => k.ksiId === 'KSI-CNA-RNT')!;
    expect({ ...cna, ksiEvidence: [...cna.ksiEvidence] }).toEqual({
      ksiId: 'KSI-CNA-RNT',
      ksiImplementationStatus: 'Partially Implemented',
      ksiImplementation: [
        'Generated by svc (no provider statement): 2 results from Kubescape, Prowler reach this KSI (2 keyed by its id): 1 pass, 1 fail, 0 other.',
      ],
      ksiValidation: [
        'svc validates this KSI with 2 automated methods (tool and check pairs) on every recorded run; FRC-CSX-VVK asks at least 1 (SHOULD); machine-based evidence every 7 days (VDR-TFR-MVX, MUST); last 30 days: 0 implemented, 1 partially, 0 not implemented, 29 without evidence; history recorded since 2026-05-04.',
      ],
      ksiAssessment: [],
      ksiTests: ['Kubescape:C-0260', 'Prowler:vpc_flow_logs_enabled'],
      // In seq order: Prowler's run, then Kubescape's; both scanners declare Configuration.
      ksiEvidence: [
        {
          evidenceType: 'Configuration',
          evidenceDescription: 'Prowler result for KSI-CNA-RNT: FAIL',
          evidenceLocation: `${EVIDENCE}/${HASH.cna}`,
          lastUpdated: '2026-11-24',
        },
        {
          evidenceType: 'Configuration',
          evidenceDescription: 'Kubescape result for KSI-CNA-RNT: PASS',
          evidenceLocation: `${EVIDENCE}/${HASH.kube}`,
          lastUpdated: '2026-11-24',
        },
      ],
    });
    // 2026-05-04: the old run's fail alone; 2026-11-24: the state's.
    expect(built.model.document.ksiMetrics!['KSI-CNA-RNT'].lastYear).toEqual({ days: 206, implemented: 0, partially: 1, notImplemented: 1, noEvidence: 204 });
    expect(built.markdown).toContain(`- Run: as of 2026-11-24T10:00:00Z, 4 results, from fresh.json + kube.json (sha256:${input.sha256})\n`);
    // The register judged at the SDR's time, on the newest run.
    expect(built.register.run?.seq).toBe(3);
  });

  // Found by Cr26Assessment's unit tests (issue 36): the newest run by as_of, not the last recorded, dates the state.
  it('counts each day of the metrics by the runs up to its end when a source’s older report is recorded last', async () => {
    const d = await sdr({
      recorded: [
        ['/work/old.json', '2026-05-04T09:00:00Z'],
        ['/work/fresh.json', '2026-11-24T09:00:00Z'],
        ['/work/kube-late.json', '2026-11-24T11:00:00Z'],
      ],
    });
    const built = (await latest(d))!;
    expect(built.model.document.ksiMetrics!['KSI-IAM-APM'].last30Days).toEqual({ days: 30, implemented: 1, partially: 1, notImplemented: 0, noEvidence: 28 });
  });
});
