import { readFileSync } from 'node:fs';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { readDetections } from '../../../src/domain/vulnerabilities/detection';
import { kubescape } from '../../../src/infrastructure/scans/vendors/kubescape';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';

const SAMPLE = rawSample('kubescape', 'k3d-sample-subset-a.json');
const PROVENANCE = provenanceOf('kubescape');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-kubescape-');

const statusOf = (report: { results: { ksi_id: string; status: string }[] }, ksi: string) => report.results.find((r) => r.ksi_id === ksi)?.status;

describe('Kubescape adapter on the real k3d sample', () => {
  interface RawControl {
    controlID: string;
    status: { status: string; subStatus?: string };
  }
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
    results: { resourceID: string; controls: RawControl[] }[];
    summaryDetails: { controls: Record<string, { scoreFactor: number }> };
  };
  const evaluations = raw.results.flatMap((r) => r.controls);
  const count = (status: string, subStatus?: string) => evaluations.filter((c) => c.status.status === status && c.status.subStatus === subStatus).length;

  it('reads one check per control per resource, a pass with exceptions as omitted', async () => {
    const scan = await readWith(kubescape, SAMPLE);
    // The sample README: 141 passed, 15 failed, 4 skipped control results.
    expect(scan.checks).toHaveLength(141 + 15 + 4);
    expect(count('passed') + count('passed', 'w/exceptions')).toBe(141);
    expect(outcomes(scan.checks)).toEqual({
      pass: count('passed'),
      omitted: count('passed', 'w/exceptions'),
      fail: 15,
      'not-applicable': count('skipped', 'configuration'),
    });
    expect(count('skipped', 'configuration')).toBe(4);
  });

  it('takes must or should from the control scoreFactor', async () => {
    const scan = await readWith(kubescape, SAMPLE);
    const factor = (id: string) => raw.summaryDetails.controls[id].scoreFactor;
    const failed = evaluations.filter((c) => c.status.status === 'failed');
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'must')).toHaveLength(failed.filter((c) => factor(c.controlID) >= 7).length);
    expect(scan.checks.filter((c) => c.outcome === 'fail' && c.criticality === 'should')).toHaveLength(failed.filter((c) => factor(c.controlID) < 7).length);
  });

  it('keeps the version and cluster context, and no time for the Go zero generationTime', async () => {
    const scan = await readWith(kubescape, SAMPLE);
    expect(scan).toMatchObject({ vendor: 'kubescape', tool: 'Kubescape', version: 'v3.0.1', tenant: 'k3d-k3dlocal' });
    expect(scan.observed_at).toBeUndefined();
  });

  it('maps controls by id, then by Kubescape category', async () => {
    const scan = await readWith(kubescape, SAMPLE);
    const job = 'batch/v1/kube-system/Job/helm-install-traefik-crd';
    const on = (id: string, resource = job) => scan.checks.find((c) => c.id === id && c.resource === resource);
    expect(on('C-0030')).toMatchObject({ outcome: 'fail', criticality: 'should', severity: 'Medium', controls: ['sc-7'], title: 'Ingress and Egress blocked' });
    expect(on('C-0012')).toMatchObject({ outcome: 'fail', criticality: 'must', severity: 'High', controls: ['ia-5', 'sc-28'] });
    expect(on('C-0055')).toMatchObject({ outcome: 'fail', controls: ['ac-6', 'cm-7'] }); // no id entry: sub-category Node escape
    expect(on('C-0055')?.details).toMatch(
      /^failed rules: linux-hardening; fix spec\.template\.spec\.containers\[0\]\.securityContext\.seccompProfile=YOUR_VALUE/,
    );
    expect(on('C-0087', '/v1//Node/k3d-k3dlocal-server-0')).toMatchObject({ outcome: 'pass', controls: ['ra-5', 'si-2'] });
    expect(on('C-0078')).toMatchObject({ outcome: 'not-applicable', controls: ['cm-7.5'], details: 'Control configurations are empty' });
  });

  it('gives each KSI the status its checks give it', async () => {
    const { report, summary } = reportFromScan(await readWith(kubescape, SAMPLE), PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-SC-07')).toBe('WARN'); // only C-0030 (scoreFactor 6) failed
    expect(statusOf(report, 'KSI-SC-28')).toBe('FAIL'); // C-0012 (scoreFactor 8) failed
    expect(statusOf(report, 'KSI-RA-05')).toBe('PASS'); // the CVE controls passed
    expect(summary.unmapped_checks).toEqual([]);
  });
});

