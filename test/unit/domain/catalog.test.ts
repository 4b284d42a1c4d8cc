import { checkCatalogConsistency } from '../../../src/domain/catalog/catalog-consistency';
import { readFrmrRelease } from '../../../src/domain/catalog/frmr-release';
import {
  baseControl,
  controlFromReference,
  controlsFromReferences,
  ksiIdForControl,
  normalizeControlId,
  type CatalogData,
} from '../../../src/domain/catalog/ksi-catalog';
import { officialDefinitions } from '../../../src/domain/catalog/official-definitions';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';

describe('control ids', () => {
  it.each([
    ['ac-2', 'ac-2'],
    ['AC-2(1)', 'ac-2.1'],
    ['ac-02.01', 'ac-2.1'],
    [' IA-2 ', 'ia-2'],
    ['pm-31', 'pm-31'],
  ])('normalizes %s to %s', (raw, id) => expect(normalizeControlId(raw)).toBe(id));

  it.each(['ac', 'ac-2.', 'AC 2', 'acc-2', 'ac-2(1)(a)', ''])('refuses %j', (raw) => expect(normalizeControlId(raw)).toBeUndefined());

  it('derives KSI ids and base controls', () => {
    expect(ksiIdForControl('ac-2')).toBe('KSI-AC-02');
    expect(ksiIdForControl('sc-45')).toBe('KSI-SC-45');
    expect(baseControl('ia-2.12')).toBe('ia-2');
  });
});

describe('KsiCatalog', () => {
  const catalog = builtInCatalog();

  it('finds the KSI covering a control or one of its enhancements', () => {
    expect(catalog.forControl('ia-2.1')?.id).toBe('KSI-IA-02');
    expect(catalog.forControl('ac-2')?.id).toBe('KSI-AC-02');
    expect(catalog.forControl('ac-1')).toBeUndefined();
    expect(catalog.forControl('pm-3')).toBeUndefined();
  });

  it('orders controls as the catalog does (ac-2.2 before ac-2.12 before ac-3)', () => {
    expect(['ac-3', 'ac-2.12', 'ac-2.2', 'ac-10', 'zz-1'].sort(catalog.compareControls)).toEqual(['ac-2.2', 'ac-2.12', 'ac-3', 'ac-10', 'zz-1']);
    expect(catalog.controlTitle('ac-2.1')).toBe('Automated System Account Management');
  });
});

describe('checkCatalogConsistency', () => {
  const good = builtInCatalog().data;
  const broken = (change: (d: CatalogData) => void) => {
    const data = structuredClone(good);
    change(data);
    return checkCatalogConsistency(data).problems;
  };

  it('finds nothing wrong with the built-in catalog', () => expect(checkCatalogConsistency(good).problems).toEqual([]));

  it('reports a missing KSI: the count and the orphaned controls', () => {
    expect(broken((d) => d.ksis.splice(1, 1))).toEqual(['baseline control ac-3 is not mapped to any KSI', 'catalog holds 162 KSIs, expected 163']);
  });

  it('reports a KSI listed twice and a control mapped twice', () => {
    expect(broken((d) => d.ksis.push(d.ksis[0]))).toEqual(
      expect.arrayContaining(['KSI-AC-02: listed twice', 'KSI-AC-02: control ac-2 is already mapped to KSI-AC-02', 'catalog holds 164 KSIs, expected 163']),
    );
  });

  it('reports a wrong id, a foreign control, a missing policy and bad values', () => {
    const problems = broken((d) => {
      d.ksis[0] = {
        ...d.ksis[0],
        id: 'KSI-AC-2',
        policies: [],
        severity: 'Urgent' as never,
        frequency_days: 0,
        owner: 'nobody',
        controls: ['ac-2', 'ac-3', 'pm-3'],
      };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'KSI-AC-2: id does not match its control ac-2 (expected KSI-AC-02)',
        'KSI-AC-2: control ac-3 is not ac-2 or an enhancement of it',
        'KSI-AC-2: control pm-3 is not in the baseline',
        'KSI-AC-2: missing family policy ac-1',
        'KSI-AC-2: severity Urgent is not Critical, High, Medium or Low',
        'KSI-AC-2: frequency_days must be a positive whole number',
        'KSI-AC-2: owner nobody is not a mailbox',
      ]),
    );
  });

  it('reports a family without its policy control', () => {
    expect(broken((d) => (d.families[0].policy = { id: 'ac-2', title: 'x' }))).toContain('family AC: policy is ac-2, expected ac-1');
  });
});

