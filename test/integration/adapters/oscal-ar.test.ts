import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { oscalAr } from '../../../src/infrastructure/scans/vendors/oscal-ar';
import { lulaDocument, NIST_AR, OTHER_MODELS, SAMPLE_REPORT, svcSar } from '../../support/oscal-ar-documents';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, readWith, scratchFolder } from '../../support/adapters';

const PROVENANCE = provenanceOf('oscal-ar');
const NOW = '2026-11-21T00:00:00Z';
const MAPPING = 'the control of each finding target-id (objective or statement part dropped)';

const { write } = scratchFolder('svc-oscal-ar-');

const statusOf = (report: { results: { ksi_id: string; status: string }[] }, ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;

/** An assessment-results document of one result holding `parts` (findings, observations, risks). */
const aDocument = (parts: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  'assessment-results': {
    uuid: '0d5d3c2b-1a09-4f87-8e6d-5c4b3a291807',
    metadata: { title: 'Quarterly assessment', 'last-modified': '2026-03-01T00:00:00Z', version: '1', 'oscal-version': '1.1.3', ...metadata },
    'import-ap': { href: '#x' },
    results: [
      {
        uuid: 'a0000000-0000-4000-8000-000000000001',
        title: 'Q1',
        description: 'Q1 results',
        start: '2026-03-01T09:00:00Z',
        'reviewed-controls': { 'control-selections': [{ 'include-all': {} }] },
        ...parts,
      },
    ],
  },
});
const aFinding = (targetId: string, state: string, extra: Record<string, unknown> = {}) => ({
  uuid: `f-${targetId}`,
  title: `Finding on ${targetId}`,
  description: 'd',
  target: { type: 'objective-id', 'target-id': targetId, status: { state } },
  ...extra,
});

