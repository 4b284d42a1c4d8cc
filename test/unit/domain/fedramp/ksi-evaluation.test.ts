import { applicability } from '../../../../src/domain/fedramp/applicability';
import type { Cr26Class, Cr26Ksi } from '../../../../src/domain/fedramp/cr26-rules';
import {
  Cr26Tally,
  cr26NameOf,
  testsOf,
  controlsIntersect,
  evaluateCr26Ksis,
  evaluationResults,
  historyCheck,
  ksiMetrics,
  ksiStatusOf,
  matchControls,
  monthsBefore,
  type Cr26Evaluation,
  type DailyKsiStatus,
  type EvaluationResult,
} from '../../../../src/domain/fedramp/ksi-evaluation';
import { builtInCatalog } from '../../../fakes/fixed-catalog-source';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const catalog = builtInCatalog();
const NOW = new Date('2026-09-30T12:00:00Z');

const applicable = (cls: Cr26Class): Cr26Ksi[] =>
  applicability(rules, { type: '20x', class: cls, path: 'program', status: 'applying' }, NOW).ksis.map((k) => k.ksi);
const result = (ksi_id: string, status: EvaluationResult['status'], tool: string, ...checks: string[]): EvaluationResult => ({
  ksi_id,
  status,
  tool,
  checks: checks.length > 0 ? checks : [ksi_id],
});

/** One hand-made run: CR26 ids, an old numeric alias, retired ids, 163-catalog results and ids nothing knows. */
const RUN: EvaluationResult[] = [
  result('KSI-IAM-APM', 'PASS', 'scubagear', 'MS.AAD.1.1v1', 'MS.AAD.2.1v1'),
  result('KSI-IAM-02', 'PASS', 'prowler', 'iam_root_mfa_enabled'), // numeric id of KSI-IAM-APM (25.x releases)
  result('KSI-IA-05', 'FAIL', 'prowler', 'iam_password_policy_minimum_length_14'), // ia-5, ia-5.1, ia-5.2, ia-5.6, ia-5.7
  result('KSI-SC-04', 'FAIL', 'prowler', 'iam_password_policy_minimum_length_14'), // sc-4; same method as above
  result('KSI-CP-10', 'PASS', 'aws-backup', 'backup_plan_exists'), // cp-10, cp-10.2
  result('KSI-CNA-OFA', 'PASS', 'scubagear'),
  result('KSI-PIY-RES', 'FAIL', 'manual-review'),
  result('KSI-MLA-ALA', 'WARN', 'prowler', 'cloudwatch_alarm_exists'),
  result('KSI-CMT-05', 'FAIL', 'prowler', 'old_check'), // flagged retired in 25.12A
  result('KSI-IAM-01', 'PASS', 'prowler', 'old_mfa'), // via KSI-IAM-MFA, not in CR26
  result('KSI-PE-03', 'PASS', 'badge-log'), // pe-3: no CR26 KSI lists a PE control
  result('KSI-ZZZ-99', 'PASS', 'other'),
];

const evaluate = (cls: Cr26Class, results: EvaluationResult[] = RUN): Cr26Evaluation =>
  evaluateCr26Ksis({ rules, ksis: applicable(cls), class: cls, results, catalog });
const ksi = (evaluation: Cr26Evaluation, id: string) => evaluation.ksis.find((k) => k.id === id)!;
const from = (evaluation: Cr26Evaluation, id: string) => ksi(evaluation, id).contributing.map((c) => `${c.ksi_id}:${c.via}`);

