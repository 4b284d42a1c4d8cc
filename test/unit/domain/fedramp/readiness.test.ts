import type { ApplicableKsi, ApplicableRule, EffectiveState } from '../../../../src/domain/fedramp/applicability';
import type { Cr26Force, Cr26Rule } from '../../../../src/domain/fedramp/cr26-rules';
import type { EvidenceCadence } from '../../../../src/domain/fedramp/evidence-cadence';
import { blocks, judgeReadiness, type ReadinessInput, type ReadinessKsiFacts } from '../../../../src/domain/fedramp/readiness';
import type { RuleJudgment } from '../../../../src/domain/fedramp/rule-judgments';
import type { FreshnessCounts } from '../../../../src/domain/fedramp/run-facts';
import type { ProviderStatement } from '../../../../src/domain/fedramp/statements';

const IN_FORCE: EffectiveState = { state: 'in_force', since: '2026-07-04' };
const FILE = '/srv/fedramp/statements.md';
const STORE = '/srv/.svc/store';

const applicable = (id: string, force: Cr26Force | undefined, effective: EffectiveState = IN_FORCE, via = 'subset'): ApplicableRule => {
  const [family, subset] = id.split('-');
  const rule: Cr26Rule = { id, family, subset, type: 'all', name: id, ...(force === undefined ? {} : { force }), affects: ['Providers'], related: [] };
  return { rule, ...(force === undefined ? {} : { force }), by_rating: false, effective, via };
};
const ksi = (id: string, via = 'type'): ApplicableKsi => ({ ksi: { id, theme: id.split('-')[1], name: id, controls: ['ac-2'] }, via });

const counts = (over: Partial<FreshnessCounts> = {}): FreshnessCounts => ({ total: 0, fresh: 0, stale: 0, undated: 0, ...over });
const MACHINE: EvidenceCadence = { kind: 'machine', rule: 'VDR-TFR-MVX', force: 'MUST', every: { unit: 'days', num: 7 } };
const NON_MACHINE: EvidenceCadence = { kind: 'non-machine', rule: 'VDR-TFR-NMV', force: 'MUST', every: { unit: 'months', num: 3 }, prose: true };

/** A KSI the run shows Implemented by two fresh machine results with 2 methods, history since long ago. */
const healthy = (id: string, over: Partial<ReadinessKsiFacts> = {}): ReadinessKsiFacts => ({
  id,
  status: 'Implemented',
  results: { pass: 2, fail: 0, other: 0 },
  freshness: { machine: counts({ total: 2, fresh: 2, oldest: '2026-11-24' }), nonMachine: counts() },
  methods: 2,
  methodsRequired: { min: 1, force: 'SHOULD' },
  history: { since: '2026-01-01' },
  ...over,
});

const statement = (over: Partial<ProviderStatement> = {}): Pick<ProviderStatement, 'line' | 'implementation' | 'status'> => ({
  line: 3,
  implementation: ['We do it.'],
  ...over,
});

const input = (over: Partial<ReadinessInput> = {}): ReadinessInput => ({
  found: { rules: [], ksis: [], recommended: [], optional: [] },
  run: { seq: 4, asOf: '2026-11-24T08:00:00Z', results: 12 },
  store: STORE,
  judgments: new Map(),
  statements: { file: FILE, byId: new Map() },
  ksis: [],
  cadences: { machine: MACHINE, nonMachine: NON_MACHINE },
  ...over,
});
const found = (rules: ApplicableRule[], ksis: ApplicableKsi[] = []) => ({ rules, ksis, recommended: [], optional: [] });
const judgment = (rule: string, met: boolean, extra: Partial<RuleJudgment> = {}): RuleJudgment => ({
  rule,
  met,
  status: met ? 'Implemented' : 'Not Implemented',
  statement: 'svc measured it.',
  ...extra,
});