describe("OSCAL assessment-results adapter on NIST's example (IFA GoodRead, June 2023)", () => {
  const raw = JSON.parse(readFileSync(NIST_AR, 'utf8'))['assessment-results'];
  const result = raw.results[0];

  it('makes one check per finding, from its target, with the evidence of the observation it relates to', async () => {
    // Counted by hand in the file: 1 result holding 1 finding (target ac-6.1_obj, not-satisfied), 2 observations (the
    // finding relates to the first, 8807eb6e), 1 risk (0cfa750e, status investigating, no characterizations).
    expect([raw.results.length, result.findings.length, result.observations.length, result.risks.length]).toEqual([1, 1, 2, 1]);
    expect(result.findings[0]['related-observations']).toEqual([{ 'observation-uuid': result.observations[0].uuid }]);
    const scan = await readWith(oscalAr, NIST_AR);
    expect(scan).toEqual({
      vendor: 'oscal-ar',
      // No tool prop and no Lula: the party in the assessor role (metadata.responsible-parties).
      tool: 'Amy Assessor',
      observed_at: '2023-06-02T12:46:51Z', // the result's end, 2023-06-02T08:46:51-04:00
      mapping: `${MAPPING}; 1 of 2 observations related to no finding (not checks)`,
      detections: 'configuration',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      checks: [
        {
          id: 'ac-6.1_obj',
          outcome: 'fail',
          // The related risk has no characterizations; its status "investigating" is an open risk.
          criticality: 'must',
          severity: 'risk investigating',
          controls: ['ac-6.1'],
          title: "GoodRead AwesomeCloud Account's System Engineer Role Permits High Risk Actions",
          resource: 'component 551b9706-d6a4-4d25-8207-f2ccec548b89',
          details:
            'not-satisfied; Test AwesomeCloud IAM Roles for least privilege design and implementation. [TEST; component 551b9706-d6a4-4d25-8207-f2ccec548b89; collected 2023-06-02T12:31:20Z]',
        },
      ],
    });
  });

  it('fails KSI-AC-06 and makes one configuration detection', async () => {
    const scan = await readWith(oscalAr, NIST_AR);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status, r.source])).toEqual([['KSI-AC-06', 'FAIL', 'Amy Assessor']]);
    expect(summary).toMatchObject({ checks: 1, ksis: 1, unmapped_checks: [], not_assessed: [] });
    const detections = detectionsOf(scan, NOW, new PureJsHashing());
    expect(detections).toEqual([
      {
        id: expect.stringMatching(/^VULN-[0-9a-f]{20}$/),
        source: 'Amy Assessor',
        finding_id: 'ac-6.1_obj',
        resource: 'component 551b9706-d6a4-4d25-8207-f2ccec548b89',
        title: "GoodRead AwesomeCloud Account's System Engineer Role Permits High Risk Actions",
        scanner_severity: 'risk investigating',
        detected_at: '2023-06-02T12:46:51Z',
        kind: 'configuration',
      },
    ]);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('OSCAL assessment-results adapter on what svc generate sar writes', () => {
  const input = JSON.parse(readFileSync(SAMPLE_REPORT, 'utf8')) as { results: { ksi_id: string; status: string }[] };

  it('reads back the status of every KSI of the catalog, and the one outside it as an unmapped check', async () => {
    const path = write('sar.json', await svcSar());
    const scan = await readWith(oscalAr, path);
    // fixtures/sample-baseline.json: 5 results, KSI-IA-02 FAIL, KSI-AC-02 FAIL, KSI-AU-02 WARN, KSI-SC-08 PASS,
    // KSI-CNA-01 PASS (outside the catalog: svc writes its finding on a statement-id, "KSI-CNA-01").
    expect(input.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-IA-02', 'FAIL'],
      ['KSI-AC-02', 'FAIL'],
      ['KSI-AU-02', 'WARN'],
      ['KSI-SC-08', 'PASS'],
      ['KSI-CNA-01', 'PASS'],
    ]);
    expect(scan).toMatchObject({
      vendor: 'oscal-ar',
      tool: 'svc',
      version: '0.5.0',
      observed_at: '2026-11-20T12:00:00Z',
      mapping: MAPPING,
      detections: 'configuration',
    });
    expect(scan.checks).toHaveLength(5);
    expect(outcomes(scan.checks)).toEqual({ fail: 3, pass: 2 });
    // svc's risks say impact high for a FAIL of a Critical or High KSI, moderate for a WARN (one severity lower).
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls, c.severity])).toEqual([
      ['ac-2_obj', 'fail', 'must', ['ac-2'], 'impact high'],
      ['au-2_obj', 'fail', 'should', ['au-2'], 'impact moderate'],
      ['KSI-CNA-01', 'pass', 'should', [], undefined],
      ['ia-2_obj', 'fail', 'must', ['ia-2'], 'impact high'],
      ['sc-8_obj', 'pass', 'should', ['sc-8'], undefined],
    ]);
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    const original = new Map(input.results.map((r) => [r.ksi_id, r.status]));
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual(report.results.map((r) => [r.ksi_id, original.get(r.ksi_id)]));
    expect(report.results.map((r) => r.ksi_id)).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-IA-02', 'KSI-SC-08']);
    expect(summary.unmapped_checks).toEqual(['KSI-CNA-01']);
  });

  it('keeps the observation svc wrote as the evidence: its description, method, subject, evidence link and time', async () => {
    const path = write('sar-evidence.json', await svcSar());
    const check = (await readWith(oscalAr, path)).checks.find((c) => c.id === 'ac-2_obj');
    expect(check?.details).toMatch(
      /^not-satisfied \(fail\); KSI-AC-02 reported FAIL: Three guest accounts have not signed in for more than 90 days and are still enabled\. Checks: MS\.AAD\.8\.1v1 FAIL\. \[TEST; component [0-9a-f-]{36}; #[0-9a-f-]{36}; collected 2026-11-02T14:03:40Z\]$/,
    );
    expect(check?.resource).toMatch(/^component [0-9a-f-]{36}$/);
  });
});