describe('the control intersection rule', () => {
  it('adds the base of every enhancement to a control list', () => {
    expect([...matchControls(['ac-2.1', 'IA-5(1)', 'sc-7'])]).toEqual(['ac-2.1', 'ac-2', 'ia-5.1', 'ia-5', 'sc-7']);
  });

  it('meets a base and its enhancements, and two enhancements of one base; never another base', () => {
    expect(controlsIntersect(['ac-2'], ['ac-2'])).toBe(true);
    expect(controlsIntersect(['ac-2'], ['ac-2.1'])).toBe(true);
    expect(controlsIntersect(['ac-2.1'], ['ac-2'])).toBe(true);
    expect(controlsIntersect(['ac-2.1'], ['ac-2.3'])).toBe(true);
    expect(controlsIntersect(['ac-2'], ['ac-20', 'ac-20.1'])).toBe(false);
    expect(controlsIntersect(['ac-2.1'], ['ac-21'])).toBe(false);
    expect(controlsIntersect([], ['ac-2'])).toBe(false);
  });

  it('lets a catalog result reach a CR26 KSI that lists only enhancements of its control (KSI-AC-02 → KSI-IAM-AAM: ac-2.2, ac-2.3, ac-2.13)', () => {
    const evaluation = evaluate('D', [result('KSI-AC-02', 'PASS', 'prowler', 'iam_user_inactive')]);
    expect(ksi(evaluation, 'KSI-IAM-AAM').status).toBe('Implemented');
    expect(ksi(evaluation, 'KSI-MLA-LET').status).toBe('Implemented'); // ac-2.4 only
    expect(evaluation.ksis.filter((k) => k.status !== undefined).map((k) => k.id)).toEqual([
      'KSI-IAM-AAM',
      'KSI-IAM-APM',
      'KSI-IAM-ELP',
      'KSI-IAM-JIT',
      'KSI-IAM-SNU',
      'KSI-IAM-SUS',
      'KSI-MLA-LET',
      'KSI-MLA-RVL',
      'KSI-SVC-ACM',
    ]);
  });
});

