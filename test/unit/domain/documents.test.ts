import { assess } from '../../../src/domain/assessment/assessment';
import { buildCrm, type DocumentRun } from '../../../src/domain/documents/crm';
import { buildDocumentationPackage, sha256sums } from '../../../src/domain/documents/documentation-package';
import { buildInventory, INVENTORY_COLUMNS } from '../../../src/domain/documents/inventory';
import { responsibilityOf, RESPONSIBILITY_TEXT } from '../../../src/domain/documents/responsibility';
import { merkleRoot } from '../../../src/domain/evidence/merkle';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import { buildSnapshot } from '../../../src/domain/substrate/snapshot';
import { entryHashes } from '../../../src/application/shared/run-inputs';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { sampleResults } from '../../support/builders';

const hashing = new PureJsHashing();
const INPUT_SHA = 'ab'.repeat(32);

function aRun(): DocumentRun {
  const catalog = builtInCatalog();
  const assessment = assess(sampleResults(), catalog, DEFAULT_GOVERNANCE_POLICY);
  const hashes = entryHashes(assessment, hashing);
  return {
    tool: { name: 'svc', version: '0.5.0' },
    generatedAt: '2026-01-01T00:00:00Z',
    context: {
      input: { name: 'sample.json', sha256: INPUT_SHA },
      source: { tool: 'ScubaGear', tenant: 'contoso.onmicrosoft.com' },
      runAt: new Date('2026-01-01T00:00:00Z'),
    },
    results: assessment.items.map((item, i) => ({ item, hash: hashes[i] })),
    merkleRoot: merkleRoot(hashes, hashing),
    catalog,
    entriesFile: 'sample.json',
    files: [{ name: 'sample.json', sha256: INPUT_SHA, mediaType: 'application/json', description: 'The normalized report.' }],
  };
}

describe('the CRM responsibility rule', () => {
  it('gives physical and media families to the provider, agency-policy families to the customer, the rest shared', () => {
    expect(['pe-3', 'ma-2', 'mp-6.1'].map(responsibilityOf)).toEqual(['provider', 'provider', 'provider']);
    expect(['at-2', 'ps-3', 'pl-2', 'pm-1'].map(responsibilityOf)).toEqual(['customer', 'customer', 'customer', 'customer']);
    expect(['ac-2', 'ia-2.1', 'au-2', 'sc-8', 'cm-6'].map(responsibilityOf)).toEqual(['shared', 'shared', 'shared', 'shared', 'shared']);
  });
});

describe('buildCrm', () => {
  it('lists every baseline control in catalog order with its responsibility and the KSI evidence of the run', () => {
    const run = aRun();
    const crm = buildCrm(run);
    expect(crm.rows).toHaveLength(run.catalog.data.baseline_controls.length);
    expect(crm.rows[0].control).toBe('ac-1');
    const ac2 = crm.rows.find((r) => r.control === 'ac-2');
    const ac2Hash = run.results.find((r) => r.item.result.ksi_id === 'KSI-AC-02')?.hash;
    expect(ac2).toEqual({
      control: 'ac-2',
      title: 'Account Management',
      responsibility: 'shared',
      ...RESPONSIBILITY_TEXT.shared,
      evidence: [{ ksi: 'KSI-AC-02', status: 'FAIL', hash: `sha256:${ac2Hash}` }],
    });
    expect(crm.rows.find((r) => r.control === 'pe-3')).toMatchObject({ responsibility: 'provider', evidence: [] });
    expect({ system: crm.system, date: crm.date, merkleRoot: crm.merkleRoot }).toEqual({
      system: 'contoso.onmicrosoft.com',
      date: '2026-01-01',
      merkleRoot: `sha256:${run.merkleRoot}`,
    });
    expect(crm.summary.map((s) => s.responsibility)).toEqual(['provider', 'shared', 'customer']);
    expect(crm.summary.reduce((sum, s) => sum + s.controls, 0)).toBe(crm.rows.length);
    expect(crm.summary.find((s) => s.responsibility === 'provider')?.evidenced).toBe(0);
  });
});

describe('buildInventory', () => {
  it('makes one IIW row per resource: id, kind, file, category and the content hash in Comments', () => {
    const sha = 'cd'.repeat(32);
    const snapshot = buildSnapshot(
      {
        root: 'tree-a',
        files: [{ path: 'k8s/app.yaml', sha256: 'ef'.repeat(32), bytes: 10, format: 'kubernetes' }],
        resources: [{ id: 'k8s:apps/v1/Deployment/shop/web', kind: 'Deployment', file: 'k8s/app.yaml', sha256: sha, category: 'other' }],
        skipped: [],
      },
      hashing,
    );
    const model = buildInventory(snapshot, { date: '2026-01-01', tool: { name: 'svc', version: '0.5.0' } });
    expect(model.rows).toEqual([
      {
        'UNIQUE ASSET IDENTIFIER': 'k8s:apps/v1/Deployment/shop/web',
        'Baseline Configuration Name': 'k8s/app.yaml',
        Location: 'tree-a/k8s/app.yaml',
        'Asset Type': 'Deployment',
        Comments: `Resource content sha256:${sha}`,
        Function: 'other',
      },
    ]);
    expect(model.counts).toEqual({ files: 1, resources: 1 });
    expect(INVENTORY_COLUMNS).toHaveLength(25);
    expect(Object.keys(model.rows[0]).every((k) => (INVENTORY_COLUMNS as readonly string[]).includes(k))).toBe(true);
  });
});

describe('buildDocumentationPackage', () => {
  it('gathers areas, touched controls with narrative and graph, and the POA&M rows of FAIL and WARN results', () => {
    const pkg = buildDocumentationPackage(aRun());
    expect(pkg.counts).toEqual({ results: 5, pass: 2, warn: 1, fail: 2, controls: pkg.controls.length, poam: 3 });
    expect(pkg.areas.map((a) => a.id)).toEqual(['AC', 'AU', 'IA', 'SC', 'UNMAPPED']);
    expect(pkg.areas.find((a) => a.id === 'UNMAPPED')?.controls).toEqual([]);
    const ac2 = pkg.controls.find((c) => c.id === 'ac-2');
    expect(ac2).toMatchObject({ title: 'Account Management', status: 'planned', areas: ['AC'] });
    expect(ac2?.narrative).toEqual([expect.stringMatching(/^KSI-AC-02 \(.+\): FAIL .*as POAM-KSI-AC-02, owner .+\.$/)]);
    expect(ac2?.trace.nodes.map((n) => n.type)).toEqual(['control', 'ksi', 'policy', 'evidence', 'action', 'poam']);
    expect(pkg.poam.map((r) => r.poam_id)).toEqual(['POAM-KSI-AC-02', 'POAM-KSI-AU-02', 'POAM-KSI-IA-02']);
  });

  it('writes SHA256SUMS lines in path order, as sha256sum --check reads them', () => {
    expect(
      sha256sums([
        { path: 'index.html', sha256: 'b'.repeat(64) },
        { path: 'controls/ac-2.html', sha256: 'a'.repeat(64) },
      ]),
    ).toBe(`${'a'.repeat(64)}  controls/ac-2.html\n${'b'.repeat(64)}  index.html\n`);
  });
});
