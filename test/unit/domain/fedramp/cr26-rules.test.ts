import { InvalidInputError } from '../../../../src/domain/errors';
import { cr26DataDocument, readCr26Data, sortKeys } from '../../../../src/domain/fedramp/cr26-data';
import { readCr26Rules, type Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';

const FIX = "pass FedRAMP's consolidated rules file (fedramp-consolidated-rules.json from github.com/FedRAMP/rules)";
const PVR = 'FRR.VDR.data.all.TFR.VDR-TFR-PVR';
const MVX = 'FRR.VDR.data.20x.TFR.VDR-TFR-MVX';

const applicability = (types: string[]) => ({ types, paths: ['Program', 'Agency'], classes: ['B', 'C', 'D'], affects: ['Providers'] });

/** A small consolidated rules file in FedRAMP's layout, with a field no release has (`x_future`). */
function aFile(): Record<string, any> {
  return {
    info: {
      title: 'Rules',
      version: '2099.01.02.01',
      last_updated: '2099-01-02',
      default_artifacts: { FRR: ['Explain the rule.'], KSI: ['Explain the KSI.'] },
      x_future: true,
    },
    FRR: {
      VDR: {
        info: {
          name: 'Vulnerability Detection and Response',
          short_name: 'VDR',
          status: 'stable',
          tag: 'boundary',
          purpose: 'Words.',
          effective: {
            is: 'required',
            current_status: 'Mandated',
            date: {
              obtain: '2026-12-07',
              maintain: '2026-12-07',
              optional_adoption: '2026-07-04',
              grace: { default: '2027-03-07', until_next_assessment: false },
            },
          },
          subsets: { TFR: { name: 'Timeframes', description: 'Words.', applicability: applicability(['20x', 'Rev5']) } },
          '20x': {
            effective: { is: 'required', date: { obtain: '2026-07-04', grace: { default: '2027-01-01', until_next_assessment: true } } },
            subsets: { CSX: { name: '20x-Specific', description: 'Words.', applicability: { ...applicability(['20x']), classes: ['A', 'B'] } } },
          },
        },
        data: {
          all: {
            TFR: {
              'VDR-TFR-PVR': {
                name: 'Mitigation and Remediation Expectations',
                related: ['VDR-TFR-MVX'],
                affects: ['Providers'],
                terms: ['Vulnerability'],
                varies_by_class: {
                  a: {
                    statement: 'Class A providers SHOULD mitigate.',
                    force: 'SHOULD',
                    pain_timeframes: {
                      '1': {},
                      '2': {
                        irv_lev: { timeframe_type: 'days', timeframe_num: 96, description: 'Internet-Reachable' },
                        nlev: { timeframe_type: 'days', timeframe_num: 192, description: 'Not Likely' },
                      },
                      '5': { irv_lev: { timeframe_type: 'hours', timeframe_num: 0.25, description: 'Internet-Reachable' } },
                    },
                  },
                  d: { statement: 'Class D providers MUST mitigate.', force: 'MUST', artifacts: { all: ['A list.'] } },
                },
              },
            },
          },
          '20x': {
            TFR: {
              'VDR-TFR-MVX': {
                name: 'Persistent Machine Validation',
                statement: 'Providers MUST validate every 7 days.',
                force: 'MUST',
                timeframe_type: 'days',
                timeframe_num: 7,
                affects: ['Providers'],
                schema: { name: 'A Schema', url: 'https://fedramp.gov/schemas/a.json' },
                artifacts: { all: ['A record.'] },
                notification: [{ party: 'FedRAMP', method: 'email', target: 'x@fedramp.gov' }],
              },
            },
            CSX: { 'VDR-CSX-RNG': { name: 'A Range', force: 'MAY', timeframe_type: 'months', timeframe_num_min: 1, timeframe_num_max: 3 } },
          },
        },
      },
    },
    KSI: {
      IAM: {
        id: 'KSI-IAM',
        name: 'Identity and Access Management',
        short_name: 'IAM',
        status: 'stable',
        indicators: {
          'KSI-IAM-APM': {
            name: 'Adopting Passwordless Methods',
            statement: 'Passwordless methods are used.',
            controls: ['ia-5.1', 'AC-2', 'IA-2(1)'],
            updated: [],
          },
          'KSI-IAM-OPT': {
            name: 'A Class-Dependent One',
            controls: [],
            varies_by_class: { b: { statement: '**Optional:** words.' }, c: { statement: 'Words.' } },
          },
        },
      },
    },
    FRD: {},
    CTL: {},
  };
}

const read = (document: unknown = aFile()) => readCr26Rules(document, 'rules.json');

describe('readCr26Rules', () => {
  it('reads info, families with effective dates and subsets, rules, themes and KSIs, ignoring unknown fields', () => {
    const { statements, ...model } = read();
    expect(model).toEqual({
      info: { title: 'Rules', version: '2099.01.02.01', date: '2099-01-02', default_artifacts: { rules: ['Explain the rule.'], ksis: ['Explain the KSI.'] } },
      families: [
        {
          id: 'VDR',
          name: 'Vulnerability Detection and Response',
          status: 'stable',
          tag: 'boundary',
          effective: {
            all: {
              is: 'required',
              current_status: 'Mandated',
              optional_adoption: '2026-07-04',
              obtain: '2026-12-07',
              maintain: '2026-12-07',
              grace: '2027-03-07',
              grace_until_next_assessment: false,
            },
            '20x': { is: 'required', obtain: '2026-07-04', grace: '2027-01-01', grace_until_next_assessment: true },
          },
          subsets: [
            {
              id: 'CSX',
              type: '20x',
              name: '20x-Specific',
              applicability: { types: ['20x'], paths: ['program', 'agency'], classes: ['A', 'B'], affects: ['Providers'] },
            },
            {
              id: 'TFR',
              type: 'all',
              name: 'Timeframes',
              applicability: { types: ['20x', 'rev5'], paths: ['program', 'agency'], classes: ['B', 'C', 'D'], affects: ['Providers'] },
            },
          ],
        },
      ],
      themes: [{ id: 'IAM', name: 'Identity and Access Management', status: 'stable' }],
      rules: [
        {
          id: 'VDR-CSX-RNG',
          family: 'VDR',
          subset: 'CSX',
          type: '20x',
          name: 'A Range',
          force: 'MAY',
          timeframe: { unit: 'months', min: 1, max: 3 },
          affects: [],
          related: [],
        },
        {
          id: 'VDR-TFR-MVX',
          family: 'VDR',
          subset: 'TFR',
          type: '20x',
          name: 'Persistent Machine Validation',
          force: 'MUST',
          timeframe: { unit: 'days', num: 7 },
          affects: ['Providers'],
          related: [],
          schema: { name: 'A Schema', url: 'https://fedramp.gov/schemas/a.json' },
          artifacts: { all: ['A record.'] },
          notification: [{ party: 'FedRAMP', method: 'email', target: 'x@fedramp.gov' }],
        },
        {
          id: 'VDR-TFR-PVR',
          family: 'VDR',
          subset: 'TFR',
          type: 'all',
          name: 'Mitigation and Remediation Expectations',
          varies_by_class: {
            A: {
              force: 'SHOULD',
              pain_timeframes: {
                '1': {},
                '2': { irv_lev: { unit: 'days', num: 96, name: 'Internet-Reachable' }, nlev: { unit: 'days', num: 192, name: 'Not Likely' } },
                '5': { irv_lev: { unit: 'hours', num: 0.25, name: 'Internet-Reachable' } },
              },
            },
            D: { force: 'MUST', artifacts: { all: ['A list.'] } },
          },
          affects: ['Providers'],
          related: ['VDR-TFR-MVX'],
        },
      ],
      ksis: [
        { id: 'KSI-IAM-APM', theme: 'IAM', name: 'Adopting Passwordless Methods', controls: ['ia-5.1', 'ac-2', 'ia-2.1'] },
        { id: 'KSI-IAM-OPT', theme: 'IAM', name: 'A Class-Dependent One', controls: [], varies_by_class: { B: {}, C: {} } },
      ],
      aliases: {},
      retired: [],
    });
  });

  it('keeps the statement sentences apart from the model, by rule or KSI id and class', () => {
    expect(read().statements).toEqual({
      'KSI-IAM-APM': { text: 'Passwordless methods are used.' },
      'KSI-IAM-OPT': { classes: { B: '**Optional:** words.', C: 'Words.' } },
      'VDR-TFR-MVX': { text: 'Providers MUST validate every 7 days.' },
      'VDR-TFR-PVR': { classes: { A: 'Class A providers SHOULD mitigate.', D: 'Class D providers MUST mitigate.' } },
    });
    const { statements, ...model } = read();
    expect(JSON.stringify(model)).not.toMatch(/mitigate|validate every|are used|Optional/);
    expect(statements).toBeDefined();
  });

  it('lists a rule or KSI a newer release flags retired as retired, not as current', () => {
    const file = aFile();
    file.FRR.VDR.data['20x'].CSX['VDR-CSX-RNG'].retired = true;
    file.KSI.IAM.indicators['KSI-IAM-OPT'].retired = true;
    const rules = read(file);
    expect(rules.rules.map((r) => r.id)).toEqual(['VDR-TFR-MVX', 'VDR-TFR-PVR']);
    expect(rules.ksis.map((k) => k.id)).toEqual(['KSI-IAM-APM']);
    expect(rules.retired).toEqual([
      { id: 'KSI-IAM-OPT', kind: 'ksi', last_release: '2099.01.02.01', reason: 'flagged-retired' },
      { id: 'VDR-CSX-RNG', kind: 'rule', last_release: '2099.01.02.01', reason: 'flagged-retired' },
    ]);
  });

  /** Each case changes the file in place, or returns `{ document }` to replace it. */
  const broken: [string, (f: Record<string, any>) => unknown, string][] = [
    ['not an object', () => ({ document: [] }), '$: expected a JSON object'],
    ['no info', (f) => delete f.info, 'info: missing; expected an object'],
    ['a numeric version', (f) => (f.info.version = 1), 'info.version: expected a non-empty string, found number 1'],
    ['a date in words', (f) => (f.info.last_updated = 'July 14'), 'info.last_updated: "July 14" is not a date (YYYY-MM-DD)'],
    ['no FRR', (f) => delete f.FRR, 'FRR: missing; expected an object'],
    ['a family without data', (f) => delete f.FRR.VDR.data, 'FRR.VDR.data: missing; expected an object'],
    ['a lower-case family id', (f) => (f.FRR.vdr = f.FRR.VDR), 'FRR.vdr: not a family id (upper-case letters and digits)'],
    ['the 0.9.x type "both"', (f) => (f.FRR.VDR.data.both = {}), 'FRR.VDR.data.both: unknown rule type "both"; expected all, 20x, rev5'],
    ['an undefined subset', (f) => (f.FRR.VDR.data.all.XYZ = {}), 'FRR.VDR.data.all.XYZ: subset XYZ is not defined in FRR.VDR.info.subsets'],
    [
      'a 20x-only subset under rev5',
      (f) => (f.FRR.VDR.data.rev5 = { CSX: {} }),
      'FRR.VDR.data.rev5.CSX: subset CSX is not defined in FRR.VDR.info.subsets or FRR.VDR.info.rev5.subsets',
    ],
    [
      'a subset without applicability',
      (f) => delete f.FRR.VDR.info.subsets.TFR.applicability,
      'FRR.VDR.info.subsets.TFR.applicability: missing; expected an object',
    ],
    [
      'an unknown class in applicability',
      (f) => (f.FRR.VDR.info.subsets.TFR.applicability.classes = ['B', 'E']),
      'FRR.VDR.info.subsets.TFR.applicability.classes[1]: unknown class "E"; expected one of A, B, C, D',
    ],
    [
      'a bad grace date',
      (f) => (f.FRR.VDR.info.effective.date.grace.default = '2027-3-7'),
      'FRR.VDR.info.effective.date.grace.default: "2027-3-7" is not a date (YYYY-MM-DD)',
    ],
    [
      'a word for a flag',
      (f) => (f.FRR.VDR.info['20x'].effective.date.grace.until_next_assessment = 'yes'),
      'FRR.VDR.info.20x.effective.date.grace.until_next_assessment: expected true or false',
    ],
    ['a malformed rule id', (f) => (f.FRR.VDR.data.all.TFR['vdr tfr'] = {}), 'FRR.VDR.data.all.TFR.vdr tfr: not a rule id (like VDR-TFR-PVR)'],
    [
      'a rule defined twice',
      (f) => (f.FRR.VDR.data['20x'].TFR['VDR-TFR-PVR'] = f.FRR.VDR.data.all.TFR['VDR-TFR-PVR']),
      `${MVX.replace('MVX', 'PVR')}: VDR-TFR-PVR is defined twice (first at ${PVR})`,
    ],
    ['a rule without a name', (f) => delete f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].name, `${MVX}.name: missing; expected a string`],
    [
      'an unknown force',
      (f) => (f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].force = 'SHALL'),
      `${MVX}.force: unknown force "SHALL"; expected one of MUST, MUST NOT, SHOULD, SHOULD NOT, MAY`,
    ],
    [
      'no force and no classes',
      (f) => delete f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].force,
      `${MVX}.force: missing; expected one of MUST, MUST NOT, SHOULD, SHOULD NOT, MAY`,
    ],
    [
      'an unknown unit',
      (f) => (f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].timeframe_type = 'fortnights'),
      `${MVX}.timeframe_type: unknown unit "fortnights"; expected one of hours, days, bizdays, weeks, months, years`,
    ],
    [
      'a number without a unit',
      (f) => delete f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].timeframe_type,
      `${MVX}.timeframe_type: missing; expected one of hours, days, bizdays, weeks, months, years`,
    ],
    [
      'a negative number',
      (f) => (f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].timeframe_num = -7),
      `${MVX}.timeframe_num: expected a number of at least 0, found -7`,
    ],
    [
      'a number as text',
      (f) => (f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].timeframe_num = '7'),
      `${MVX}.timeframe_num: expected a number of at least 0, found "7"`,
    ],
    [
      'a range upside down',
      (f) => (f.FRR.VDR.data['20x'].CSX['VDR-CSX-RNG'].timeframe_num_min = 4),
      'FRR.VDR.data.20x.CSX.VDR-CSX-RNG.timeframe_num_min: 4 is more than timeframe_num_max 3',
    ],
    [
      'related not a list',
      (f) => (f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].related = 'VDR-TFR-MVX'),
      `${PVR}.related: expected an array of strings, found string "VDR-TFR-MVX"`,
    ],
    ['a schema without url', (f) => delete f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].schema.url, `${MVX}.schema.url: missing; expected a string`],
    [
      'a notification not a list',
      (f) => (f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].notification = { party: 'FedRAMP' }),
      `${MVX}.notification: expected a list of {party, method, target}`,
    ],
    [
      'a notification without a target',
      (f) => delete f.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].notification[0].target,
      `${MVX}.notification[0].target: missing; expected a string`,
    ],
    [
      'an unknown class',
      (f) => (f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class.e = { force: 'MUST' }),
      `${PVR}.varies_by_class.e: unknown class "e"; expected one of A, B, C, D`,
    ],
    [
      'a class without force',
      (f) => delete f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class.d.force,
      `${PVR}.varies_by_class.d.force: missing; expected one of MUST, MUST NOT, SHOULD, SHOULD NOT, MAY`,
    ],
    ['no classes at all', (f) => (f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class = {}), `${PVR}.varies_by_class: names no class`],
    [
      'a pain cell without a label',
      (f) => delete f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class.a.pain_timeframes['2'].nlev.description,
      `${PVR}.varies_by_class.a.pain_timeframes.2.nlev.description: missing; expected a string`,
    ],
    [
      'a pain cell without a timeframe',
      (f) => (f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class.a.pain_timeframes['2'].nlev = { description: 'x' }),
      `${PVR}.varies_by_class.a.pain_timeframes.2.nlev.timeframe_type: missing: a pain timeframe needs timeframe_type and timeframe_num`,
    ],
    [
      'a pain rating in words',
      (f) => (f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class.a.pain_timeframes.high = {}),
      `${PVR}.varies_by_class.a.pain_timeframes.high: not an N-rating (a whole number)`,
    ],
    [
      'artifacts not lists',
      (f) => (f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'].varies_by_class.d.artifacts = { all: 'A list.' }),
      `${PVR}.varies_by_class.d.artifacts.all: expected an array of strings, found string "A list."`,
    ],
    ['no KSI section', (f) => delete f.KSI, 'KSI: missing; expected an object'],
    ['a theme without indicators', (f) => delete f.KSI.IAM.indicators, 'KSI.IAM.indicators: missing; expected an object'],
    ['a numeric KSI id', (f) => (f.KSI.IAM.indicators['KSI-IAM 01'] = {}), 'KSI.IAM.indicators.KSI-IAM 01: not a KSI id (KSI-<THEME>-<ID>)'],
    [
      'an unreadable control',
      (f) => (f.KSI.IAM.indicators['KSI-IAM-APM'].controls = ['ac-2', 'two']),
      'KSI.IAM.indicators.KSI-IAM-APM.controls[1]: "two" is not a NIST SP 800-53 control id',
    ],
    [
      'no controls',
      (f) => delete f.KSI.IAM.indicators['KSI-IAM-APM'].controls,
      'KSI.IAM.indicators.KSI-IAM-APM.controls: missing; expected an array of strings',
    ],
    [
      'a KSI class force unknown',
      (f) => (f.KSI.IAM.indicators['KSI-IAM-OPT'].varies_by_class.b.force = 'OPTIONAL'),
      'KSI.IAM.indicators.KSI-IAM-OPT.varies_by_class.b.force: unknown force "OPTIONAL"; expected one of MUST, MUST NOT, SHOULD, SHOULD NOT, MAY',
    ],
    [
      'a KSI id that is a rule id',
      (f) => {
        f.KSI.IAM.indicators['KSI-IAM-APM'] = { ...f.KSI.IAM.indicators['KSI-IAM-APM'] };
        f.FRR.VDR.data.all.TFR['KSI-IAM-APM'] = f.FRR.VDR.data.all.TFR['VDR-TFR-PVR'];
      },
      `KSI.IAM.indicators.KSI-IAM-APM: KSI-IAM-APM is defined twice (first at FRR.VDR.data.all.TFR.KSI-IAM-APM)`,
    ],
  ];

  it.each(broken)('refuses %s with one line naming the JSON path', (_name, breakIt, problem) => {
    const file = aFile();
    const result = breakIt(file) as { document?: unknown } | undefined;
    const document = result !== null && typeof result === 'object' && 'document' in result ? result.document : file;
    let thrown: unknown;
    try {
      read(document);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidInputError);
    expect(thrown).toMatchObject({ code: 'invalid-rules-file', message: `rules.json: ${problem}; ${FIX}` });
    expect((thrown as Error).message).not.toContain('\n');
  });
});