describe('evaluateCr26Ksis', () => {
  const d = evaluate('D');

  it('evaluates every applicable KSI, in the order given', () => {
    expect(d.ksis.map((k) => k.id)).toEqual(applicable('D').map((k) => k.id));
    expect(d.ksis).toHaveLength(46);
  });

  it('takes results keyed by the CR26 id, by an earlier id that resolves to it, and catalog results sharing a control', () => {
    expect(rules.aliases['KSI-IAM-02']).toBe('KSI-IAM-APM');
    expect(from(d, 'KSI-IAM-APM')).toEqual(['KSI-IAM-APM:id', 'KSI-IAM-02:alias', 'KSI-IA-05:controls']);
    expect(ksi(d, 'KSI-IAM-APM').contributing[1]).toEqual({
      ksi_id: 'KSI-IAM-02',
      status: 'PASS',
      tool: 'prowler',
      checks: ['iam_root_mfa_enabled'],
      via: 'alias',
    });
  });

  it('lets one catalog result reach several CR26 KSIs through shared controls', () => {
    const reached = (id: string) => d.ksis.filter((k) => k.contributing.some((c) => c.ksi_id === id)).map((k) => k.id);
    expect(reached('KSI-IA-05')).toEqual(['KSI-IAM-APM', 'KSI-IAM-ELP', 'KSI-IAM-SNU', 'KSI-SVC-ASM']);
    expect(reached('KSI-CP-10')).toEqual(['KSI-RPL-ABO', 'KSI-RPL-ARP', 'KSI-RPL-RRO', 'KSI-RPL-TRC']);
    expect(reached('KSI-SC-04')).toEqual(['KSI-CNA-ULN', 'KSI-IAM-ELP', 'KSI-PIY-RSD', 'KSI-SVC-PRR']);
  });

  it('judges each status case: all PASS, all FAIL, mixed, WARN, none', () => {
    expect(ksi(d, 'KSI-RPL-ABO').status).toBe('Implemented');
    expect(ksi(d, 'KSI-CNA-OFA').status).toBe('Implemented');
    expect(ksi(d, 'KSI-PIY-RES').status).toBe('Not Implemented');
    expect(ksi(d, 'KSI-IAM-ELP').status).toBe('Not Implemented'); // KSI-IA-05 and KSI-SC-04, both FAIL
    expect(ksi(d, 'KSI-IAM-APM').status).toBe('Partially Implemented'); // PASS, PASS, FAIL
    expect(ksi(d, 'KSI-MLA-ALA').status).toBe('Partially Implemented'); // WARN alone
    expect(ksi(d, 'KSI-CED-RAT')).toEqual({ id: 'KSI-CED-RAT', contributing: [], methods: 0, methodsRequired: { min: 4, force: 'MUST' }, methodsMet: false });
    expect(ksiStatusOf([])).toBeUndefined();
    expect(ksiStatusOf(['PASS', 'WARN'])).toBe('Partially Implemented');
    expect(ksiStatusOf(['FAIL', 'WARN'])).toBe('Partially Implemented');
    expect(ksiStatusOf(['WARN', 'WARN'])).toBe('Partially Implemented');
  });

  it('lists the KSIs without evidence', () => {
    expect(d.noEvidence).toContain('KSI-CED-RAT');
    expect(d.noEvidence).not.toContain('KSI-IAM-APM');
    expect(d.noEvidence).toEqual(d.ksis.filter((k) => k.contributing.length === 0).map((k) => k.id));
    const withEvidence = ['KSI-CNA-OFA', 'KSI-CNA-ULN', 'KSI-IAM-APM', 'KSI-IAM-ELP', 'KSI-IAM-SNU', 'KSI-MLA-ALA', 'KSI-PIY-RES', 'KSI-PIY-RSD'];
    withEvidence.push('KSI-RPL-ABO', 'KSI-RPL-ARP', 'KSI-RPL-RRO', 'KSI-RPL-TRC', 'KSI-SVC-ASM', 'KSI-SVC-PRR');
    expect(d.ksis.filter((k) => k.status !== undefined).map((k) => k.id)).toEqual(withEvidence);
    expect(d.noEvidence).toHaveLength(46 - withEvidence.length);
  });

  it('reports retired, unknown and unreaching ids as unmapped, with the reason; a retired id reaches nothing', () => {
    expect(d.unmapped).toEqual([
      { id: 'KSI-CMT-05', kind: 'retired', reason: 'KSI-CMT-05: last listed in 25.12A, flagged retired' },
      { id: 'KSI-IAM-01', kind: 'retired', reason: 'KSI-IAM-01: last listed in 25.12A, then known as KSI-IAM-MFA; not in CR26 2026.10.05.01' },
      { id: 'KSI-PE-03', kind: 'no-shared-control', reason: "KSI-PE-03: none of its controls (pe-3) meets an applicable KSI's" },
      { id: 'KSI-ZZZ-99', kind: 'unknown', reason: 'KSI-ZZZ-99: neither a CR26 KSI, an earlier FedRAMP id nor a catalog KSI' },
    ]);
    const all = d.ksis.flatMap((k) => k.contributing.map((c) => c.ksi_id));
    for (const id of ['KSI-CMT-05', 'KSI-IAM-01', 'KSI-PE-03', 'KSI-ZZZ-99']) expect(all).not.toContain(id);
  });

  it('counts automated methods as distinct (tool, check id) pairs', () => {
    expect(ksi(d, 'KSI-IAM-APM').methods).toBe(4); // 2 scubagear checks, 2 prowler checks
    expect(ksi(d, 'KSI-IAM-ELP').methods).toBe(1); // two results, one (prowler, check) pair
  });

  it('tallies one result at a time: indices, how each came, counts and `<tool>:<check>` tests, an id routed once', () => {
    const tally = new Cr26Tally({ rules, ksis: applicable('B'), class: 'B', catalog });
    expect(tally.add(RUN[0], 7)).toEqual(['KSI-IAM-APM']);
    expect(tally.add(RUN[1], 9)).toEqual(['KSI-IAM-APM']);
    expect(tally.add(RUN[8], 10)).toEqual([]);
    expect(tally.add({ ...RUN[1], status: 'FAIL', checks: ['a:b'] }, 11)).toEqual(['KSI-IAM-APM']);
    const t = tally.ksi('KSI-IAM-APM')!;
    expect({ indices: t.indices, via: t.via, pass: t.pass, fail: t.fail, other: t.other }).toEqual({
      indices: [7, 9, 11],
      via: ['id', 'alias', 'alias'],
      pass: 2,
      fail: 1,
      other: 0,
    });
    expect(testsOf(t)).toEqual(['prowler:a:b', 'prowler:iam_root_mfa_enabled', 'scubagear:MS.AAD.1.1v1', 'scubagear:MS.AAD.2.1v1']);
    expect([...t.tools]).toEqual(['scubagear', 'prowler']);
    const e = tally.evaluation();
    expect(e.ksis.find((k) => k.id === 'KSI-IAM-APM')).toMatchObject({ status: 'Partially Implemented', methods: 4 });
    expect(e.unmapped.map((u) => u.id)).toEqual(['KSI-CMT-05']);
  });

  it("compares methods with FRC-CSX-VVK's minimum for the class (B 1 SHOULD, C 2 MUST, D 4 MUST, A none)", () => {
    const required = (cls: Cr26Class, id: string) => {
      const k = ksi(evaluate(cls), id);
      return { methods: k.methods, methodsRequired: k.methodsRequired, methodsMet: k.methodsMet };
    };
    expect(required('B', 'KSI-IAM-ELP')).toEqual({ methods: 1, methodsRequired: { min: 1, force: 'SHOULD' }, methodsMet: true });
    expect(required('C', 'KSI-IAM-ELP')).toEqual({ methods: 1, methodsRequired: { min: 2, force: 'MUST' }, methodsMet: false });
    expect(required('C', 'KSI-IAM-APM')).toEqual({ methods: 4, methodsRequired: { min: 2, force: 'MUST' }, methodsMet: true });
    expect(required('D', 'KSI-IAM-APM')).toEqual({ methods: 4, methodsRequired: { min: 4, force: 'MUST' }, methodsMet: true });
    expect(required('D', 'KSI-IAM-ELP')).toEqual({ methods: 1, methodsRequired: { min: 4, force: 'MUST' }, methodsMet: false });
    expect(required('A', 'KSI-IAM-APM')).toEqual({ methods: 4, methodsRequired: undefined, methodsMet: undefined });
  });

  it('for Class A evaluates only its 7 KSIs; a result for another CR26 KSI is unmapped as not applicable', () => {
    const a = evaluate('A');
    expect(a.ksis.map((k) => k.id)).toEqual(['KSI-CED-RAT', 'KSI-CMT-LMC', 'KSI-CNA-RNT', 'KSI-IAM-AAM', 'KSI-IAM-APM', 'KSI-INR-RIR', 'KSI-SVC-SIN']);
    expect(a.unmapped.find((u) => u.id === 'KSI-MLA-ALA')).toEqual({
      id: 'KSI-MLA-ALA',
      kind: 'not-applicable',
      reason: "KSI-MLA-ALA does not apply to the profile's class A",
    });
    expect(from(a, 'KSI-IAM-APM')).toEqual(['KSI-IAM-APM:id', 'KSI-IAM-02:alias', 'KSI-IA-05:controls']);
  });
});

