import rulesData from '../../../../src/domain/fedramp/data/cr26-rules.json';
import type { Cr26Class } from '../../../../src/domain/fedramp/cr26-rules';
import {
  DEFAULT_POLICY,
  globMatch,
  parseNRating,
  policyEvaluation,
  readEvaluationPolicy,
  readKevCatalog,
} from '../../../../src/domain/vulnerabilities/evaluation-policy';
import {
  judgeGroup,
  nextDue,
  nextJudgmentChange,
  painCell,
  type Evaluation,
  type GroupHistory,
  type NRating,
} from '../../../../src/domain/vulnerabilities/lifecycle';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const DAY = 86_400_000;
const T0 = Date.parse('2026-12-07T00:00:00Z');
const at = (days: number, hours = 0) => new Date(T0 + days * DAY + hours * 3_600_000).toISOString().replace(/\.000Z$/, 'Z');
const when = (days: number, hours = 0) => new Date(T0 + days * DAY + hours * 3_600_000);
const group = (evaluations: Evaluation[] = [], extra: Partial<GroupHistory> = {}): GroupHistory => ({
  finding_id: 'CVE-2024-3094',
  first_detected: at(0),
  last_seen: at(0),
  evaluations,
  ...extra,
});
const person = (days: number, e: Partial<Evaluation>): Evaluation => ({ at: at(days), by: 'ada@example.com', reason: 'reviewed', ...e });

/** VDR-TFR-PVR's table as the data file holds it, read here without svc's code. */
const pvr = (cls: Cr26Class, n: number, cat: string) => {
  const rule = (
    rulesData.rules as { id: string; varies_by_class?: Record<string, { pain_timeframes?: Record<string, Record<string, { num: number; unit: string }>> }> }[]
  ).find((r) => r.id === 'VDR-TFR-PVR')!;
  return rule.varies_by_class![cls].pain_timeframes![String(n)][cat];
};
const evu = (cls: Cr26Class) =>
  (rulesData.rules as { id: string; varies_by_class?: Record<string, { timeframe?: { num: number } }> }[]).find((r) => r.id === 'VER-TFR-EVU')!
    .varies_by_class![cls].timeframe!.num;

