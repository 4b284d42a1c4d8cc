import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkCatalogConsistency, compareRelease, EXPECTED_KSI_COUNT } from '../../src/domain/catalog/catalog-consistency';
import type { CatalogData } from '../../src/domain/catalog/ksi-catalog';
import type { Crosswalk } from '../../src/domain/catalog/derive-catalog';
import { readFrmrRelease } from '../../src/domain/catalog/frmr-release';
import catalogData from '../../src/domain/catalog/data/ksi-catalog.json';
import crosswalkData from '../../src/domain/catalog/data/ksi-crosswalk.json';

// The derivation script runs the compiled domain (npm test builds first): the same rules this suite checks.

const { derive, RELEASES } = require('../../scripts/build-catalog.js') as {
  derive: (ref: string) => { catalog: CatalogData; crosswalk: Crosswalk };
  RELEASES: string[];
};

const REFERENCE = join(__dirname, '..', '..', '..', 'shared', 'reference');
const catalog = catalogData as CatalogData;
const crosswalk = crosswalkData as Crosswalk;

describe('the checked-in KSI catalog (DESIGN §4)', () => {
  it('is what scripts/build-catalog.js derives from the public FedRAMP files, byte for byte', () => {
    expect(existsSync(REFERENCE)).toBe(true);
    const derived = derive(REFERENCE);
    expect(JSON.stringify(derived.catalog, null, 2)).toBe(JSON.stringify(catalog, null, 2));
    expect(JSON.stringify(derived.crosswalk, null, 2)).toBe(JSON.stringify(crosswalk, null, 2));
  });

  it('holds exactly 163 KSIs: the 181 base controls of FedRAMP rev5 Moderate minus the 18 policy controls', () => {
    const base = catalog.baseline_controls.filter((c) => !c.id.includes('.'));
    expect(base).toHaveLength(181);
    expect(catalog.families).toHaveLength(18);
    expect(base.filter((c) => c.id.endsWith('-1'))).toHaveLength(18);
    expect(catalog.ksis).toHaveLength(EXPECTED_KSI_COUNT);
    expect(EXPECTED_KSI_COUNT).toBe(163);
    expect(catalog.baseline_controls).toHaveLength(323);
  });

  it('names each KSI after its control and maps the base control with every selected enhancement', () => {
    const ac2 = catalog.ksis.find((k) => k.id === 'KSI-AC-02');
    expect(ac2).toMatchObject({
      title: 'Account Management',
      control: 'ac-2',
      controls: ['ac-2', 'ac-2.1', 'ac-2.2', 'ac-2.3', 'ac-2.4', 'ac-2.5', 'ac-2.7', 'ac-2.9', 'ac-2.12', 'ac-2.13'],
    });
    expect(catalog.ksis.find((k) => k.id === 'KSI-SC-07')?.title).toBe('Boundary Protection');
    expect(catalog.ksis.find((k) => k.id === 'KSI-IA-05')?.control).toBe('ia-5');
    expect(catalog.ksis.map((k) => k.id)).not.toContain('KSI-AC-01');
  });

  it('gives every KSI its family policy, severity, frequency and owner', () => {
    const severity: Record<string, string> = {};
    for (const f of ['AC', 'IA', 'SC']) severity[f] = 'Critical';
    for (const f of ['AU', 'CM', 'CP', 'IR', 'RA', 'SI']) severity[f] = 'High';
    for (const f of ['AT', 'CA', 'MA', 'MP', 'PE', 'PL', 'PS', 'SA', 'SR']) severity[f] = 'Medium';
    const owner: Record<string, string> = {
      AC: 'identity',
      IA: 'identity',
      AU: 'secops',
      IR: 'secops',
      RA: 'secops',
      SI: 'secops',
      CM: 'platform',
      CP: 'platform',
      MA: 'platform',
      MP: 'platform',
      PE: 'platform',
      SC: 'platform',
      AT: 'grc',
      CA: 'grc',
      PL: 'grc',
      PS: 'grc',
      SA: 'grc',
      SR: 'grc',
    };
    const fast = ['AC', 'AU', 'CM', 'IA', 'RA', 'SC', 'SI'];
    for (const ksi of catalog.ksis) {
      expect(ksi.policies).toEqual([{ id: `${ksi.family.toLowerCase()}-1`, title: 'Policy and Procedures' }]);
      expect(ksi.severity).toBe(severity[ksi.family]);
      expect(ksi.frequency_days).toBe(fast.includes(ksi.family) ? 3 : 90);
      expect(ksi.owner).toBe(`${owner[ksi.family]}-team@agency.example`);
    }
  });

  it('passes every consistency rule of svc canon check', () => {
    expect(checkCatalogConsistency(catalog, crosswalk)).toEqual({
      ok: true,
      counts: { ksis: 163, families: 18, baseline_controls: 323, mapped_controls: 305 },
      problems: [],
    });
  });

  it('crosswalks official FedRAMP 20x KSIs, numeric and mnemonic ids linked', () => {
    const mfa = crosswalk.official.find((o) => o.id === 'KSI-IAM-MFA');
    expect(mfa).toMatchObject({ controls: ['ac-2', 'ia-2', 'ia-2.1', 'ia-2.2', 'ia-2.8', 'ia-5', 'ia-8', 'sc-23'], aliases: ['KSI-IAM-01'] });
    expect(crosswalk.official.find((o) => o.id === 'KSI-IAM-01')?.aliases).toEqual(['KSI-IAM-MFA']);
    expect(crosswalk.current_release).toBe('2026.10.05.01');
    expect(crosswalk.official).toHaveLength(150);
    expect(catalog.ksis.find((k) => k.id === 'KSI-IA-02')?.official_ksis).toEqual(expect.arrayContaining(['KSI-IAM-APM', 'KSI-IAM-ELP']));
  });
});