describe('evaluationResults', () => {
  it("takes the report's tool, else the result's source, and the check ids, else the result's own id", () => {
    const report = {
      results: [
        {
          ksi_id: 'KSI-IAM-APM',
          status: 'PASS' as const,
          source: 'ScubaGear 1.5.0',
          checks: [
            { id: 'a', status: 'PASS' },
            { id: 'a', status: 'PASS' },
            { id: 'b', status: 'FAIL' },
          ],
        },
        { ksi_id: 'KSI-AC-02', status: 'WARN' as const },
      ],
    };
    expect(evaluationResults(report)).toEqual([
      { ksi_id: 'KSI-IAM-APM', status: 'PASS', tool: 'ScubaGear 1.5.0', checks: ['a', 'b'] },
      { ksi_id: 'KSI-AC-02', status: 'WARN', tool: 'unknown', checks: ['KSI-AC-02'] },
    ]);
    expect(evaluationResults({ ...report, source: { tool: 'ScubaGear', version: '1.5.0' } }).map((r) => r.tool)).toEqual(['ScubaGear', 'ScubaGear']);
  });
});

describe('ksiMetrics', () => {
  const DAILY: DailyKsiStatus[] = [
    { date: '2025-01-01', status: 'Implemented' }, // more than a year before NOW
    { date: '2026-03-01', status: 'Implemented' },
    { date: '2026-09-20', status: 'Implemented' },
    { date: '2026-09-27' }, // a run without evidence for the KSI
    { date: '2026-09-28', status: 'Not Implemented' },
    { date: '2026-09-29', status: 'Implemented' },
    { date: '2026-09-29', status: 'Partially Implemented' }, // the later entry for a date wins
    { date: '2026-09-30', status: 'Implemented' },
    { date: '2026-10-01', status: 'Not Implemented' }, // after now: ignored
  ];

  it('summarizes the 30 days ending today, counting gaps as no evidence', () => {
    expect(ksiMetrics(DAILY, NOW).last30Days).toEqual({ days: 30, implemented: 2, partially: 1, notImplemented: 1, noEvidence: 26 });
  });

  it('summarizes up to a year: from the first day of the history within the last 365 days', () => {
    // 2026-03-01 .. 2026-09-30: 31 + 30 + 31 + 30 + 31 + 31 + 30 days
    expect(ksiMetrics(DAILY, NOW).lastYear).toEqual({ days: 214, implemented: 3, partially: 1, notImplemented: 1, noEvidence: 209 });
    const longer = [{ date: '2025-10-01', status: 'Not Implemented' as const }, ...DAILY];
    expect(ksiMetrics(longer, NOW).lastYear).toEqual({ days: 365, implemented: 3, partially: 1, notImplemented: 2, noEvidence: 359 });
  });

  it('gives 30 days without evidence and an empty year for no history', () => {
    expect(ksiMetrics([], NOW)).toEqual({
      last30Days: { days: 30, implemented: 0, partially: 0, notImplemented: 0, noEvidence: 30 },
      lastYear: { days: 0, implemented: 0, partially: 0, notImplemented: 0, noEvidence: 0 },
    });
  });
});