describe('judgeReadiness: rules', () => {
  it('a rule required from a later date is not yet required from that date', () => {
    const r = judgeReadiness(
      input({ found: found([applicable('VDR-TFR-PVR', 'SHOULD', { state: 'required_from', date: '2026-12-07', optional_from: '2026-07-04' })]) }),
    );
    expect(r.rules).toEqual([
      {
        id: 'VDR-TFR-PVR',
        kind: 'rule',
        force: 'SHOULD',
        effective: { state: 'required_from', date: '2026-12-07', optional_from: '2026-07-04' },
        status: 'not_yet_required',
        from: '2026-12-07',
        why: 'required from 2026-12-07 (optional from 2026-07-04)',
      },
    ]);
  });

  it('a rule FedRAMP has not defined for the class is not yet required without a date, naming the pilot', () => {
    const r = judgeReadiness(
      input({
        found: found([
          applicable('SDR-CSX-KMT', 'MUST', { state: 'not_yet_defined', class: 'D', pilot: '20x Phase 4 Pilot' }),
          applicable('VDR-TFR-MVX', undefined, { state: 'not_yet_defined', class: 'D' }),
        ]),
        judgments: new Map([['SDR-CSX-KMT', judgment('SDR-CSX-KMT', false, { why: 'x', todo: 'y' })]]),
      }),
    );
    expect(r.rules.map(({ id, status, from, why }) => ({ id, status, from, why }))).toEqual([
      { id: 'SDR-CSX-KMT', status: 'not_yet_required', from: undefined, why: 'not yet defined for Class D: FedRAMP leaves it to the 20x Phase 4 Pilot' },
      { id: 'VDR-TFR-MVX', status: 'not_yet_required', from: undefined, why: 'not yet defined for Class D: the rules give nothing for the class yet' },
    ]);
    expect(r.mustNotMet).toEqual([]);
  });

  it("a rule svc judges is met or not met by svc's judgment, with its why and what to do, whatever the provider wrote", () => {
    const r = judgeReadiness(
      input({
        found: found([applicable('FRC-CSX-VVK', 'MUST'), applicable('SDR-CSX-KMT', 'MUST')]),
        judgments: new Map([
          ['FRC-CSX-VVK', judgment('FRC-CSX-VVK', false, { why: '2 KSIs have fewer than 2 automated methods', todo: 'add checks' })],
          ['SDR-CSX-KMT', judgment('SDR-CSX-KMT', true)],
        ]),
        statements: { file: FILE, byId: new Map([['FRC-CSX-VVK', statement()]]) },
      }),
    );
    expect(r.rules).toEqual([
      {
        id: 'FRC-CSX-VVK',
        kind: 'rule',
        force: 'MUST',
        effective: IN_FORCE,
        status: 'not_met',
        why: '2 KSIs have fewer than 2 automated methods',
        todo: 'add checks',
      },
      { id: 'SDR-CSX-KMT', kind: 'rule', force: 'MUST', effective: IN_FORCE, status: 'met' },
    ]);
    expect(r.mustNotMet).toEqual(['FRC-CSX-VVK']);
  });

  it('with no run recorded, every rule svc judges from a run is not met, naming the store and what to do', () => {
    const r = judgeReadiness(
      input({ run: undefined, found: found([applicable('VDR-TFR-MVX', 'MUST')]), judgments: new Map([['VDR-TFR-MVX', judgment('VDR-TFR-MVX', true)]]) }),
    );
    expect(r.rules[0]).toMatchObject({ status: 'not_met', why: `no run recorded in ${STORE}`, todo: 'record a run: svc conmon process <report>' });
  });

  it('a provider statement with implementation text meets the rule; Implemented and Alternative Implementation too', () => {
    const r = judgeReadiness(
      input({
        found: found([applicable('AFC-CSO-INB', 'MUST'), applicable('AFC-CSO-EMR', 'MUST'), applicable('AFC-CSO-RCV', 'MUST')]),
        statements: {
          file: FILE,
          byId: new Map([
            ['AFC-CSO-INB', statement()],
            ['AFC-CSO-EMR', statement({ status: { value: 'Implemented', written: 'Implemented' } })],
            ['AFC-CSO-RCV', statement({ status: { value: 'Implemented', written: 'Alternative Implementation' } })],
          ]),
        },
      }),
    );
    expect(r.rules.map((x) => [x.id, x.status, x.why, x.warnings])).toEqual([
      ['AFC-CSO-INB', 'met', undefined, undefined],
      ['AFC-CSO-EMR', 'met', undefined, undefined],
      ['AFC-CSO-RCV', 'met', undefined, undefined],
    ]);
  });

  it.each([
    ['Planned', 'Not Implemented'],
    ['Not Implemented', 'Not Implemented'],
    ['Partially Implemented', 'Partially Implemented'],
  ] as const)("a statement whose status says %s is not met, the provider's word the reason", (written, value) => {
    const r = judgeReadiness(
      input({
        found: found([applicable('VDR-TFR-PVR', 'SHOULD')]),
        statements: { file: FILE, byId: new Map([['VDR-TFR-PVR', statement({ status: { value, written } })]]) },
      }),
    );
    expect(r.rules[0]).toMatchObject({
      status: 'not_met',
      why: `the provider's status is ${written}`,
      todo: `implement it, then update ### Status under ## VDR-TFR-PVR in ${FILE}`,
    });
    expect(r.mustNotMet).toEqual([]);
  });

  it('Not Applicable is met, with a warning that the assessor decides', () => {
    const r = judgeReadiness(
      input({
        found: found([applicable('CCM-QTR-MTG', 'SHOULD')]),
        statements: { file: FILE, byId: new Map([['CCM-QTR-MTG', statement({ status: { value: null, written: 'Not Applicable' } })]]) },
      }),
    );
    expect(r.rules[0]).toMatchObject({ status: 'met', warnings: ["the provider's status is Not Applicable; the assessor decides whether the rule applies"] });
  });

  it('a rule without a statement, or with only a status, needs a statement; the todo names the file, or the profile key when there is none', () => {
    const rules = [applicable('AFC-CSO-INB', 'MUST'), applicable('AFC-CSO-NOC', 'MUST')];
    const r = judgeReadiness(
      input({
        found: found(rules),
        statements: {
          file: FILE,
          byId: new Map([['AFC-CSO-NOC', statement({ implementation: [], status: { value: 'Implemented', written: 'Implemented' }, line: 9 })]]),
        },
      }),
    );
    expect(r.rules.map(({ status, why, todo }) => ({ status, why, todo }))).toEqual([
      { status: 'needs_statement', why: 'no provider statement', todo: `write ## AFC-CSO-INB in ${FILE}` },
      {
        status: 'needs_statement',
        why: `## AFC-CSO-NOC (${FILE}:9) has no implementation text`,
        todo: `write how the rule is met under ## AFC-CSO-NOC in ${FILE}`,
      },
    ]);
    const none = judgeReadiness(input({ found: found([rules[0]]), statements: { byId: new Map() } }));
    expect(none.rules[0].todo).toBe('name a statements file in fedramp.statements (svc.config.json) and write ## AFC-CSO-INB in it');
    expect(none.mustNotMet).toEqual(['AFC-CSO-INB']);
  });
});

