import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { azurePolicy } from '../../../src/infrastructure/scans/vendors/azure-policy';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('azure-policy', 'PolicyStates_QueryResourceGroupScope.json');
const PROVENANCE = provenanceOf('azure-policy');
/** Raw scanner JSON, read as loosely as the test needs. */
type Json = any;
const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')).responses['200'].body.value as Json[];

const { write } = scratchFolder('svc-azure-policy-');

/** A copy of the sample's first policy state with some fields replaced. */
function state(changes: Record<string, unknown>): Json {
  return { ...JSON.parse(JSON.stringify(raw[0])), ...changes };
}

describe('Azure Policy adapter on the documented queryResults example', () => {
  it('reads every policy state with the outcome its complianceState gives', async () => {
    const scan = await readWith(azurePolicy, SAMPLE);
    const count = (s: string) => raw.filter((r) => r.complianceState === s).length;
    expect(raw).toHaveLength(2);
    expect(scan.checks).toHaveLength(raw.length);
    expect(outcomes(scan.checks)).toEqual({ fail: count('NonCompliant'), pass: count('Compliant') });
  });

  it('keeps the tool, the subscription and the latest evaluation timestamp', async () => {
    const scan = await readWith(azurePolicy, SAMPLE);
    const latest = raw.map((r) => r.timestamp as string).sort((a, b) => Date.parse(b) - Date.parse(a))[0];
    expect(scan).toMatchObject({
      vendor: 'azure-policy',
      tool: 'Azure Policy',
      tenant: raw[0].subscriptionId,
      observed_at: new Date(latest).toISOString().replace('.000Z', 'Z'),
    });
    expect(scan.version).toBeUndefined();
  });

  it('gives policies outside the NIST/FedRAMP initiatives the default control, as should-checks', async () => {
    const scan = await readWith(azurePolicy, SAMPLE);
    expect(raw[0].policyDefinitionGroupNames).toEqual(['myGroup']);
    expect(scan.checks[0]).toMatchObject({
      id: raw[0].policyDefinitionName,
      outcome: 'fail',
      criticality: 'should',
      controls: ['cm-6'],
      resource: raw[0].resourceId,
      details: 'NonCompliant; effect audit; assignment 3f3c4330183b4e218fe6fd29',
    });
    expect(scan.checks[0].severity).toBeUndefined();
  });

  it('makes KSI-CM-06 WARN: a should-policy failed beside one that passed', async () => {
    const { report, summary } = reportFromScan(await readWith(azurePolicy, SAMPLE), PROVENANCE, '2026-11-21T00:00:00Z');
    expect(summary.statuses).toEqual({ PASS: 0, WARN: 1, FAIL: 0 });
    expect(report.results[0]).toMatchObject({ ksi_id: 'KSI-CM-06', status: 'WARN', source: 'Azure Policy' });
    expect(report.results[0].checks?.map((c) => c.status).sort()).toEqual(['PASS', 'WARN']);
    expect(summary.unmapped_checks).toEqual([]);
    expect(summary.not_assessed).toEqual([]);
  });
});