describe('the vulnerability lifecycle (DESIGN §12.4), every timeframe from the rules data', () => {
  it.each(['A', 'B', 'C', 'D'] as Cr26Class[])("Class %s: an unevaluated group is overdue the day after VER-TFR-EVU's window, not before", (cls) => {
    const days = evu(cls);
    expect(judgeGroup(group(), rules, cls, when(days)).overdue.is).toBe(false);
    const late = judgeGroup(group(), rules, cls, when(days, 1));
    expect(late).toMatchObject({
      state: 'detected',
      overdue: { is: true, due_at: at(days), reasons: [`not evaluated within ${days} days of detection (VER-TFR-EVU, due ${at(days)})`] },
    });
    // A policy evaluation counts as an evaluation.
    const byPolicy = { at: at(0), by: 'policy:0123456789ab', reason: 'policy', irv: false, lev: false, n: 2 as NRating };
    expect(judgeGroup(group([byPolicy]), rules, cls, when(days, 1)).due.evaluation.overdue).toBe(false);
  });

  it('walks 200 days for each class: an N4 internet-reachable exploitable group evaluated on day 2 is overdue exactly after its VDR-TFR-PVR cell', () => {
    for (const cls of ['A', 'B', 'C', 'D'] as Cr26Class[]) {
      const cell = pvr(cls, 4, 'irv_lev');
      const g = group([person(2, { irv: true, lev: true, n: 4 })]);
      let first: number | undefined;
      for (let day = 0; day <= 200 && first === undefined; day++) if (judgeGroup(g, rules, cls, when(day, 1)).due.mitigation?.overdue) first = day;
      expect({ cls, first }).toEqual({ cls, first: 2 + cell.num });
    }
  });

  it('Class D: an N5 internet-reachable likely exploitable group is overdue 12 hours after its evaluation, and a reportable incident', () => {
    expect(pvr('D', 5, 'irv_lev')).toMatchObject({ num: 12, unit: 'hours' });
    const g = group([person(1, { irv: true, lev: true, n: 5 })]);
    expect(judgeGroup(g, rules, 'D', when(1, 12)).due.mitigation).toEqual({ rule: 'VDR-TFR-PVR', at: at(1, 12), force: 'SHOULD', overdue: false });
    const late = judgeGroup(g, rules, 'D', when(1, 13));
    expect(late.overdue).toEqual({ is: true, reasons: [`N5 not mitigated or remediated by ${at(1, 12)} (VDR-TFR-PVR)`], due_at: at(1, 12) });
    expect(late.incident).toEqual({ internet: true, other: false, force: 'SHOULD' });
  });

  it('partial mitigation to N3 is a reduction event and ends the internet-reachable incident (VER-TFR-IRI)', () => {
    const g = group([person(0, { irv: true, lev: true, n: 4 }), person(3, { mitigated: 'partial', n: 3, next_reduction: { at: at(20), n: 2 } })]);
    const j = judgeGroup(g, rules, 'C', when(4));
    expect(j).toMatchObject({
      state: 'mitigated',
      n: 3,
      reductions: [
        { at: at(0), to: 4, by: 'ada@example.com' },
        { at: at(3), from: 4, to: 3, by: 'ada@example.com' },
      ],
      next_reduction: { at: at(20), n: 2 },
    });
    expect(j.incident).toEqual({ internet: false, other: false });
    // The mitigation clock restarts from the evaluation that set N3: C, N3, IRV+LEV.
    expect(j.due.mitigation?.at).toBe(at(3 + pvr('C', 3, 'irv_lev').num));
    expect(judgeGroup(group([person(0, { irv: false, lev: true, n: 5 })]), rules, 'D', when(0, 1)).incident).toEqual({
      internet: false,
      other: true,
      force: 'SHOULD',
    });
  });

  it('full mitigation ends both incident flags: its likelihood or impact is negligible (FRD-FMV), whatever the N-rating', () => {
    const internet = group([person(0, { irv: true, lev: true, n: 5 }), person(1, { mitigated: 'full' })]);
    expect(judgeGroup(internet, rules, 'D', when(0, 6)).incident).toEqual({ internet: true, other: false, force: 'SHOULD' });
    expect(judgeGroup(internet, rules, 'D', when(2))).toMatchObject({ state: 'mitigated', n: 5, incident: { internet: false, other: false } });
    const other = group([person(0, { irv: false, lev: true, n: 5 }), person(1, { mitigated: 'full' })]);
    expect(judgeGroup(other, rules, 'D', when(2)).incident).toEqual({ internet: false, other: false });
  });

  it('a KEV entry is overdue from the day after its catalog due date even when fully mitigated, and not once a run no longer detects it', () => {
    const kev = { cveID: 'CVE-2024-3094', dueDate: '2026-12-20' };
    const g = group([person(0, { irv: false, lev: true, n: 3 }), person(1, { mitigated: 'full' })]);
    expect(judgeGroup(g, rules, 'B', new Date('2026-12-20T23:59:59Z'), kev).due.kev?.overdue).toBe(false);
    const late = judgeGroup(g, rules, 'B', new Date('2026-12-21T00:00:00Z'), kev);
    expect(late).toMatchObject({ state: 'mitigated', due: { kev: { rule: 'VDR-TFR-KEV', at: '2026-12-20T23:59:59Z', force: 'SHOULD', overdue: true } } });
    expect(late.overdue.reasons).toEqual(['KEV due 2026-12-20 and still detected (VDR-TFR-KEV)']);
    expect(judgeGroup({ ...g, remediated_at: at(10) }, rules, 'B', new Date('2026-12-22T00:00:00Z'), kev)).toMatchObject({
      state: 'remediated',
      overdue: { is: false },
    });
  });

  it('accepts what is not fully mitigated or remediated within 192 days of evaluation (VER-TFR-MAV), and then it is no longer overdue', () => {
    const g = group([person(1, { irv: false, lev: false, n: 3 })]);
    expect(judgeGroup(g, rules, 'B', when(193)).state).toBe('evaluated');
    const j = judgeGroup(g, rules, 'B', when(193, 1));
    expect(j).toMatchObject({
      state: 'accepted',
      accepted: { at: at(193), by: 'VER-TFR-MAV', rationale: `not fully mitigated or remediated within 192 days of its evaluation on ${at(1).slice(0, 10)}` },
      overdue: { is: false },
    });
  });

  it('accepts by recorded decision with its rationale, marks false positives, and closes what a run no longer detects', () => {
    expect(
      judgeGroup(
        group([person(0, { irv: true, lev: true, n: 4 }), person(2, { accept: true, reason: 'vendor fix in Q3; WAF rule in place' })]),
        rules,
        'B',
        when(30),
      ),
    ).toMatchObject({
      state: 'accepted',
      accepted: { at: at(2), by: 'decision', rationale: 'vendor fix in Q3; WAF rule in place' },
      overdue: { is: false },
    });
    expect(judgeGroup(group([person(0, { false_positive: true })]), rules, 'D', when(60))).toMatchObject({
      state: 'false-positive',
      overdue: { is: false },
      incident: { internet: false, other: false },
    });
    expect(judgeGroup(group([], { remediated_at: at(1) }), rules, 'D', when(60))).toMatchObject({
      state: 'remediated',
      remediated_at: at(1),
      overdue: { is: false },
    });
  });

  it('N1 has no mitigation timeframe', () => {
    expect(painCell(rules, 'B', 1, 'irv_lev')).toBeUndefined();
    expect(judgeGroup(group([person(0, { irv: true, lev: true, n: 1 })]), rules, 'B', when(100)).due.mitigation).toBeUndefined();
  });
});

