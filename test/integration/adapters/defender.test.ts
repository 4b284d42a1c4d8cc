import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { defender } from '../../../src/infrastructure/scans/vendors/defender';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('defender', 'many_vulns.csv');
const PROVENANCE = provenanceOf('defender');
const rows = parse(readFileSync(SAMPLE, 'utf8'), { columns: true }) as Record<string, string>[];

const { write } = scratchFolder('svc-defender-');

const SUBSCRIPTION = '20ff7fc3-e762-44dd-bd96-b71116dcdc23';
const VMSS = `/subscriptions/${SUBSCRIPTION}/resourceGroups/myRg/providers/Microsoft.Compute/virtualMachineScaleSets/vmss1`;
/** One assessment as the REST list returns it (`resourceDetails` in lower case, no metadata unless expanded). */
const ASSESSMENT = {
  id: `${VMSS}/providers/Microsoft.Security/assessments/21300918-b2e3-0346-785f-c77ff57d243b`,
  name: '21300918-b2e3-0346-785f-c77ff57d243b',
  type: 'Microsoft.Security/assessments',
  properties: {
    resourceDetails: { source: 'Azure', id: VMSS },
    displayName: 'Install endpoint protection solution on virtual machine scale sets',
    status: { code: 'Healthy' },
  },
};
/** The same recommendation as a Resource Graph `securityresources` row (`Id`, metadata expanded). */
const GRAPH_ROW = {
  id: ASSESSMENT.id.replace('vmss1', 'vmss2'),
  name: ASSESSMENT.name,
  type: 'microsoft.security/assessments',
  subscriptionId: SUBSCRIPTION,
  properties: {
    resourceDetails: { Source: 'Azure', Id: VMSS.replace('vmss1', 'vmss2') },
    displayName: ASSESSMENT.properties.displayName,
    status: { code: 'Unhealthy', firstEvaluationDate: '2026-01-01T00:00:00Z' },
    metadata: { severity: 'High', displayName: ASSESSMENT.properties.displayName },
  },
};

describe('Defender adapter on the real recommendations CSV export', () => {
  it('reads every row with the outcome its state gives', async () => {
    const scan = await readWith(defender, SAMPLE);
    const count = (state: string) => rows.filter((r) => r.state === state).length;
    expect(rows).toHaveLength(4);
    expect(scan.checks).toHaveLength(rows.length);
    expect(outcomes(scan.checks)).toEqual({ fail: count('Unhealthy'), pass: count('Healthy') });
    expect(scan.checks.map((c) => c.id)).toEqual(rows.map((r) => r.recommendationName));
  });

  it('keeps the tool, the subscription and the export time', async () => {
    const scan = await readWith(defender, SAMPLE);
    expect(new Set(rows.map((r) => r.exportedTimestamp)).size).toBe(1);
    expect(scan).toMatchObject({
      vendor: 'defender',
      tool: 'Microsoft Defender for Cloud',
      tenant: rows[0].subscriptionId,
      observed_at: rows[0].exportedTimestamp,
    });
    expect(scan.version).toBeUndefined();
  });

  it('maps the security controls of the controls column, criticality from severity', async () => {
    const scan = await readWith(defender, SAMPLE);
    const byId = (id: string) => scan.checks.find((c) => c.id === id);
    expect(byId('f67fb4ed-d481-44d7-91e5-efadf504f74a')).toMatchObject({
      outcome: 'fail',
      criticality: 'should',
      severity: 'Low',
      controls: ['ac-4', 'sc-7'],
      title: 'Virtual networks should be protected by Azure Firewall',
      resource: rows[0].resourceId,
    });
    expect(byId('f0fb2a7e-16d5-849f-be57-86db712e9bd0')).toMatchObject({ outcome: 'fail', criticality: 'must', severity: 'High', controls: ['si-4'] });
    expect(byId('f1f2f7dc-7bd5-18bf-c403-cbbdb7ec3d68')).toMatchObject({ outcome: 'pass', controls: ['cm-6'] });
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
  });

  it('fails KSI-SI-04 on the High recommendation and warns on the network ones', async () => {
    const { report, summary } = reportFromScan(await readWith(defender, SAMPLE), PROVENANCE, '2026-11-21T00:00:00Z');
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-04', 'WARN'],
      ['KSI-CM-06', 'PASS'],
      ['KSI-SC-07', 'WARN'],
      ['KSI-SI-04', 'FAIL'],
    ]);
    expect(summary.statuses).toEqual({ PASS: 1, WARN: 2, FAIL: 1 });
    expect(report.results[2].checks?.map((c) => c.status)).toEqual(['WARN', 'WARN']);
    expect(summary.unmapped_checks).toEqual([]);
    expect(summary.not_assessed).toEqual([]);
  });
});