describe('OSCAL assessment-results adapter on Lula output', () => {
  it('reads each control once, from the newest result, names Lula and its version, and leaves Lula ids unmapped', async () => {
    const path = write('lula.json', lulaDocument());
    const scan = await readWith(oscalAr, path);
    // Two results (July, then June): ac-2 in both (July's satisfied supersedes June's not-satisfied), au-2 in July,
    // ID-1 in June only. 4 findings, 1 superseded: 3 checks. 4 observations, each related to its finding.
    expect(scan).toMatchObject({
      tool: 'Lula',
      version: '0.4.5',
      observed_at: '2026-07-01T10:00:00Z',
      mapping: `${MAPPING}; 1 finding superseded by a newer result on the same target`,
    });
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.controls])).toEqual([
      ['ac-2', 'pass', 'should', ['ac-2']],
      // Lula writes no risks: a not-satisfied finding without one warns.
      ['au-2', 'fail', 'should', ['au-2']],
      ['ID-1', 'fail', 'should', []],
    ]);
    expect(scan.checks[1].details).toBe(
      'not-satisfied; [TEST]: au-2 - a7377430-2328-4dc4-a9e2-b3f31dc1dff9 [TEST; file:///tmp/lula/resources.json; collected 2026-07-01T10:00:00Z]',
    );
    const { report, summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-02', 'PASS'],
      ['KSI-AU-02', 'WARN'],
    ]);
    expect(summary.unmapped_checks).toEqual(['ID-1']);
  });

  it('keeps the findings of results on different Lula targets apart', async () => {
    const document = lulaDocument() as { 'assessment-results': { results: { props: object[] }[] } };
    document['assessment-results'].results[1].props.push({ ns: 'https://docs.lula.dev/oscal/ns', name: 'target', value: 'staging' });
    const scan = await readWith(oscalAr, write('lula-targets.json', document));
    expect(scan.checks.map((c) => [c.id, c.outcome])).toEqual([
      ['ac-2', 'pass'],
      ['au-2', 'fail'],
      ['ac-2', 'fail'],
      ['ID-1', 'fail'],
    ]);
    expect(scan.mapping).toBe(MAPPING);
  });
});