describe('historyCheck (FRC-CSX-MOT)', () => {
  const since = (date: string): DailyKsiStatus[] => [
    { date: '2024-01-01' },
    { date, status: 'Implemented' },
    { date: '2026-09-30', status: 'Not Implemented' },
  ];

  it('needs 6 months for Class C and 18 for Class D, counted from the first day with a status', () => {
    expect(historyCheck(since('2026-03-30'), 'C', rules, NOW)).toEqual({
      since: '2026-03-30',
      required: { months: 6, force: 'MUST', from: '2026-03-30' },
      met: true,
    });
    expect(historyCheck(since('2026-03-31'), 'C', rules, NOW)).toEqual({
      since: '2026-03-31',
      required: { months: 6, force: 'MUST', from: '2026-03-30' },
      met: false,
    });
    expect(historyCheck(since('2026-03-30'), 'D', rules, NOW)).toEqual({
      since: '2026-03-30',
      required: { months: 18, force: 'MUST', from: '2025-03-30' },
      met: false,
    });
    expect(historyCheck(since('2025-03-01'), 'D', rules, NOW).met).toBe(true);
    expect(historyCheck([], 'D', rules, NOW)).toEqual({ required: { months: 18, force: 'MUST', from: '2025-03-30' }, met: false });
  });

  it('names no period for Classes A and B', () => {
    expect(historyCheck(since('2026-09-01'), 'B', rules, NOW)).toEqual({ since: '2026-09-01' });
    expect(historyCheck([], 'A', rules, NOW)).toEqual({});
  });

  it('counts calendar months, clamping to the month end', () => {
    expect(monthsBefore('2026-08-31', 6)).toBe('2026-02-28');
    expect(monthsBefore('2026-01-15', 18)).toBe('2024-07-15');
    expect(monthsBefore('2028-08-29', 6)).toBe('2028-02-29');
  });
});

describe('cr26NameOf and Cr26Tally.nameOf: the names a CR26 document gives result ids', () => {
  it("names a CR26 id as itself, an earlier FedRAMP id as its CR26 id, a KSI of svc's catalog as its NIST base control", () => {
    expect(['KSI-IAM-APM', 'KSI-IAM-02', 'KSI-AC-02', 'KSI-IA-05', 'KSI-XYZ-99', 'KSI-ZZ-99'].map((id) => cr26NameOf(id, rules, catalog))).toEqual([
      'KSI-IAM-APM',
      'KSI-IAM-APM',
      'ac-2',
      'ia-5',
      'KSI-XYZ-99',
      'KSI-ZZ-99',
    ]);
  });

  it('names the one check of a result without checks as the document names its id, so ksiTests carry no catalog id', () => {
    const tally = new Cr26Tally({ rules, ksis: applicable('D'), class: 'D', catalog });
    tally.add(result('KSI-IA-05', 'FAIL', 'prowler'), 0);
    tally.add(result('KSI-IAM-02', 'PASS', 'scubagear'), 1);
    expect(testsOf(tally.ksi('KSI-IAM-APM')!)).toEqual(['prowler:ia-5', 'scubagear:KSI-IAM-APM']);
    expect(['KSI-IA-05', 'KSI-IAM-02'].map((id) => tally.nameOf(id))).toEqual(['ia-5', 'KSI-IAM-APM']);
  });
});