describe('reading every FedRAMP release in the reference set', () => {
  it.each(RELEASES.map((r) => [r]))('%s', (rel) => {
    const release = readFrmrRelease(require(join(REFERENCE, rel)), rel);
    const expected: Record<string, [string, number]> = {
      '25.05A': ['25.05A', 39],
      '25.05B': ['25.05B', 51],
      '25.05C': ['25.05C', 51],
      '25.10A': ['25.10A', 51],
      '25.11A': ['25.11A', 72],
      '25.12A': ['25.12A', 72],
      '0.9.43-beta': ['0.9.43-beta', 60],
      '2026.07.14.01': ['2026.07.14.01', 46],
      '2026.09.13.02': ['2026.09.13.02', 46],
      '2026.10.05.01': ['2026.10.05.01', 46],
    };
    const [id, count] = Object.entries(expected).find(([key]) => rel.includes(key))?.[1] ?? ['?', 0];
    expect(release.id).toBe(id);
    expect(release.ksis).toHaveLength(count);
  });

  it('compares an older release with the current crosswalk: renames through fka links, coverage by the baseline', () => {
    const release = readFrmrRelease(require(join(REFERENCE, 'fedramp/FRMR.KSI.key-security-indicators.25.12A.json')), '25.12A');
    const comparison = compareRelease(release, crosswalk, catalog);
    expect(comparison.release).toBe('25.12A');
    expect(comparison.renamed).toContainEqual({ from: 'KSI-IAM-AAM', to: 'KSI-IAM-07' });
    expect(comparison.removed).toEqual(['KSI-CED-RAT', 'KSI-SVC-SIN']);
    expect(comparison.counts).toMatchObject({ active: 61, retired: 11 });
    expect(comparison.coverage.find((c) => c.id === 'KSI-SVC-10')).toMatchObject({ coverage: 'none', missing: ['si-12.3', 'si-18.4'] });
  });

  it('finds nothing added or removed when a release is compared with itself', () => {
    const release = readFrmrRelease(require(join(REFERENCE, 'fedramp/fedramp-consolidated-rules.2026.07.14.01.json')), 'rules');
    const comparison = compareRelease(release, crosswalk, catalog);
    expect([comparison.added, comparison.removed, comparison.renamed, comparison.changed]).toEqual([[], [], [], []]);
    expect(comparison.counts.active).toBe(46);
  });
});