describe('OSCAL assessment-results adapter: targets, risks and tools', () => {
  it('drops objective and statement parts from target-ids and takes the control itself', async () => {
    const ids = ['ac-2_smt.a', 'ac-2.1_obj.a-1', 'AC-2(1)', 'ia-5_obj', 'si-4', 'pt-2_smt', 'ID-1', 'KSI-IAM-MFA', 'ac-2_objective'];
    const path = write('targets.json', aDocument({ findings: ids.map((id) => aFinding(id, 'satisfied')) }));
    const scan = await readWith(oscalAr, path);
    expect(scan.checks.map((c) => [c.id, c.controls])).toEqual([
      ['ac-2_smt.a', ['ac-2']],
      ['ac-2.1_obj.a-1', ['ac-2.1']],
      ['AC-2(1)', ['ac-2.1']],
      ['ia-5_obj', ['ia-5']],
      ['si-4', ['si-4']],
      ['pt-2_smt', ['pt-2']],
      ['ID-1', []],
      ['KSI-IAM-MFA', []],
      ['ac-2_objective', []],
    ]);
    // No observation anywhere: no subject, and the state is the whole evidence.
    expect(scan.checks[0]).toEqual({
      id: 'ac-2_smt.a',
      outcome: 'pass',
      criticality: 'should',
      controls: ['ac-2'],
      title: 'Finding on ac-2_smt.a',
      details: 'satisfied',
    });
  });

  it('weighs a not-satisfied finding by its risks: a high facet or an open status is a must, a closed or low risk a should', async () => {
    const risk = (uuid: string, extra: Record<string, unknown>) => ({ uuid, title: 'r', description: 'r', statement: 'r', ...extra });
    const facets = (...pairs: [string, string][]) => ({
      characterizations: [{ origin: { actors: [] }, facets: pairs.map(([name, value]) => ({ name, system: 'https://fedramp.gov', value })) }],
    });
    const related = (...uuids: string[]) => ({ 'related-risks': uuids.map((u) => ({ 'risk-uuid': u })) });
    const path = write(
      'risks.json',
      aDocument({
        risks: [
          risk('r-high', { status: 'open', ...facets(['likelihood', 'low'], ['impact', 'High']) }),
          risk('r-low', { status: 'open', ...facets(['impact', 'low']) }),
          risk('r-likely', { status: 'closed', ...facets(['likelihood', 'high']) }),
          risk('r-open', { status: 'remediating' }),
          risk('r-accepted', { status: 'deviation-approved' }),
          risk('r-silent', {}),
        ],
        findings: [
          aFinding('ac-2', 'not-satisfied', related('r-high')),
          aFinding('ac-3', 'not-satisfied', related('r-low')),
          aFinding('ac-4', 'not-satisfied', related('r-likely')),
          aFinding('ac-5', 'not-satisfied', related('r-open')),
          aFinding('ac-6', 'not-satisfied', related('r-accepted')),
          aFinding('ac-7', 'not-satisfied', related('r-silent')),
          aFinding('ac-8', 'not-satisfied', related('r-low', 'r-high')),
          aFinding('ac-9', 'not-satisfied'),
          aFinding('ac-10', 'satisfied', related('r-silent')),
        ],
      }),
    );
    const scan = await readWith(oscalAr, path);
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.severity])).toEqual([
      ['ac-2', 'fail', 'must', 'impact High'],
      ['ac-3', 'fail', 'should', 'impact low'],
      // A likelihood alone does not weigh the risk: its status does.
      ['ac-4', 'fail', 'should', 'risk closed'],
      ['ac-5', 'fail', 'must', 'risk remediating'],
      ['ac-6', 'fail', 'should', 'risk deviation-approved'],
      // A risk without status or characterizations: the finding's own state decides.
      ['ac-7', 'fail', 'must', undefined],
      ['ac-8', 'fail', 'must', 'impact High'],
      ['ac-9', 'fail', 'should', undefined],
      ['ac-10', 'pass', 'should', undefined],
    ]);
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(['KSI-AC-02', 'KSI-AC-03', 'KSI-AC-07', 'KSI-AC-09', 'KSI-AC-10'].map((k) => statusOf(report, k))).toEqual(['FAIL', 'WARN', 'FAIL', 'WARN', 'PASS']);
  });

  it('keeps the reason, every related observation clipped to 300 characters, and counts the observations no finding relates to', async () => {
    const observation = (uuid: string, description: string) => ({
      uuid,
      description,
      methods: ['EXAMINE', 'INTERVIEW'],
      subjects: [{ 'subject-uuid': 's-1', type: 'inventory-item', title: 'web-01' }],
      'relevant-evidence': [{ href: 'https://evidence.example/1', description: 'e' }],
      collected: '2026-02-28T23:00:00-05:00',
    });
    const path = write(
      'evidence.json',
      aDocument({
        observations: [
          observation('o-1', 'Password policy\n  allows 8 characters.'),
          observation('o-2', 'x'.repeat(400)),
          observation('o-3', 'unrelated'),
          observation('o-4', 'unrelated too'),
        ],
        findings: [
          aFinding('ia-5', 'not-satisfied', {
            target: { type: 'objective-id', 'target-id': 'ia-5_obj', status: { state: 'not-satisfied', reason: 'weak' } },
            'related-observations': [{ 'observation-uuid': 'o-1' }, { 'observation-uuid': 'o-2' }],
          }),
        ],
      }),
    );
    const scan = await readWith(oscalAr, path);
    expect(scan.mapping).toBe(`${MAPPING}; 2 of 4 observations related to no finding (not checks)`);
    expect(scan.checks[0]).toMatchObject({ id: 'ia-5_obj', resource: 'web-01' });
    expect(scan.checks[0].details).toMatch(
      /^not-satisfied \(weak\); Password policy allows 8 characters\. \[EXAMINE, INTERVIEW; web-01; https:\/\/evidence\.example\/1; collected 2026-03-01T04:00:00Z\]; x{100,}…$/,
    );
    expect(scan.checks[0].details).toHaveLength(300);
  });

  it('names the tool from a tool prop, else the assessor party, else the title', async () => {
    const tool = async (metadata: Record<string, unknown>) =>
      (await readWith(oscalAr, write('tool.json', aDocument({ findings: [aFinding('ac-2', 'satisfied')] }, metadata)))).tool;
    expect(await tool({ props: [{ name: 'tool', value: 'compliance-trestle 3.4.0' }] })).toBe('compliance-trestle');
    expect(
      await tool({
        parties: [{ uuid: 'p-1', type: 'organization', name: 'Third-Party Assessor Inc.' }],
        'responsible-parties': [{ 'role-id': 'assessor', 'party-uuids': ['p-1'] }],
      }),
    ).toBe('Third-Party Assessor Inc.');
    expect(await tool({})).toBe('Quarterly assessment');
  });
});

