import { deriveCr26Aliases, describeRetired, readAliasSource, resolveCr26Id, withAliases, type AliasSource } from '../../../../src/domain/fedramp/cr26-aliases';
import { checkCr26Consistency } from '../../../../src/domain/fedramp/cr26-consistency';
import type { Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const item = (id: string, fka?: string, retired = false) => ({ id, ...(fka ? { fka } : {}), retired });

/** A numeric release, then a 0.9.x-like one with `fka` links. */
const SOURCES: AliasSource[] = [
  { release: 'R1', ksis: [item('KSI-AAA-01'), item('KSI-AAA-02'), item('KSI-AAA-03', undefined, true), item('KSI-OLD-01')], rules: [] },
  {
    release: 'R2',
    ksis: [item('KSI-AAA-ONE', 'KSI-AAA-01'), item('KSI-AAA-TWO', 'KSI-AAA-02'), item('KSI-AAA-KEP')],
    rules: [item('XYZ-CSO-ABC', 'FRR-XYZ-01'), item('XYZ-CSL-ABC', 'XYZ-CSO-ABC'), item('OLD-CSO-GON', 'FRR-OLD-01')],
  },
];

/** A CR26 model holding only the ids the alias rules look at. */
function cr26(ksis: string[], rules: string[]): Cr26Rules {
  return {
    info: { version: '2026.10.05.01', date: '2026-07-14', default_artifacts: { rules: [], ksis: [] } },
    families: [
      {
        id: 'XYZ',
        name: 'X',
        effective: {},
        subsets: [{ id: 'CSO', type: 'all', name: 'General', applicability: { types: ['20x'], paths: ['program'], classes: ['B'], affects: ['Providers'] } }],
      },
    ],
    themes: [{ id: 'AAA', name: 'A' }],
    rules: rules.map((id) => ({ id, family: 'XYZ', subset: 'CSO', type: 'all', name: id, force: 'MUST', affects: [], related: [] })),
    ksis: ksis.map((id) => ({ id, theme: 'AAA', name: id, controls: [] })),
    aliases: {},
    retired: [],
  };
}

describe('deriveCr26Aliases', () => {
  const derived = deriveCr26Aliases(SOURCES, cr26(['KSI-AAA-ONE', 'KSI-AAA-KEP'], ['XYZ-CSO-ABC']));

  it('follows fka links from numeric ids through the 0.9.x mnemonic to the CR26 id', () => {
    expect(derived.aliases).toEqual({ 'KSI-AAA-01': 'KSI-AAA-ONE', 'FRR-XYZ-01': 'XYZ-CSO-ABC' });
  });

  it('lists every other earlier id as retired, with the reason, the last release and the id it was last known by', () => {
    expect(derived.retired).toEqual([
      { id: 'FRR-OLD-01', kind: 'rule', last_release: 'R2', reason: 'not-in-cr26', via: 'OLD-CSO-GON' },
      { id: 'KSI-AAA-02', kind: 'ksi', last_release: 'R1', reason: 'not-in-cr26', via: 'KSI-AAA-TWO' },
      { id: 'KSI-AAA-03', kind: 'ksi', last_release: 'R1', reason: 'flagged-retired' },
      { id: 'KSI-AAA-TWO', kind: 'ksi', last_release: 'R2', reason: 'not-in-cr26' },
      { id: 'KSI-OLD-01', kind: 'ksi', last_release: 'R1', reason: 'no-successor' },
      { id: 'OLD-CSO-GON', kind: 'rule', last_release: 'R2', reason: 'not-in-cr26' },
      // Its fka names XYZ-CSO-ABC, which R2 still lists: a copy, not a rename, so no alias.
      { id: 'XYZ-CSL-ABC', kind: 'rule', last_release: 'R2', reason: 'not-in-cr26' },
    ]);
  });

  it('gives a consistent model', () => {
    expect(checkCr26Consistency({ ...cr26(['KSI-AAA-ONE', 'KSI-AAA-KEP'], ['XYZ-CSO-ABC']), ...derived })).toMatchObject({
      ok: true,
      counts: { aliases: 2, retired: 7 },
    });
  });

  it('says why in one line', () => {
    const version = '2026.10.05.01';
    expect(derived.retired.map((r) => describeRetired(r, version)).slice(1, 5)).toEqual([
      'KSI-AAA-02: last listed in R1, then known as KSI-AAA-TWO; not in CR26 2026.10.05.01',
      'KSI-AAA-03: last listed in R1, flagged retired',
      'KSI-AAA-TWO: last listed in R2; not in CR26 2026.10.05.01',
      'KSI-OLD-01: last listed in R1; no later release names a successor',
    ]);
  });
});

describe('readAliasSource', () => {
  it('reads the KSIs of any FRMR layout and the rules of a 0.9.x FRR section, with their fka links', () => {
    const document = {
      info: { version: '0.9.43-beta' },
      FRR: { VDR: { data: { both: { CSO: { 'VDR-CSO-DET': { fka: 'FRR-VDR-01', statement: 's' }, 'VDR-CSO-NEW': { statement: 's', retired: true } } } } } },
      KSI: { IAM: { short_name: 'IAM', indicators: { 'KSI-IAM-MFA': { fka: 'KSI-IAM-01', name: 'MFA', controls: ['ia-2'] } } } },
    };
    expect(readAliasSource(document, 'FRMR.documentation.json')).toEqual({
      release: '0.9.43-beta',
      ksis: [{ id: 'KSI-IAM-MFA', fka: 'KSI-IAM-01', retired: false }],
      rules: [
        { id: 'VDR-CSO-DET', fka: 'FRR-VDR-01', retired: false },
        { id: 'VDR-CSO-NEW', retired: true },
      ],
    });
  });
});

describe('withAliases (an official file read at run time)', () => {
  const bundled = {
    ...cr26(['KSI-AAA-ONE', 'KSI-AAA-KEP'], ['XYZ-CSO-ABC']),
    ...deriveCr26Aliases(SOURCES, cr26(['KSI-AAA-ONE', 'KSI-AAA-KEP'], ['XYZ-CSO-ABC'])),
  };

  it('keeps the bundled aliases whose target the release lists', () => {
    expect(withAliases(cr26(['KSI-AAA-ONE'], ['XYZ-CSO-ABC']), bundled).aliases).toEqual(bundled.aliases);
  });

  it('retires an alias whose target the release dropped, and drops (or aliases to its successor) a retired id the release lists again', () => {
    const newer = withAliases(cr26(['KSI-AAA-TWO'], ['XYZ-CSO-ABC']), bundled);
    expect(newer.aliases).toEqual({ 'FRR-XYZ-01': 'XYZ-CSO-ABC', 'KSI-AAA-02': 'KSI-AAA-TWO' });
    expect(newer.retired.find((r) => r.id === 'KSI-AAA-01')).toEqual({
      id: 'KSI-AAA-01',
      kind: 'ksi',
      last_release: '2026.10.05.01',
      reason: 'not-in-cr26',
      via: 'KSI-AAA-ONE',
    });
    expect(newer.retired.map((r) => r.id)).not.toContain('KSI-AAA-TWO');
    expect(checkCr26Consistency(newer).ok).toBe(true);
  });

  it('keeps the ids the release itself flags retired', () => {
    const flagged = {
      ...cr26([], ['XYZ-CSO-ABC']),
      retired: [{ id: 'KSI-AAA-ONE', kind: 'ksi' as const, last_release: 'next', reason: 'flagged-retired' as const }],
    };
    const newer = withAliases(flagged, bundled);
    expect(newer.retired.find((r) => r.id === 'KSI-AAA-ONE')).toEqual({ id: 'KSI-AAA-ONE', kind: 'ksi', last_release: 'next', reason: 'flagged-retired' });
    expect(newer.retired.find((r) => r.id === 'KSI-AAA-01')).toMatchObject({ reason: 'not-in-cr26', via: 'KSI-AAA-ONE' });
  });
});

describe('resolveCr26Id', () => {
  it('gives the CR26 id of a current id or an alias, and nothing for a retired one', () => {
    const rules = builtInRules();
    expect(['KSI-IAM-APM', 'KSI-IAM-02', 'FRR-VDR-TF-02', 'KSI-IAM-01', 'KSI-XXX-99'].map((id) => resolveCr26Id(rules, id))).toEqual([
      'KSI-IAM-APM',
      'KSI-IAM-APM',
      'VDR-TFR-KEV',
      undefined,
      undefined,
    ]);
  });
});

describe('checkCr26Consistency', () => {
  it('finds the bundled data consistent', () => {
    expect(checkCr26Consistency(builtInRules())).toMatchObject({ ok: true, problems: [] });
  });

  it('names every broken rule', () => {
    const rules = builtInRules();
    const ksi = rules.ksis.find((k) => k.id === 'KSI-IAM-APM')!;
    ksi.theme = 'XYZ';
    rules.ksis.push({ ...rules.ksis[0] });
    const rule = rules.rules.find((r) => r.id === 'VDR-TFR-MVX')!;
    rule.subset = 'NOP';
    rule.related = ['VDR-TFR-ZZZ'];
    rules.rules.find((r) => r.id === 'VDR-TFR-NMV')!.family = 'ZZZ';
    rules.aliases['KSI-IAM-99'] = 'KSI-IAM-ZZZ';
    rules.aliases['KSI-IAM-APM'] = 'KSI-IAM-APM';
    rules.retired.push({ id: 'VDR-TFR-PVR', kind: 'rule', last_release: 'x', reason: 'no-successor' });
    rules.themes.push({ id: 'NEW', name: 'Empty' });
    expect(checkCr26Consistency(rules).problems).toEqual([
      `rule or KSI ${rules.ksis[0].id} is listed twice`,
      'KSI-IAM-APM: theme XYZ is not a theme of the file',
      'theme NEW has no KSI',
      'VDR-TFR-MVX: subset VDR-NOP is not defined for 20x',
      'VDR-TFR-MVX: related VDR-TFR-ZZZ is not a rule or KSI',
      'VDR-TFR-NMV: family ZZZ is not a family of the file',
      'alias KSI-IAM-99 -> KSI-IAM-ZZZ: KSI-IAM-ZZZ is not a rule or KSI',
      'alias KSI-IAM-APM -> KSI-IAM-APM: KSI-IAM-APM is itself a current id',
      'retired VDR-TFR-PVR is a current id',
    ]);
  });
});