describe('Azure Policy adapter on the other forms', () => {
  const nist = state({
    policyDefinitionGroupNames: ['NIST_SP_800-53_R5_AC-2(1)', 'FedRAMP_Moderate_R4_AC-2', 'FedRAMP_High_R4_CM-6 b', 'Azure_Security_Benchmark_v3.0_PA-1'],
  });

  it('reads the REST body, maps NIST/FedRAMP groups to controls and makes those policies musts', async () => {
    const scan = await readWith(azurePolicy, write('rest.json', { '@odata.count': 1, value: [nist] }));
    expect(scan.checks).toEqual([expect.objectContaining({ outcome: 'fail', criticality: 'must', controls: ['ac-2.1', 'ac-2', 'cm-6'] })]);
    const { report } = reportFromScan(scan, PROVENANCE, '2026-11-21T00:00:00Z');
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-02', 'FAIL'],
      ['KSI-CM-06', 'FAIL'],
    ]);
  });

  it('reads the bare array of az policy state list, every complianceState and the older isCompliant', async () => {
    const { complianceState: _unused, ...older } = state({ isCompliant: true });
    const rows = ['Exempt', 'Conflict', 'Unknown', 'NotStarted'].map((s) => state({ complianceState: s }));
    const scan = await readWith(azurePolicy, write('cli.json', [...rows, older]));
    expect(scan.checks.map((c) => c.outcome)).toEqual(['omitted', 'error', 'manual', 'not-applicable', 'pass']);
  });

  it('reads Resource Graph rows with the state under properties', async () => {
    const row = {
      id: '/subscriptions/aaaa/providers/Microsoft.PolicyInsights/policyStates/x',
      type: 'microsoft.policyinsights/policystates',
      subscriptionId: 'aaaa-bbbb',
      properties: {
        complianceState: 'NonCompliant',
        policyAssignmentId: '/subscriptions/aaaa-bbbb/providers/Microsoft.Authorization/policyAssignments/nist',
        policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/0961003e-5a0a-4549-abde-af6a37f2724d',
        policyDefinitionReferenceId: 'diskEncryptionMonitoring',
        policyDefinitionGroupNames: ['NIST_SP_800-53_R5_SC-28'],
        resourceId: '/subscriptions/aaaa-bbbb/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm1',
        timestamp: '2026-03-01T10:00:00.5Z',
      },
    };
    for (const document of [{ count: 1, data: [row] }, [row]]) {
      const scan = await readWith(azurePolicy, write('graph.json', document));
      expect(scan).toMatchObject({ tenant: 'aaaa-bbbb', observed_at: '2026-03-01T10:00:00.500Z' });
      expect(scan.checks).toEqual([
        {
          id: '0961003e-5a0a-4549-abde-af6a37f2724d',
          outcome: 'fail',
          criticality: 'must',
          controls: ['sc-28'],
          title: 'diskEncryptionMonitoring',
          resource: row.properties.resourceId,
          details: 'NonCompliant',
        },
      ]);
    }
  });
});

describe('Azure Policy adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const NOW = '2026-11-21T00:00:00Z';
  const detect = async () => detectionsOf(await readWith(azurePolicy, SAMPLE), NOW, new PureJsHashing());

  it('makes one configuration detection per NonCompliant policy state of the documented example', async () => {
    const detections = await detect();
    // Counted by hand with jq on the sample: [.responses."200".body.value[] | select(.complianceState == "NonCompliant")]
    // | length = 1 (the other state is Compliant). Policy states have no first-seen time: the latest `timestamp` stands.
    expect(detections).toEqual([
      {
        id: expect.stringMatching(ID),
        source: 'Azure Policy',
        finding_id: '24813039-7534-408a-9842-eb99f45721b1',
        resource: '/subscriptions/fffedd8f-ffff-fffd-fffd-fffed2f84852/resourceGroups/myResourceGroup/providers/Microsoft.Storage/storageAccounts/mysa1',
        title: '24813039-7534-408a-9842-eb99f45721b1', // no policyDefinitionReferenceId
        scanner_severity: 'should', // policy definitions have no severity: the check's criticality
        detected_at: '2019-10-09T18:42:42Z',
        kind: 'configuration',
      },
    ]);
    expect((await detect()).map((d) => d.id)).toEqual([detections[0].id]);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('Azure Policy adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a document of the wrong shape', async () => {
    const single = write('single.json', raw[0]);
    await expect(readWith(azurePolicy, single)).rejects.toMatchObject({
      kind: 'invalid-input',
      message: `${single}: value: missing; expected policy states as {"value": [...]}, an array, or Resource Graph rows; this is not Azure Policy output as svc knows it (docs/adapters.md)`,
    });
    const bogus = write('bogus.json', { value: [raw[0], state({ complianceState: 'Compliantish' })] });
    await expect(readWith(azurePolicy, bogus)).rejects.toMatchObject({
      message: expect.stringContaining(`${bogus}: value[1].complianceState: "Compliantish" is not a compliance state`),
    });
    const { complianceState: _state, isCompliant: _flag, ...neither } = raw[0];
    const missing = write('missing.json', [raw[0], neither]);
    await expect(readWith(azurePolicy, missing)).rejects.toMatchObject({ message: expect.stringContaining(`${missing}: [1].complianceState: missing`) });
  });
});