describe('Defender adapter on assessment JSON', () => {
  const notApplicable = {
    ...ASSESSMENT,
    properties: {
      ...ASSESSMENT.properties,
      status: { code: 'NotApplicable', cause: 'OffByPolicy', description: 'The effective policy for the assessment was evaluated to off' },
    },
  };

  it("reads the REST API's documented example wrapper and the REST body", async () => {
    const body = { value: [ASSESSMENT, notApplicable] };
    for (const document of [{ parameters: { 'api-version': '2020-01-01' }, responses: { '200': { body } } }, body]) {
      const scan = await readWith(defender, write('assessments.json', document));
      expect(scan).toMatchObject({ tenant: SUBSCRIPTION });
      expect(scan.observed_at).toBeUndefined();
      expect(scan.checks).toEqual([
        { id: ASSESSMENT.name, outcome: 'pass', criticality: 'should', controls: ['si-3'], title: ASSESSMENT.properties.displayName, resource: VMSS },
        expect.objectContaining({ outcome: 'not-applicable', details: 'The effective policy for the assessment was evaluated to off' }),
      ]);
    }
  });

  it('reads a single assessment (GET), bare or in the example wrapper', async () => {
    for (const document of [{ parameters: { $expand: 'links' }, responses: { '200': { body: notApplicable } } }, notApplicable]) {
      const scan = await readWith(defender, write('one.json', document));
      expect(scan.checks.map((c) => [c.id, c.outcome])).toEqual([[ASSESSMENT.name, 'not-applicable']]);
    }
  });

  it('reads Resource Graph rows, bare or under data, with the severity of the expanded metadata', async () => {
    for (const document of [[GRAPH_ROW], { count: 1, data: [GRAPH_ROW] }]) {
      const scan = await readWith(defender, write('graph.json', document));
      expect(scan.checks).toEqual([
        expect.objectContaining({ outcome: 'fail', criticality: 'must', severity: 'High', resource: GRAPH_ROW.properties.resourceDetails.Id }),
      ]);
      const { report } = reportFromScan(scan, PROVENANCE, '2026-11-21T00:00:00Z');
      expect(report.results).toEqual([expect.objectContaining({ ksi_id: 'KSI-SI-03', status: 'FAIL' })]);
    }
  });

  it('keeps a failed recommendation without severity as a should-check', async () => {
    const unhealthy = {
      ...ASSESSMENT,
      properties: { ...ASSESSMENT.properties, displayName: 'MFA should be enabled on accounts with owner permissions', status: { code: 'Unhealthy' } },
    };
    const scan = await readWith(defender, write('no-severity.json', [unhealthy]));
    expect(scan.checks[0]).toMatchObject({ outcome: 'fail', criticality: 'should', controls: ['ia-2', 'ac-2', 'ac-6'] });
    expect(scan.checks[0].severity).toBeUndefined();
  });
});

describe('Defender adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const NOW = '2026-11-21T00:00:00Z';
  const detect = async (path: string) => detectionsOf(await readWith(defender, path), NOW, new PureJsHashing());

  it('makes one configuration detection per unhealthy row of the real CSV, detected when its status changed', async () => {
    const detections = await detect(SAMPLE);
    // Counted by hand: grep -c '"Unhealthy"' on the sample = 3 (the 4th row is Healthy), each on its own resourceId.
    expect(detections).toHaveLength(3);
    expect(detections.every((d) => d.kind === 'configuration')).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Microsoft Defender for Cloud',
      finding_id: 'f67fb4ed-d481-44d7-91e5-efadf504f74a',
      resource:
        '/subscriptions/9cfbad7a-7369-42e4-bcce-7677c5b3a44b/resourcegroups/my_resource_group/providers/microsoft.network/virtualnetworks/my_virtual_network',
      title: 'Virtual networks should be protected by Azure Firewall',
      scanner_severity: 'Low',
      detected_at: '2021-09-28T15:07:10.398Z', // statusChangeDate 2021-09-28T15:07:10.3988407Z, to the millisecond; not exportedTimestamp
      kind: 'configuration',
    });
    expect(detections.map((d) => [d.scanner_severity, d.detected_at])).toEqual([
      ['Low', '2021-09-28T15:07:10.398Z'],
      ['High', '2021-09-28T15:07:23.118Z'],
      ['Medium', '2021-09-28T15:07:24.338Z'],
    ]);
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect(SAMPLE)).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });

  it("takes an assessment's status.statusChangeDate, never its firstEvaluationDate", async () => {
    const changed = {
      ...GRAPH_ROW,
      properties: {
        ...GRAPH_ROW.properties,
        status: { code: 'Unhealthy', firstEvaluationDate: '2026-01-01T00:00:00Z', statusChangeDate: '2026-03-01T12:00:00Z' },
      },
    };
    expect((await detect(write('changed.json', [changed])))[0].detected_at).toBe('2026-03-01T12:00:00Z');
    // The first evaluation may have been healthy; with no status change date and no export time, the run's time stands.
    expect((await detect(write('first.json', [GRAPH_ROW])))[0].detected_at).toBe(NOW);
  });
});

describe('Defender adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('reports truncated assessment JSON as invalid JSON naming the file', async () => {
    const text = JSON.stringify({ value: [ASSESSMENT, GRAPH_ROW] }, null, 2);
    const path = write('truncated.json', text.slice(0, Math.floor(text.length / 2)));
    await expect(readWith(defender, path)).rejects.toMatchObject({ kind: 'invalid-input', message: expect.stringContaining(`${path}: invalid JSON at line`) });
  });

  it('names the place of a document of the wrong shape', async () => {
    const lines = readFileSync(SAMPLE, 'utf8').split('\n');
    const state = write('state.csv', [...lines.slice(0, 2), lines[2].replace('"Healthy"', '"Fine"'), ...lines.slice(3)].join('\n'));
    await expect(readWith(defender, state)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${state}: line 3.state: "Fine" is not an assessment status (Healthy, Unhealthy, NotApplicable); this is not Microsoft Defender for Cloud output as svc knows it (docs/adapters.md)`,
    });
    const noStatus = write('no-status.json', { value: [ASSESSMENT, { ...ASSESSMENT, properties: { displayName: 'x' } }] });
    await expect(readWith(defender, noStatus)).rejects.toMatchObject({
      message: expect.stringContaining(`${noStatus}: value[1].properties.status.code: missing`),
    });
  });
});
