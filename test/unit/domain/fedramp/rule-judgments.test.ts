import { judgeRules, type JudgmentFacts, type VulnerabilityFacts } from '../../../../src/domain/fedramp/rule-judgments';

const none = { total: 0, fresh: 0, stale: 0, undated: 0 };
const facts = (vulnerabilities?: VulnerabilityFacts): JudgmentFacts => ({
  rules: { info: { version: '2026.10.05.01' } } as JudgmentFacts['rules'],
  type: '20x',
  class: 'D',
  run: { results: 3, asOf: '2026-12-21T00:00:00Z' },
  freshness: { machine: none, nonMachine: none },
  cadences: {
    machine: { kind: 'machine', rule: 'VDR-TFR-MVX', force: 'MUST', every: { unit: 'days', num: 7 } },
    nonMachine: { kind: 'non-machine', rule: 'VDR-TFR-NMV', force: 'MUST', every: { unit: 'months', num: 3 } },
  },
  ksis: [],
  ...(vulnerabilities === undefined ? {} : { vulnerabilities }),
});
const register = (late: Partial<VulnerabilityFacts['late']>, open = 3): VulnerabilityFacts => ({
  run: { seq: 2, as_of: '2026-12-10T00:00:00Z' },
  open,
  late: { 'VER-TFR-EVU': [], 'VDR-TFR-PVR': [], 'VDR-TFR-KEV': [], ...late },
});

describe('judgeRules: the VER and VDR timeframes from the vulnerability register', () => {
  it('leaves them to the provider when no run is recorded', () => {
    const judged = judgeRules(facts());
    expect(['VER-TFR-EVU', 'VDR-TFR-PVR', 'VDR-TFR-KEV'].filter((r) => judged.has(r))).toEqual([]);
  });

  it('meets each when no group is late by it, and says what svc measured', () => {
    expect(judgeRules(facts(register({}))).get('VER-TFR-EVU')).toEqual({
      rule: 'VER-TFR-EVU',
      met: true,
      status: 'Implemented',
      statement:
        'svc tracks every detected vulnerability across runs and judges it by VER-TFR-EVU for Class D from the rules data: in run 2 (as of 2026-12-10T00:00:00Z), 3 groups are open and 0 late.',
    });
  });

  it('does not meet one a group is late by, naming it and what to do; Not Implemented when every open group is late', () => {
    const judged = judgeRules(facts(register({ 'VDR-TFR-KEV': ['VG-2e6d6abddb3e1f8d (CVE-2026-1000)'] })));
    expect(judged.get('VDR-TFR-KEV')).toEqual({
      rule: 'VDR-TFR-KEV',
      met: false,
      status: 'Partially Implemented',
      statement:
        'svc tracks every detected vulnerability across runs and judges it by VDR-TFR-KEV for Class D from the rules data: in run 2 (as of 2026-12-10T00:00:00Z), 3 groups are open and 1 late.',
      why: '1 vulnerability was not remediated by the due date the CISA KEV catalog gives: VG-2e6d6abddb3e1f8d (CVE-2026-1000)',
      todo: 'remediate them: a KEV entry stays overdue, even mitigated, until a run no longer detects it',
    });
    expect(judged.get('VDR-TFR-PVR')?.met).toBe(true);
    const all = judgeRules(facts(register({ 'VDR-TFR-PVR': ['VG-1 (CVE-1)'] }, 1))).get('VDR-TFR-PVR');
    expect(all).toMatchObject({
      met: false,
      status: 'Not Implemented',
      todo: 'mitigate or remediate them, and record it (svc vuln evaluate --mitigated), or accept them with a rationale (--accept)',
    });
  });

  it('names ten late groups and counts the rest', () => {
    const late = Array.from({ length: 12 }, (_, i) => `VG-${i} (CVE-${i})`);
    expect(judgeRules(facts(register({ 'VER-TFR-EVU': late }, 20))).get('VER-TFR-EVU')?.why).toBe(
      `12 vulnerabilities were not evaluated within the class's window from detection: ${late.slice(0, 10).join(', ')} and 2 more`,
    );
  });
});