describe('readFrmrRelease', () => {
  it('reads the 25.05-25.11 layout (requirements[] with control objects)', () => {
    const release = readFrmrRelease(
      {
        info: { current_release: '25.11A DRAFT' },
        KSI: {
          IAM: {
            id: 'KSI-IAM',
            requirements: [
              {
                id: 'KSI-IAM-01',
                name: 'Phishing-Resistant MFA (MFA)',
                statement: 'Enforce MFA.',
                controls: [{ control_id: 'ia-2.1' }, { control_id: 'IA-2(2)' }],
              },
            ],
          },
        },
      },
      'f.json',
    );
    expect(release).toEqual({
      id: '25.11A',
      ksis: [{ id: 'KSI-IAM-01', theme: 'IAM', name: 'Phishing-Resistant MFA', statement: 'Enforce MFA.', controls: ['ia-2.1', 'ia-2.2'], retired: false }],
    });
  });

  it('reads the 0.9.x / consolidated layout (indicators{} keyed by id, fka links, retired flags)', () => {
    const release = readFrmrRelease(
      {
        info: { version: '0.9.43-beta', last_updated: '2026-04-08' },
        KSI: {
          IAM: {
            short_name: 'IAM',
            indicators: {
              'KSI-IAM-MFA': { fka: 'KSI-IAM-01', name: 'MFA', statement: 's', controls: ['ac-2'] },
              'KSI-IAM-OLD': { name: 'x', statement: 'y', retired: true },
            },
          },
        },
      },
      'f.json',
    );
    expect(release.id).toBe('0.9.43-beta');
    expect(release.published).toBe('2026-04-08');
    expect(release.ksis).toEqual([
      { id: 'KSI-IAM-MFA', theme: 'IAM', name: 'MFA', statement: 's', controls: ['ac-2'], retired: false, fka: 'KSI-IAM-01' },
      { id: 'KSI-IAM-OLD', theme: 'IAM', name: 'x', statement: 'y', controls: [], retired: true },
    ]);
  });

  it.each<[string, unknown, string]>([
    ['not an object', [], 'f.json: $: expected a JSON object'],
    ['no KSI section', { info: {} }, 'f.json: KSI: missing KSI section'],
    ['a theme without indicators', { KSI: { IAM: { id: 'KSI-IAM' } } }, 'f.json: KSI.IAM: has neither "indicators" nor "requirements"'],
    ['a malformed id', { KSI: { IAM: { indicators: [{ id: 'IAM-1' }] } } }, 'f.json: KSI.IAM.indicators[0].id: missing or malformed KSI id'],
    [
      'an unreadable control',
      { KSI: { IAM: { indicators: [{ id: 'KSI-IAM-01', controls: ['ac two'] }] } } },
      'f.json: KSI.IAM.indicators[0].controls: unreadable control "ac two"',
    ],
  ])('refuses %s', (_what, doc, message) => expect(() => readFrmrRelease(doc, 'f.json')).toThrow(message));
});

describe('officialDefinitions', () => {
  const catalog = builtInCatalog();

  it('maps an official KSI to its controls, the family policies, and the most severe family', () => {
    const [mfa] = officialDefinitions(
      { id: 'r', ksis: [{ id: 'KSI-IAM-MFA', theme: 'IAM', name: 'MFA', statement: '', controls: ['au-2', 'ia-2', 'ac-2'], retired: false }] },
      catalog,
      'c@x.example',
    );
    expect(mfa).toEqual({
      id: 'KSI-IAM-MFA',
      title: 'MFA',
      family: 'IAM',
      control: 'au-2',
      controls: ['au-2', 'ia-2', 'ac-2'],
      policies: [
        { id: 'au-1', title: 'Policy and Procedures' },
        { id: 'ia-1', title: 'Policy and Procedures' },
        { id: 'ac-1', title: 'Policy and Procedures' },
      ],
      severity: 'Critical',
      frequency_days: 3,
      owner: 'identity-team@agency.example',
      official_ksis: ['KSI-IAM-MFA'],
    });
  });

  it('gives a KSI without catalog controls the fallback owner and leaves retired KSIs out', () => {
    const defs = officialDefinitions(
      {
        id: 'r',
        ksis: [
          { id: 'KSI-AFR-FSI', theme: 'AFR', name: 'Inbox', statement: '', controls: [], retired: false },
          { id: 'KSI-AFR-OLD', theme: 'AFR', name: 'Old', statement: '', controls: [], retired: true },
        ],
      },
      catalog,
      'c@x.example',
    );
    expect(defs.map((d) => [d.id, d.owner, d.severity, d.frequency_days])).toEqual([['KSI-AFR-FSI', 'c@x.example', 'Medium', 90]]);
  });
});

describe('controlFromReference: the way tools and standards write controls', () => {
  it.each([
    ['AC-2(1)', 'ac-2.1'],
    ['AC-2 (1)', 'ac-2.1'],
    ['AC-2.1', 'ac-2.1'],
    ['ac_2_1', 'ac-2.1'],
    ['ac-2-12-a', 'ac-2.12'],
    ['IA-5(1)(a)', 'ia-5.1'],
    ['CM-6 b', 'cm-6'],
    ['CM-6(a)', 'cm-6'],
    ['AC-2a', 'ac-2'],
    ['ac_2_d_1', 'ac-2'],
    ['SC-7(10)', 'sc-7.10'],
    ['AC-20', 'ac-20'],
  ])('%s → %s', (text, control) => expect(controlFromReference(text)).toBe(control));

  it.each(['Rev_4', 'PR.AC-1', 'AC-123', '', 'CCI-000366'])('%j names no control', (text) => expect(controlFromReference(text)).toBeUndefined());

  it('lists each control once, in the order first named', () => {
    expect(controlsFromReferences(['CM-6 b', 'AC-2(1)', 'CM-6(a)', 'Rev_4'])).toEqual(['cm-6', 'ac-2.1']);
  });
});