describe('nextDue: the due time that still counts', () => {
  const kev = { cveID: 'CVE-2026-9', dueDate: '2026-12-20' };
  it('is the evaluation due time until evaluated, then the mitigation due time, the KEV due time when earlier', () => {
    expect(nextDue(judgeGroup(group([]), rules, 'B', when(1)))).toBe(at(7));
    expect(nextDue(judgeGroup(group([person(0, { irv: true, lev: true, n: 3 })]), rules, 'B', when(1)))).toBe(at(pvr('B', 3, 'irv_lev').num));
    expect(nextDue(judgeGroup({ ...group([person(0, { irv: true, lev: true, n: 3 })]), finding_id: 'CVE-2026-9' }, rules, 'B', when(1), kev))).toBe(
      '2026-12-20T23:59:59Z',
    );
  });

  it('is none once remediated, a false positive, accepted or fully mitigated, but a KEV due time stays', () => {
    expect(nextDue(judgeGroup(group([person(0, { false_positive: true })]), rules, 'B', when(1)))).toBeUndefined();
    expect(nextDue(judgeGroup(group([person(0, { irv: true, lev: true, n: 3, accept: true })]), rules, 'B', when(1)))).toBeUndefined();
    const full = group([person(0, { irv: true, lev: true, n: 3 }), person(1, { mitigated: 'full' })]);
    expect(nextDue(judgeGroup(full, rules, 'B', when(2)))).toBeUndefined();
    expect(nextDue(judgeGroup(full, rules, 'B', when(2), kev))).toBe('2026-12-20T23:59:59Z');
  });
});