describe('Kubescape adapter on the other statuses', () => {
  const document = {
    generationTime: '2024-03-05T08:30:00Z',
    clusterName: 'prod-east',
    summaryDetails: {
      controls: {
        'C-0057': { controlID: 'C-0057', name: 'Privileged container', scoreFactor: 8, category: { name: 'Workload', subCategory: { name: 'Node escape' } } },
        'C-0067': { controlID: 'C-0067', name: 'Audit logs enabled', scoreFactor: 5, category: { name: 'Control plane' } },
        'C-9001': { controlID: 'C-9001', name: 'Some network control', scoreFactor: 10, category: { name: 'Network' } },
        'C-9002': { controlID: 'C-9002', name: 'Uncategorised', scoreFactor: 2 },
      },
    },
    results: [
      {
        resourceID: 'apps/v1/default/Deployment/web',
        controls: [
          {
            controlID: 'C-0057',
            name: 'Privileged container',
            status: { status: 'failed' },
            rules: [
              { name: 'rule-privileged-container', status: 'failed', paths: [{ failedPath: 'spec.template.spec.containers[0].securityContext.privileged' }] },
            ],
          },
          { controlID: 'C-0067', status: { status: 'skipped', subStatus: 'manual review', info: 'check the audit policy by hand' } },
          {
            controlID: 'C-9001',
            status: { status: 'passed', subStatus: 'w/exceptions' },
            rules: [{ name: 'r', status: 'passed', exception: [{ name: 'allow-web' }] }],
          },
          { controlID: 'C-9002', status: { status: 'failed' } },
          { controlID: 'C-9999', status: { status: 'failed' } },
        ],
      },
    ],
  };

  it('reads failed, manual-review skips, waived passes and unknown severities', async () => {
    const scan = await readWith(kubescape, write('statuses.json', document));
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.severity])).toEqual([
      ['C-0057', 'fail', 'must', 'High'],
      ['C-0067', 'manual', 'should', 'Medium'],
      ['C-9001', 'omitted', 'must', 'Critical'],
      ['C-9002', 'fail', 'should', 'Low'],
      ['C-9999', 'not-applicable', 'should', undefined], // no scoreFactor: a finding of unknown severity decides nothing
    ]);
    expect(scan.checks.map((c) => c.controls)).toEqual([['ac-6', 'cm-7'], ['au-2', 'au-12'], ['sc-7'], ['cm-6'], ['cm-6']]);
    expect(scan.checks[0].details).toBe('failed rules: rule-privileged-container; fix spec.template.spec.containers[0].securityContext.privileged');
    expect(scan.checks[2].details).toBe('passed only with exception: allow-web');
    expect(scan).toMatchObject({ tenant: 'prod-east', observed_at: '2024-03-05T08:30:00Z' });
    const { report } = reportFromScan(scan, PROVENANCE, NOW);
    expect(statusOf(report, 'KSI-AC-06')).toBe('FAIL');
    expect(statusOf(report, 'KSI-CM-06')).toBe('WARN');
    expect(statusOf(report, 'KSI-AU-02')).toBeUndefined(); // only a manual check: not assessed
  });
});

describe('Kubescape adapter: detections (DESIGN §12.4)', () => {
  const ID = /^VULN-[0-9a-f]{20}$/;
  const detect = async () => detectionsOf(await readWith(kubescape, SAMPLE), NOW, new PureJsHashing());

  it('makes one configuration detection per failed control and resource of the real sample', async () => {
    const detections = await detect();
    // Counted by hand with jq on the sample: [.results[].controls[] | select(.status.status == "failed")] | length = 15,
    // all on batch/v1/kube-system/Job/helm-install-traefik-crd, each control once and each with a scoreFactor (1-10).
    expect(detections).toHaveLength(15);
    expect(detections.every((d) => d.kind === 'configuration')).toBe(true);
    expect(detections[0]).toEqual({
      id: expect.stringMatching(ID),
      source: 'Kubescape',
      finding_id: 'C-0055',
      resource: 'batch/v1/kube-system/Job/helm-install-traefik-crd',
      title: 'Linux hardening',
      scanner_severity: 'Medium', // scoreFactor 4
      detected_at: NOW, // generationTime is Go's zero time: the run's time stands
      kind: 'configuration',
    });
    const ids = detections.map((d) => d.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await detect()).map((d) => d.id)).toEqual(ids);
    expect(readDetections(JSON.parse(JSON.stringify(detections)), 'x')).toEqual(detections);
  });
});

describe('Kubescape adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  it('names the place of a report of the wrong shape', async () => {
    const path = write('shape.json', {
      summaryDetails: { controls: { 'C-0001': { controlID: 'C-0001' } } },
      results: [{ resourceID: 'r', controls: [{ controlID: 'C-0001', status: { status: 'maybe' } }] }],
    });
    await expect(readWith(kubescape, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-scan',
      message: `${path}: results[0].controls[0].status.status: "maybe" is not a Kubescape status (passed, failed, skipped); this is not Kubescape output as svc knows it (docs/adapters.md)`,
    });
  });

  it('refuses a report without results', async () => {
    const path = write('noresults.json', { summaryDetails: { controls: { 'C-0001': { controlID: 'C-0001' } } } });
    await expect(readWith(kubescape, path)).rejects.toMatchObject({ message: expect.stringContaining(': results: missing') });
  });
});