describe('OSCAL assessment-results adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the root of another OSCAL model and the command that reads it', async () => {
    const ssp = OTHER_MODELS['system-security-plan'];
    await expect(readWith(oscalAr, ssp)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'wrong-oscal-model',
      message: `${ssp}: is an OSCAL system-security-plan, not a assessment-results; check an SSP with "svc oscal validate-ssp ${ssp}"; svc adapter run oscal-ar reads OSCAL assessment results`,
    });
    for (const [model, file] of Object.entries(OTHER_MODELS).filter(([m]) => m !== 'system-security-plan')) {
      await expect(readWith(oscalAr, file)).rejects.toMatchObject({
        code: 'wrong-oscal-model',
        message: `${file}: is an OSCAL ${model}, not a assessment-results; check it with "svc oscal validate ${file}"; svc adapter run oscal-ar reads OSCAL assessment results`,
      });
    }
  });

  it('refuses JSON with two OSCAL roots as not OSCAL', async () => {
    const twoRoots = write('two-roots.json', { 'assessment-results': {}, catalog: {} });
    await expect(readWith(oscalAr, twoRoots)).rejects.toMatchObject({
      code: 'not-oscal',
      message: `${twoRoots}: not an OSCAL document: root keys "assessment-results", "catalog"; expected exactly one of catalog, profile, component-definition, system-security-plan, assessment-plan, assessment-results, plan-of-action-and-milestones, mapping-collection`,
    });
  });

  it('names the place of a missing results list, target, unknown state and broken link', async () => {
    const shape = (path: string, place: string, problem: string) =>
      `${path}: ${place}: ${problem}; this is not OSCAL assessment results output as svc knows it (docs/adapters.md)`;
    const noResults = write('no-results.json', { 'assessment-results': { uuid: 'u', metadata: {} } });
    await expect(readWith(oscalAr, noResults)).rejects.toMatchObject({
      code: 'invalid-scan',
      message: shape(noResults, 'assessment-results.results', 'missing; an assessment-results document lists its results[], each with its findings[]'),
    });
    const noTarget = write('no-target.json', aDocument({ findings: [{ uuid: 'f', title: 't', description: 'd' }] }));
    await expect(readWith(oscalAr, noTarget)).rejects.toMatchObject({
      message: shape(noTarget, 'assessment-results.results[0].findings[0].target', 'missing; a finding names its target (type, target-id, status)'),
    });
    const badState = write('bad-state.json', aDocument({ findings: [aFinding('ac-2', 'other-than-satisfied')] }));
    await expect(readWith(oscalAr, badState)).rejects.toMatchObject({
      message: shape(
        badState,
        'assessment-results.results[0].findings[0].target.status.state',
        '"other-than-satisfied" is not an OSCAL target state; write satisfied or not-satisfied',
      ),
    });
    const broken = write(
      'broken-link.json',
      aDocument({ findings: [aFinding('ac-2', 'satisfied', { 'related-observations': [{ 'observation-uuid': 'nowhere' }] })] }),
    );
    await expect(readWith(oscalAr, broken)).rejects.toMatchObject({
      message: shape(
        broken,
        'assessment-results.results[0].findings[0].related-observations[0].observation-uuid',
        `"nowhere" is no observation of the document; "svc oscal validate ${broken}" lists every broken link`,
      ),
    });
  });
});