describe('nextJudgmentChange: when time alone next changes a judgment (the trust center rebuilds then)', () => {
  const kev = { cveID: 'CVE-2026-9', dueDate: '2026-12-20' };
  const secondAfter = (iso: string) => new Date(Date.parse(iso) + 1000).toISOString().replace(/\.000Z$/, 'Z');
  const changes = (g: GroupHistory, now: Date, entry?: typeof kev) => {
    const next = nextJudgmentChange(judgeGroup(g, rules, 'B', now, entry), rules, now);
    return next === undefined ? undefined : new Date(next).toISOString().replace(/\.000Z$/, 'Z');
  };

  it('is the second after the evaluation due time, then after the mitigation due time, and the judgment does change then', () => {
    expect(changes(group(), when(1))).toBe(secondAfter(at(evu('B'))));
    expect(judgeGroup(group(), rules, 'B', new Date(Date.parse(at(evu('B'))))).overdue.is).toBe(false);
    expect(judgeGroup(group(), rules, 'B', new Date(Date.parse(at(evu('B'))) + 1000)).overdue.is).toBe(true);
    const evaluated = group([person(0, { irv: true, lev: true, n: 3 })]);
    const due = Date.parse(at(pvr('B', 3, 'irv_lev').num));
    expect(changes(evaluated, when(1))).toBe(secondAfter(at(pvr('B', 3, 'irv_lev').num)));
    expect(judgeGroup(evaluated, rules, 'B', new Date(due)).overdue.is).toBe(false);
    expect(judgeGroup(evaluated, rules, 'B', new Date(due + 1000)).overdue.is).toBe(true);
  });

  it("once overdue, VER-TFR-MAV's acceptance is the next change; a KEV due date counts while the group is still detected", () => {
    const evaluated = group([person(0, { irv: true, lev: true, n: 3 })]);
    const late = new Date(Date.parse(at(pvr('B', 3, 'irv_lev').num)) + 2000);
    expect(changes(evaluated, late)).toBe(secondAfter(at(192)));
    expect(judgeGroup(evaluated, rules, 'B', new Date(T0 + 192 * DAY + 1000)).state).toBe('accepted');
    const full = group([person(0, { irv: true, lev: true, n: 3 }), person(1, { mitigated: 'full' })]);
    expect(changes({ ...full, finding_id: 'CVE-2026-9' }, when(2), kev)).toBe('2026-12-21T00:00:00Z');
  });

  it('is none for a group time no longer changes: remediated, a false positive, accepted, or fully mitigated without a KEV entry', () => {
    expect(changes(group([person(0, { false_positive: true })]), when(1))).toBeUndefined();
    expect(changes(group([person(0, { irv: true, lev: true, n: 3, accept: true })]), when(1))).toBeUndefined();
    expect(changes(group([person(0, { irv: true, lev: true, n: 3 }), person(1, { mitigated: 'full' })]), when(2))).toBeUndefined();
    expect(changes(group([], { remediated_at: at(1) }), when(2))).toBeUndefined();
  });
});