describe('the project data file (cr26DataDocument / readCr26Data)', () => {
  const source = { file: 'rules.json', version: '2099.01.02.01', sha256: 'ab'.repeat(32) };
  const withAliases = (): Cr26Rules => ({
    ...read(),
    aliases: { 'KSI-IAM-02': 'KSI-IAM-APM' },
    retired: [{ id: 'KSI-IAM-01', kind: 'ksi', last_release: '25.12A', reason: 'not-in-cr26', via: 'KSI-IAM-MFA' }],
  });

  it('holds the model without statements, keys sorted at every level, and reads back into the same model', () => {
    const document = cr26DataDocument(withAliases(), source);
    const text = JSON.stringify(document, null, 2);
    expect(Object.keys(document)).toEqual(['aliases', 'families', 'info', 'ksis', 'retired', 'rules', 'schema', 'source', 'themes']);
    expect(document.schema).toBe('svc.cr26-rules/v1');
    expect(text).toBe(JSON.stringify(sortKeys(JSON.parse(text)), null, 2));
    expect(text).not.toMatch(/statement|SHOULD mitigate|validate every/);
    const { statements, ...model } = withAliases();
    expect(statements).toBeDefined();
    expect(readCr26Data(JSON.parse(text), 'cr26-rules.json')).toEqual({ ...model, source });
  });

  it.each([
    ['not an object', () => ({ document: 'x' }), '$: expected a JSON object'],
    ['another schema', (d: any) => (d.schema = 'svc.ksi-crosswalk/v1'), 'schema: expected "svc.cr26-rules/v1", found "svc.ksi-crosswalk/v1"'],
    ['no sha256', (d: any) => delete d.source.sha256, 'source.sha256: expected a string'],
    ['rules not a list', (d: any) => (d.rules = {}), 'rules: expected an array'],
    ['a rule without a family', (d: any) => delete d.rules[1].family, 'rules[1].family: expected a string'],
    ['a KSI without controls', (d: any) => delete d.ksis[0].controls, 'ksis[0].controls: expected an array'],
    ['a family without subsets', (d: any) => delete d.families[0].subsets, 'families[0].subsets: expected an array'],
    ['an alias to a number', (d: any) => (d.aliases['KSI-IAM-02'] = 2), 'aliases.KSI-IAM-02: expected a string'],
    ['a retired id without a reason', (d: any) => delete d.retired[0].reason, 'retired[0].reason: expected a string'],
  ])('refuses a data file with %s', (_name, breakIt, problem) => {
    const document = JSON.parse(JSON.stringify(cr26DataDocument(withAliases(), source)));
    const result = breakIt(document) as { document?: unknown } | undefined;
    const broken = result !== null && typeof result === 'object' && 'document' in result ? result.document : document;
    expect(() => readCr26Data(broken, 'cr26-rules.json')).toThrow(
      expect.objectContaining({ code: 'invalid-rules-data', message: `cr26-rules.json: ${problem}; regenerate it with npm run catalog (docs/fedramp.md)` }),
    );
  });
});