describe('judgeReadiness: KSIs', () => {
  const KSI_RULE = applicable('SDR-CSX-KSI', 'MUST');
  const VVK = (force: Cr26Force, effective: EffectiveState = IN_FORCE) => applicable('FRC-CSX-VVK', force, effective);
  const MOT = (force: Cr26Force, effective: EffectiveState = IN_FORCE) => applicable('FRC-CSX-MOT', force, effective);
  const one = (facts: ReadinessKsiFacts, rules: ApplicableRule[] = [KSI_RULE, VVK('SHOULD')], over: Partial<ReadinessInput> = {}) => {
    const r = judgeReadiness(
      input({ found: found(rules, [ksi(facts.id)]), ksis: [facts], statements: { file: FILE, byId: new Map([[facts.id, statement()]]) }, ...over }),
    );
    return r.ksis[0];
  };

  it('is met when Implemented, fresh, with enough methods and history; it takes the force and date of SDR-CSX-KSI', () => {
    expect(one(healthy('KSI-IAM-APM'))).toEqual({ id: 'KSI-IAM-APM', kind: 'ksi', force: 'MUST', effective: IN_FORCE, status: 'met' });
  });

  it('Class A: takes the force of FRC-CLA-MFR, which names it', () => {
    const r = judgeReadiness(
      input({
        found: found([applicable('FRC-CLA-MFR', 'MUST')], [ksi('KSI-IAM-APM', 'FRC-CLA-MFR')]),
        ksis: [healthy('KSI-IAM-APM', { methodsRequired: undefined })],
        statements: { file: FILE, byId: new Map([['KSI-IAM-APM', statement()]]) },
      }),
    );
    expect(r.ksis[0]).toMatchObject({ force: 'MUST', status: 'met' });
  });

  it('without a provider statement it warns that ksiImplementation is generated, and keeps its status', () => {
    const k = one(healthy('KSI-IAM-APM'), undefined, { statements: { file: FILE, byId: new Map() } });
    expect(k).toMatchObject({ status: 'met', warnings: [`ksiImplementation is generated by svc; write ## KSI-IAM-APM in ${FILE}`] });
  });

  it('no run recorded: not met, naming the store and what to do', () => {
    expect(one(healthy('KSI-IAM-APM'), undefined, { run: undefined })).toMatchObject({
      status: 'not_met',
      why: `no run recorded in ${STORE}`,
      todo: 'record a run: svc conmon process <report>',
    });
  });

  it('no evidence: not met, and what to report', () => {
    const k = one({ id: 'KSI-RPL-ABO', results: { pass: 0, fail: 0, other: 0 }, freshness: { machine: counts(), nonMachine: counts() }, methods: 0 });
    expect(k).toMatchObject({
      status: 'not_met',
      why: 'no evidence: no result of the run reaches it',
      todo: 'report results keyed KSI-RPL-ABO (or by a catalog KSI that shares its controls) and record the run with svc conmon process',
    });
  });

  it.each(['Partially Implemented', 'Not Implemented'] as const)('%s: not met, with the counts', (status) => {
    const k = one(healthy('KSI-SVC-SIN', { status, results: { pass: 1, fail: 2, other: 1 } }));
    expect(k).toMatchObject({ status: 'not_met', why: `${status} (1 pass, 2 fail, 1 other)`, todo: 'fix what the failing checks report and record a new run' });
  });

  it('stale or undated evidence of either kind: not met, by the cadence and its rule', () => {
    const k = one(
      healthy('KSI-CNA-RNT', {
        freshness: {
          machine: counts({ total: 3, fresh: 1, stale: 1, undated: 1, oldest: '2026-11-10' }),
          nonMachine: counts({ total: 1, stale: 1, oldest: '2026-06-01' }),
        },
      }),
    );
    expect(k).toMatchObject({
      status: 'not_met',
      why: '1 of 3 machine-based results older than 7 days (VDR-TFR-MVX), the oldest observed 2026-11-10; 1 of 3 machine-based results carries no time; 1 of 1 non-machine result older than 3 months (VDR-TFR-NMV), the oldest observed 2026-06-01',
      todo: 'run the scans again and record the run (svc ir freshness --class lists them)',
    });
  });

  it("a class without its own cadence says whose it uses (20x Class D: Class C's)", () => {
    const k = one(healthy('KSI-CNA-RNT', { freshness: { machine: counts({ total: 1, stale: 1, oldest: '2026-11-10' }), nonMachine: counts() } }), undefined, {
      cadences: { machine: { ...MACHINE, every: { unit: 'days', num: 3 }, from_class: 'C' }, nonMachine: NON_MACHINE },
    });
    expect(k.why).toBe("1 of 1 machine-based result older than 3 days (VDR-TFR-MVX, Class C's), the oldest observed 2026-11-10");
  });

  it('too few automated methods: not met where FRC-CSX-VVK is a MUST in force; a warning where a SHOULD or not yet in force', () => {
    const facts = healthy('KSI-IAM-APM', { methods: 1, methodsRequired: { min: 2, force: 'MUST' } });
    expect(one(facts, [KSI_RULE, VVK('MUST')])).toMatchObject({
      status: 'not_met',
      why: '1 automated method; FRC-CSX-VVK (MUST) asks at least 2',
      todo: 'add automated checks from more tools or checks',
    });
    const should = healthy('KSI-IAM-APM', { methods: 0, methodsRequired: { min: 1, force: 'SHOULD' } });
    expect(one(should, [KSI_RULE, VVK('SHOULD')])).toMatchObject({ status: 'met', warnings: ['0 automated methods; FRC-CSX-VVK (SHOULD) asks at least 1'] });
    expect(one(facts, [KSI_RULE, VVK('MUST', { state: 'required_from', date: '2027-01-01' })])).toMatchObject({
      status: 'met',
      warnings: ['1 automated method; FRC-CSX-VVK (required from 2027-01-01) asks at least 2'],
    });
  });

  it('too short a history: not met where FRC-CSX-MOT requires one; a warning where it is not in force', () => {
    const facts = healthy('KSI-IAM-APM', { history: { since: '2026-11-02', required: { months: 6, force: 'MUST', from: '2026-05-25' }, met: false } });
    expect(one(facts, [KSI_RULE, MOT('MUST')])).toMatchObject({
      status: 'not_met',
      why: 'history since 2026-11-02; FRC-CSX-MOT (MUST) asks 6 months, since 2026-05-25',
      todo: 'record a run every day with svc conmon process; the history grows with each',
    });
    const none = healthy('KSI-IAM-APM', { history: { required: { months: 6, force: 'MUST', from: '2026-05-25' }, met: false } });
    expect(one(none, [KSI_RULE, MOT('MUST', { state: 'required_from', date: '2027-01-01' })])).toMatchObject({
      status: 'met',
      warnings: ['no recorded history; FRC-CSX-MOT (required from 2027-01-01) asks 6 months, since 2026-05-25'],
    });
  });

  it('gives every reason at once, each thing to do once', () => {
    const k = one(
      {
        id: 'KSI-SVC-SIN',
        status: 'Not Implemented',
        results: { pass: 0, fail: 2, other: 0 },
        freshness: { machine: counts({ total: 2, stale: 2, oldest: '2026-10-01' }), nonMachine: counts() },
        methods: 1,
        methodsRequired: { min: 2, force: 'MUST' },
        history: { since: '2026-11-02', required: { months: 6, force: 'MUST', from: '2026-05-25' }, met: false },
      },
      [KSI_RULE, VVK('MUST'), MOT('MUST')],
    );
    expect(k.why!.split('; ')).toEqual([
      'Not Implemented (0 pass, 2 fail, 0 other)',
      '2 of 2 machine-based results older than 7 days (VDR-TFR-MVX), the oldest observed 2026-10-01',
      '1 automated method',
      'FRC-CSX-VVK (MUST) asks at least 2',
      'history since 2026-11-02',
      'FRC-CSX-MOT (MUST) asks 6 months, since 2026-05-25',
    ]);
    expect(k.todo).toBe(
      'fix what the failing checks report and record a new run; run the scans again and record the run (svc ir freshness --class lists them); add automated checks from more tools or checks; record a run every day with svc conmon process; the history grows with each',
    );
  });

  it('a KSI whose rule is not yet in force is not yet required from its date', () => {
    expect(one(healthy('KSI-IAM-APM'), [applicable('SDR-CSX-KSI', 'MUST', { state: 'required_from', date: '2026-07-04' })])).toMatchObject({
      status: 'not_yet_required',
      from: '2026-07-04',
    });
  });
});