describe('the evaluation policy', () => {
  it('evaluates a new group: internet-reachable by pattern, likely exploitable by KEV, N by the worst severity', () => {
    const policy = { ...DEFAULT_POLICY, internet_reachable: ['*.example.com', 'arn:aws:elasticloadbalancing:*'] };
    const e = policyEvaluation(
      { finding_id: 'CVE-2024-3094', resources: ['db-1', 'api.example.com'], severities: ['MEDIUM', 'CRITICAL'], first_detected: at(0), recorded: at(0) },
      policy,
      'policy:abc',
      new Map([['CVE-2024-3094', { cveID: 'CVE-2024-3094', dueDate: '2026-12-20' }]]),
    );
    expect(e).toEqual({
      at: at(0),
      by: 'policy:abc',
      irv: true,
      lev: true,
      n: 5,
      reason: 'api.example.com matches an internet-reachable pattern; in the CISA KEV catalog (due 2026-12-20); N5 from scanner severity MEDIUM, CRITICAL',
    });
    expect(
      policyEvaluation({ finding_id: 'x', resources: ['db-1'], severities: ['weird'], first_detected: at(0), recorded: at(0) }, DEFAULT_POLICY, 'p', new Map()),
    ).toMatchObject({
      irv: false,
      lev: false,
      n: 3,
      reason: 'no resource matches an internet-reachable pattern; not in the CISA KEV catalog; N3 from scanner severity weird',
    });
  });

  it('says the KEV status is unknown, not "not in the catalog", when no KEV catalog is configured: it states only what svc checked', () => {
    const e = policyEvaluation(
      { finding_id: 'CVE-2024-3094', resources: ['db-1'], severities: ['HIGH'], first_detected: at(0), recorded: at(0) },
      DEFAULT_POLICY,
      'p',
      undefined,
    );
    expect(e).toMatchObject({
      lev: false,
      reason: 'no resource matches an internet-reachable pattern; KEV status unknown: no CISA KEV catalog was configured; N4 from scanner severity HIGH',
    });
    expect(e.reason).not.toContain('not in the CISA KEV catalog');
  });

  it('evaluates when the run that first records the group is recorded, so a detection reported late is evaluated late', () => {
    const late = policyEvaluation(
      { finding_id: 'CVE-2026-7', resources: ['db-1'], severities: ['HIGH'], first_detected: at(0), recorded: at(10) },
      DEFAULT_POLICY,
      'p',
      undefined,
    );
    expect(late.at).toBe(at(10));
    const j = judgeGroup({ finding_id: 'CVE-2026-7', first_detected: at(0), last_seen: at(10), evaluations: [late] }, rules, 'D', when(9));
    expect(j.overdue.reasons).toEqual([`not evaluated within 2 days of detection (VER-TFR-EVU, due ${at(2)})`]);
    expect(judgeGroup({ finding_id: 'CVE-2026-7', first_detected: at(0), last_seen: at(10), evaluations: [late] }, rules, 'D', when(10)).state).toBe(
      'evaluated',
    );
  });

  it('matches patterns whole, case-insensitively, with * only', () => {
    expect(globMatch('*.example.com', 'API.example.com')).toBe(true);
    expect(globMatch('*.example.com', 'api.example.com.evil')).toBe(false);
    expect(globMatch('a.b', 'axb')).toBe(false);
  });

  it('reads the policy from the config, and refuses a wrong value naming its key', () => {
    const fail = (path: string, problem: string): never => {
      throw new Error(`${path}: ${problem}`);
    };
    expect(readEvaluationPolicy({ internet_reachable: ['*.x'], n_by_severity: { High: 'N5' }, default_n: 2 }, fail)).toMatchObject({
      internet_reachable: ['*.x'],
      default_n: 2,
      n_by_severity: { high: 5, critical: 5 },
    });
    expect(() => readEvaluationPolicy({ n_by_severity: { high: 6 } }, fail)).toThrow(
      'vulnerabilities.policy.n_by_severity.high: number 6 is not an N-rating; write 0 to 5 (or "N0" to "N5"; N0 where the CR26 release in use offers it)',
    );
    expect(() => readEvaluationPolicy({ reachable: [] }, fail)).toThrow(
      "vulnerabilities.policy.reachable: unknown key; the policy's keys are internet_reachable, n_by_severity, default_n",
    );
    expect([parseNRating('N4'), parseNRating(2), parseNRating('n1'), parseNRating(0), parseNRating('6')]).toEqual([4, 2, 1, undefined, undefined]);
  });

  it("reads CISA's KEV catalog, and names the first bad entry", () => {
    const catalog = readKevCatalog(
      { catalogVersion: '2026.11.20', vulnerabilities: [{ cveID: 'CVE-2021-44228', dueDate: '2021-12-24', vendorProject: 'Apache' }] },
      'kev.json',
    );
    expect(catalog).toEqual({ version: '2026.11.20', entries: new Map([['CVE-2021-44228', { cveID: 'CVE-2021-44228', dueDate: '2021-12-24' }]]) });
    expect(() => readKevCatalog({ vulnerabilities: [{ cveID: 'Log4Shell', dueDate: '2021-12-24' }] }, 'kev.json')).toThrow(
      `kev.json: vulnerabilities[0].cveID: "Log4Shell" is not a CVE id; pass CISA's known_exploited_vulnerabilities.json`,
    );
    expect(() => readKevCatalog({ vulnerabilities: [{ cveID: 'CVE-2021-44228', dueDate: 'soon' }] }, 'kev.json')).toThrow(
      'kev.json: vulnerabilities[0].dueDate: "soon" is not a date',
    );
    expect(() => readKevCatalog([], 'kev.json')).toThrow('kev.json: $: expected an object, got an array');
  });
});