describe('judgeReadiness: counts, the lists apart and the exit decision', () => {
  it('counts each status, lists Class A recommended and optional rules with their force, and names the MUSTs in force not met', () => {
    const r = judgeReadiness(
      input({
        found: {
          rules: [
            applicable('AFC-CSO-INB', 'MUST'),
            applicable('CCM-OCR-LSI', 'MUST NOT'),
            applicable('AFC-CSO-ACK', 'SHOULD'),
            applicable('VDR-CSO-DET', 'MUST', { state: 'required_from', date: '2026-12-07' }),
            applicable('FRC-CLA-MFR', 'MUST'),
          ],
          ksis: [ksi('KSI-IAM-APM', 'FRC-CLA-MFR'), ksi('KSI-SVC-SIN', 'FRC-CLA-MFR')],
          recommended: [applicable('CCM-QTR-MTG', 'SHOULD', IN_FORCE, 'FRC-CLA-RFR')],
          optional: [applicable('CCM-OCR-RPS', 'MAY', IN_FORCE, 'FRC-CLA-OFR')],
        },
        statements: { file: FILE, byId: new Map([['FRC-CLA-MFR', statement()]]) },
        ksis: [healthy('KSI-IAM-APM'), healthy('KSI-SVC-SIN', { status: 'Not Implemented' })],
      }),
    );
    expect(r.counts).toEqual({
      rules: { total: 5, met: 1, not_met: 0, needs_statement: 3, not_yet_required: 1 },
      ksis: { total: 2, met: 1, not_met: 1, needs_statement: 0, not_yet_required: 0 },
    });
    expect(r.recommended).toEqual([{ id: 'CCM-QTR-MTG', force: 'SHOULD', effective: IN_FORCE }]);
    expect(r.optional).toEqual([{ id: 'CCM-OCR-RPS', force: 'MAY', effective: IN_FORCE }]);
    expect(r.mustNotMet).toEqual(['AFC-CSO-INB', 'CCM-OCR-LSI', 'KSI-SVC-SIN']);
  });

  it('ready when nothing blocks: blocks() is a MUST or MUST NOT in force not met or without a statement', () => {
    expect(judgeReadiness(input({ found: found([applicable('AFC-CSO-ACK', 'SHOULD')]) })).mustNotMet).toEqual([]);
    expect(blocks({ force: 'MUST', effective: IN_FORCE, status: 'not_met' })).toBe(true);
    expect(blocks({ force: 'MUST NOT', effective: IN_FORCE, status: 'needs_statement' })).toBe(true);
    expect(blocks({ force: 'MUST', effective: IN_FORCE, status: 'met' })).toBe(false);
    expect(blocks({ force: 'SHOULD', effective: IN_FORCE, status: 'not_met' })).toBe(false);
    expect(blocks({ force: 'SHOULD NOT', effective: IN_FORCE, status: 'needs_statement' })).toBe(false);
    expect(blocks({ force: 'MUST', effective: { state: 'required_from', date: '2026-12-07' }, status: 'not_yet_required' })).toBe(false);
    expect(blocks({ force: undefined, effective: IN_FORCE, status: 'not_met' })).toBe(false);
  });
});
