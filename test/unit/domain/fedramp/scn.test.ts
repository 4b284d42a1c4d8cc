import { InvalidInputError, UsageError } from '../../../../src/domain/errors';
import type { Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import type { ScnRecord } from '../../../../src/domain/fedramp/ongoing-records';
import type { ReadinessItem } from '../../../../src/domain/fedramp/readiness';
import {
  buildScn,
  noticeCounting,
  scnChangeType,
  scnDates,
  scnMarkdown,
  scnNotices,
  scnTimeframe,
  scnWarnings,
  withScnWarnings,
  type ScnDates,
} from '../../../../src/domain/fedramp/scn';
import { driftImpact, readDriftReport } from '../../../../src/domain/fedramp/scn-drift';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import { fedrampSchemaErrors } from '../../../support/fedramp-schemas';

const rules = builtInRules();
/** US federal holidays on their observed dates around the days below (Thanksgiving, Christmas, New Year, MLK, Presidents). */
const HOLIDAYS = new Set(['2026-11-26', '2026-12-25', '2027-01-01', '2027-01-18', '2027-02-15']);
const holiday = (day: string) => HOLIDAYS.has(day);
const noHoliday = () => false;
/** A rule's number as the checked-in rules file gives it: the test does not retype it either. */
const num = (id: string, from: Cr26Rules = rules) => from.rules.find((r) => r.id === id)!.timeframe!.num!;
const dates = (d: ScnDates) => scnNotices(rules, 'transformative', d, holiday).dated.map((n) => [n.rule, n.date]);

describe('scnNotices: each notice dated in business days from its rule', () => {
  it('transformative: initial and final plans before the start, after finishing and after verification, skipping weekends and holidays', () => {
    const { dated, undated } = scnNotices(rules, 'transformative', { start: '2027-01-04', finish: '2027-01-14', verified: '2027-02-09' }, holiday);
    expect(undated).toEqual([]);
    expect(dated.map((n) => [n.rule, n.notice, n.date, n.due, noticeCounting(n)])).toEqual([
      // Back from Monday 2027-01-04, over New Year (Fri 01-01), Christmas (Fri 12-25) and Thanksgiving (Thu 11-26).
      ['SCN-TRF-NIP', 'initial plans', '2026-11-18', '2026-11-18T23:59:59Z', `${num('SCN-TRF-NIP')} business days before the start 2027-01-04`],
      ['SCN-TRF-NFP', 'final plans', '2026-12-17', '2026-12-17T23:59:59Z', `${num('SCN-TRF-NFP')} business days before the start 2027-01-04`],
      // Thursday 2027-01-14 on, over MLK day (Mon 01-18).
      ['SCN-TRF-NAF', 'after finishing', '2027-01-22', '2027-01-22T23:59:59Z', `${num('SCN-TRF-NAF')} business days after the finish 2027-01-14`],
      // Tuesday 2027-02-09 on, over Presidents day (Mon 02-15).
      ['SCN-TRF-NAV', 'after verification', '2027-02-17', '2027-02-17T23:59:59Z', `${num('SCN-TRF-NAV')} business days after the verification 2027-02-09`],
    ]);
    expect(dated.map((n) => n.timeframe)).toEqual(
      ['SCN-TRF-NIP', 'SCN-TRF-NFP', 'SCN-TRF-NAF', 'SCN-TRF-NAV'].map((id) => ({ unit: 'bizdays', num: num(id) })),
    );
  });

  it('counts holidays only through the holiday test: without it the same days fall later (or earlier) by the holidays skipped', () => {
    const plain = scnNotices(rules, 'transformative', { start: '2027-01-04', finish: '2027-01-14', verified: '2027-02-09' }, noHoliday).dated.map(
      (n) => n.date,
    );
    expect(plain).toEqual(['2026-11-23', '2026-12-21', '2027-01-21', '2027-02-16']);
  });

  it('adaptive: one notice after finishing (SCN-ADP-NTF), over Christmas and New Year', () => {
    const { dated, undated } = scnNotices(rules, 'adaptive', { start: '2026-12-01', finish: '2026-12-18', verified: '2026-12-20' }, holiday);
    expect(dated.map((n) => [n.rule, n.notice, n.date, noticeCounting(n)])).toEqual([
      ['SCN-ADP-NTF', 'after finishing', '2027-01-05', `${num('SCN-ADP-NTF')} business days after the finish 2026-12-18`],
    ]);
    expect(undated).toEqual([]);
  });

  it('a start on a weekend counts back from it; a finish on a Friday counts on from the Monday', () => {
    expect(dates({ start: '2027-01-09', finish: '2027-01-08' }).slice(0, 3)).toEqual([
      ['SCN-TRF-NIP', '2026-11-25'],
      ['SCN-TRF-NFP', '2026-12-24'],
      ['SCN-TRF-NAF', '2027-01-15'],
    ]);
  });

  it('leaves the notices whose day is not given undated, with the flag that dates them', () => {
    expect(scnNotices(rules, 'transformative', { finish: '2027-01-14' }, holiday)).toEqual({
      dated: [expect.objectContaining({ rule: 'SCN-TRF-NAF', date: '2027-01-22' })],
      undated: [
        { rule: 'SCN-TRF-NIP', notice: 'initial plans', from: 'start', flag: '--start' },
        { rule: 'SCN-TRF-NFP', notice: 'final plans', from: 'start', flag: '--start' },
        { rule: 'SCN-TRF-NAV', notice: 'after verification', from: 'verified', flag: '--verified' },
      ],
    });
    expect(scnNotices(rules, 'adaptive', {}, holiday)).toEqual({
      dated: [],
      undated: [{ rule: 'SCN-ADP-NTF', notice: 'after finishing', from: 'finish', flag: '--finish' }],
    });
  });

  it('reads every number from the rules data: a release that changes a timeframe changes the day', () => {
    const changed = builtInRules();
    changed.rules.find((r) => r.id === 'SCN-TRF-NIP')!.timeframe = { unit: 'bizdays', num: 20 };
    changed.rules.find((r) => r.id === 'SCN-TRF-NAF')!.timeframe = { unit: 'days', num: 5 };
    const [nip, , naf] = scnNotices(changed, 'transformative', { start: '2027-01-04', finish: '2027-01-14' }, holiday).dated;
    expect([nip.date, noticeCounting(nip)]).toEqual(['2026-12-03', '20 business days before the start 2027-01-04']);
    expect([naf.date, noticeCounting(naf)]).toEqual(['2027-01-19', '5 days after the finish 2027-01-14']);
  });

  it("takes the class's timeframe where a rule varies by class, and the end of a range that comes first", () => {
    const changed = builtInRules();
    const nip = changed.rules.find((r) => r.id === 'SCN-TRF-NIP')!;
    delete nip.timeframe;
    nip.varies_by_class = {
      B: { force: 'MUST', timeframe: { unit: 'bizdays', num: 15 } },
      C: { force: 'MUST', timeframe: { unit: 'bizdays', min: 20, max: 40 } },
    };
    changed.rules.find((r) => r.id === 'SCN-TRF-NAF')!.timeframe = { unit: 'bizdays', min: 3, max: 8 };
    expect(scnTimeframe(changed, { rule: 'SCN-TRF-NIP', direction: 'before' }, 'B')).toEqual({ unit: 'bizdays', num: 15 });
    expect(scnTimeframe(changed, { rule: 'SCN-TRF-NIP', direction: 'before' }, 'C')).toEqual({ unit: 'bizdays', num: 40 });
    expect(scnTimeframe(changed, { rule: 'SCN-TRF-NAF', direction: 'after' })).toEqual({ unit: 'bizdays', num: 3 });
    expect(() => scnTimeframe(changed, { rule: 'SCN-TRF-NIP', direction: 'before' })).toThrow(
      new InvalidInputError(
        'invalid-config',
        'SCN-TRF-NIP gives its timeframe per Certification Class: give --class or write fedramp.class (A, B, C or D) in svc.config.json',
      ),
    );
    expect(() => scnTimeframe(changed, { rule: 'SCN-TRF-NIP', direction: 'before' }, 'D')).toThrow(
      'CR26 2026.10.05.01: SCN-TRF-NIP gives no timeframe for Class D, so svc cannot date the notices of a Significant Change Notification; use a release that gives it (SVC_FEDRAMP_RULES)',
    );
  });

  it('names the rule when the data lacks it or its timeframe (an input error)', () => {
    const changed = builtInRules();
    changed.rules = changed.rules.filter((r) => r.id !== 'SCN-TRF-NFP');
    delete changed.rules.find((r) => r.id === 'SCN-ADP-NTF')!.timeframe;
    const error = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return [(e as InvalidInputError).code, (e as Error).message];
      }
      return undefined;
    };
    expect(error(() => scnNotices(changed, 'transformative', {}, holiday))).toEqual([
      'no-timeframe',
      'CR26 2026.10.05.01: no rule SCN-TRF-NFP, so svc cannot date the notices of a Significant Change Notification; use a release that gives it (SVC_FEDRAMP_RULES)',
    ]);
    expect(error(() => scnNotices(changed, 'adaptive', {}, holiday))).toEqual([
      'no-timeframe',
      'CR26 2026.10.05.01: SCN-ADP-NTF gives no timeframe, so svc cannot date the notices of a Significant Change Notification; use a release that gives it (SVC_FEDRAMP_RULES)',
    ]);
  });
});

describe('scnChangeType and scnDates: what the flags may say', () => {
  it('takes adaptive and transformative in any case; refuses routine recurring changes naming SCN-RTR-NNR and its force from the data', () => {
    expect([scnChangeType('adaptive', rules), scnChangeType(' Transformative', rules)]).toEqual(['adaptive', 'transformative']);
    expect(() => scnChangeType('routine', rules)).toThrow(
      new UsageError(
        'routine-change',
        '--type routine: routine recurring changes are not notified: providers SHOULD NOT make formal Significant Change Notifications for them (SCN-RTR-NNR); nothing written or recorded',
      ),
    );
    expect(() => scnChangeType('minor', rules)).toThrow(
      '--type minor: not a significant change type; write adaptive or transformative (routine recurring changes are not notified, SCN-RTR-NNR)',
    );
  });

  it('keeps the day as written (a time with a zone: its day there), and refuses days off the calendar or out of order', () => {
    expect(scnDates({ start: '2027-01-04T22:00:00-05:00', finish: '2027-01-14', verified: '2027-01-14' })).toEqual({
      start: '2027-01-04',
      finish: '2027-01-14',
      verified: '2027-01-14',
    });
    expect(scnDates({})).toEqual({});
    expect(() => scnDates({ finish: '2027-02-29' })).toThrow('--finish 2027-02-29: not a day of the calendar; write a date such as 2027-01-14');
    expect(() => scnDates({ start: '2027-01-14', finish: '2027-01-04' })).toThrow(
      '--finish 2027-01-04 is before --start 2027-01-14; give the day the change finishes, on or after the start',
    );
    expect(() => scnDates({ start: '2027-01-14', verified: '2027-01-04' })).toThrow(
      '--verified 2027-01-04 is before --start 2027-01-14; give the day its verification, assessment and/or validation completed, on or after the start',
    );
    expect(() => scnDates({ finish: '2027-01-14', verified: '2027-01-13' })).toThrow(
      '--verified 2027-01-13 is before --finish 2027-01-14; give the day its verification, assessment and/or validation completed, on or after the finish',
    );
  });
});

const IR_DRIFT = {
  run_a: { name: 'sample-baseline-b.json', sha256: 'sha256:8e87' },
  run_b: { name: 'sample-baseline.json', sha256: 'sha256:b8b7' },
  findings: [
    { ksi_id: 'KSI-AC-02', class: 'DRIFT-AUTHZ', severity: 'P1', from: 'PASS', to: 'FAIL', reason: 'status worsened PASS -> FAIL' },
    { ksi_id: 'KSI-CNA-01', class: 'DRIFT-SEMANTIC', severity: 'P3', from: 'PASS', to: 'WARN', reason: 'status worsened PASS -> WARN' },
    { ksi_id: 'KSI-IAM-APM', class: 'DRIFT-PROVENANCE', severity: 'P3', from: 'PASS', to: 'PASS', reason: 'evidence changed' },
    { ksi_id: 'KSI-XYZ-99', class: 'DRIFT-SCHEMA', severity: 'P3', from: 'NONE', to: 'PASS', reason: 'new in the later run (PASS)' },
    { ksi_id: null, class: 'DRIFT-PROVENANCE', severity: 'P3', from: 'Prowler 5', to: 'Prowler 6', reason: 'source tool changed' },
  ],
  counts: { total: 5 },
};
const SUBSTRATE_DRIFT = {
  a: { name: 'monday.json', root: 'infra', merkle_root: 'sha256:aa' },
  b: { name: 'today.json', root: 'infra', merkle_root: 'sha256:bb' },
  findings: [
    {
      severity: 'P1',
      class: 'DRIFT-AUTHZ',
      subject: 'k8s:rbac.authorization.k8s.io/v1/RoleBinding/shop/web-reader',
      change: 'removed',
      reason: 'access resource removed',
    },
    { severity: 'P2', class: 'DRIFT-IDENTITY', subject: 'terraform:aws_iam_user.ci', change: 'changed', reason: 'identity resource changed' },
    { severity: 'P3', class: 'DRIFT-SCHEMA', subject: 'file:k8s/new.yaml', change: 'added', reason: 'file added' },
  ],
  counts: { total: 3 },
};
/** svc's catalog as the SCN sees it: KSI-AC-02 and its controls. */
const catalog = { get: (id: string) => (id === 'KSI-AC-02' ? { controls: ['ac-2', 'ac-2.1', 'ac-10'] } : undefined) };

describe('readDriftReport and driftImpact: the two drift reports svc writes', () => {
  it('reads svc ir drift-detect --json: the KSIs in CR26 ids only (an earlier FedRAMP id as its CR26 id, a catalog KSI as the CR26 KSIs sharing a control), and the controls', () => {
    const report = readDriftReport(IR_DRIFT, 'drift.json');
    expect(report).toEqual({
      kind: 'ir drift-detect',
      file: 'drift.json',
      from: 'sample-baseline-b.json',
      to: 'sample-baseline.json',
      changes: [
        { severity: 'P1', ksi: 'KSI-AC-02' },
        { severity: 'P3', ksi: 'KSI-CNA-01' },
        { severity: 'P3', ksi: 'KSI-IAM-APM' },
        { severity: 'P3', ksi: 'KSI-XYZ-99' },
        { severity: 'P3' },
      ],
    });
    const impact = driftImpact(report, rules, catalog);
    const cr26 = (id: string) => rules.ksis.find((k) => k.id === id)!.controls;
    // KSI-AC-02 (svc's catalog: ac-2, ac-2.1, ac-10) as every CR26 KSI one of whose controls stands on ac-2 or ac-10.
    const meetsAc2 = rules.ksis.filter((k) => k.controls.some((c) => /^ac-(2|10)(\.\d+)?$/.test(c))).map((k) => k.id);
    expect(meetsAc2).toContain('KSI-IAM-APM');
    expect(impact.ksis).toEqual([...new Set([...meetsAc2, 'KSI-CNA-RNT', 'KSI-IAM-APM'])].sort());
    expect(impact.ksis.filter((id) => /^KSI-[A-Z]{2}-\d\d$/.test(id) || id === 'KSI-XYZ-99')).toEqual([]);
    expect(new Set(impact.controls)).toEqual(new Set(['ac-2', 'ac-2.1', 'ac-10', ...cr26('KSI-CNA-RNT'), ...cr26('KSI-IAM-APM')]));
    expect(impact.controls.slice(0, 4)).toEqual(['ac-2', 'ac-2.1', 'ac-3', 'ac-10']);
    expect(impact.analysis).toBe(
      `Drift from sample-baseline-b.json to sample-baseline.json (svc ir drift-detect, drift.json): 5 changes (P1 1, P2 0, P3 4, P4 0) on ${impact.ksis.join(', ')}: ${impact.controls.length} NIST SP 800-53 controls to verify (impactedControls); 1 KSI id of the report leads to no CR26 KSI.`,
    );
  });

  it('reads svc substrate drift --json: resources, not KSIs or controls', () => {
    const report = readDriftReport(SUBSTRATE_DRIFT, 'substrate-drift.json');
    expect(report.kind).toBe('substrate drift');
    expect(driftImpact(report, rules, catalog)).toEqual({
      ksis: [],
      controls: [],
      analysis:
        'Drift from monday.json to today.json (svc substrate drift, substrate-drift.json): 3 changes (P1 1, P2 1, P3 1, P4 0) to k8s:rbac.authorization.k8s.io/v1/RoleBinding/shop/web-reader, terraform:aws_iam_user.ci, file:k8s/new.yaml. A substrate report names configuration resources, not KSIs or controls.',
    });
  });

  it.each([
    ['an array', [], '$: expected an object, got an array'],
    ['a normalized report', { results: [] }, '$: not a drift report: it has neither run_a and run_b (svc ir drift-detect) nor a and b (svc substrate drift)'],
    ['a side that is not an object', { ...IR_DRIFT, run_b: 'x' }, 'run_b: expected an object, got "x"'],
    ['a side without a name', { ...IR_DRIFT, run_a: {} }, 'run_a.name: expected a string, got nothing'],
    ['findings not a list', { ...IR_DRIFT, findings: {} }, 'findings: expected an array, got an object'],
    ['a finding not an object', { ...IR_DRIFT, findings: [IR_DRIFT.findings[0], 'x'] }, 'findings[1]: expected an object, got "x"'],
    [
      'a severity off P1-P4',
      { ...IR_DRIFT, findings: [{ ...IR_DRIFT.findings[0], severity: 'P5' }] },
      'findings[0].severity: "P5" is not a drift severity (P1-P4)',
    ],
    ['an unknown drift class', { ...IR_DRIFT, findings: [{ ...IR_DRIFT.findings[0], class: 'DRIFT-X' }] }, 'findings[0].class: "DRIFT-X" is not a drift class'],
    ['an empty ksi_id', { ...IR_DRIFT, findings: [{ ...IR_DRIFT.findings[0], ksi_id: '' }] }, 'findings[0].ksi_id: expected a KSI id or null, got ""'],
    [
      'a substrate finding without a subject',
      { ...SUBSTRATE_DRIFT, findings: [{ ...SUBSTRATE_DRIFT.findings[0], subject: 3 }] },
      'findings[0].subject: expected a resource id, got number 3',
    ],
    [
      'an unknown substrate change',
      { ...SUBSTRATE_DRIFT, findings: [{ ...SUBSTRATE_DRIFT.findings[0], change: 'renamed' }] },
      'findings[0].change: "renamed" is not one of added, removed, changed, moved',
    ],
  ])('refuses %s, naming the file and the JSON path', (_label, document, problem) => {
    expect(() => readDriftReport(document, 'drift.json')).toThrow(
      new InvalidInputError('invalid-drift-report', `drift.json: ${problem}; pass the --json output of svc ir drift-detect or svc substrate drift`),
    );
  });
});

describe('buildScn and scnMarkdown', () => {
  const notices = scnNotices(rules, 'transformative', { start: '2027-01-04', finish: '2027-01-14' }, holiday);
  const impact = driftImpact(readDriftReport(IR_DRIFT, 'drift.json'), rules, catalog);
  const scn = buildScn({
    packageUri: 'https://trust.example.com/fedramp/cpo.json',
    type: 'transformative',
    summary: 'Move the workloads to Kubernetes',
    dates: { start: '2027-01-04', finish: '2027-01-14' },
    notices,
    impact,
    statements: { reason: 'Scale', explanation: 'A paradigm shift in workload orchestration', impactAnalysis: 'https://trust.example.com/sia.pdf' },
  });

  it("writes every field FedRAMP's schema requires, the type as its enum spells it, and is valid against it", () => {
    expect(fedrampSchemaErrors('scn', scn)).toEqual([]);
    expect(scn).toMatchObject({
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      changeType: 'Transformative',
      changeTypeExplanation: 'A paradigm shift in workload orchestration',
      changeDescription: 'Move the workloads to Kubernetes',
      reason: 'Scale',
      impactedControls: [...impact.ksis, 'AC-02', 'AC-02 (01)', 'AC-03', 'AC-10', ...impact.controls.slice(4).map(() => expect.any(String))],
      impactAnalysis: `https://trust.example.com/sia.pdf\n\n${impact.analysis}`,
    });
    const plan = scn.planAndTimeline;
    expect([plan.plannedStart, plan.plannedCompletion]).toEqual(['2027-01-04', '2027-01-14']);
    expect(plan.milestones).toEqual([
      {
        milestoneDescription: `Notify all necessary parties: initial plans (SCN-TRF-NIP), ${num('SCN-TRF-NIP')} business days before the start 2027-01-04`,
        targetDate: '2026-11-18',
      },
      {
        milestoneDescription: `Notify all necessary parties: final plans (SCN-TRF-NFP), ${num('SCN-TRF-NFP')} business days before the start 2027-01-04`,
        targetDate: '2026-12-17',
      },
      { milestoneDescription: 'The change starts', targetDate: '2027-01-04' },
      { milestoneDescription: 'The change is finished', targetDate: '2027-01-14' },
      {
        milestoneDescription: `Notify all necessary parties: after finishing (SCN-TRF-NAF), ${num('SCN-TRF-NAF')} business days after the finish 2027-01-14`,
        targetDate: '2027-01-22',
      },
    ]);
    expect(plan.summary).toContain('Not yet dated: after verification (SCN-TRF-NAV), counted from the verification.');
  });

  it('with nothing but the type and summary: still valid, the plan saying what is not yet dated', () => {
    const bare = buildScn({
      packageUri: 'https://x.example/cpo.json',
      type: 'adaptive',
      summary: 'New MFA provider',
      dates: {},
      notices: scnNotices(rules, 'adaptive', {}, holiday),
      statements: {},
    });
    expect(fedrampSchemaErrors('scn', bare)).toEqual([]);
    expect(bare).toEqual({
      certificationPackageOverviewUri: 'https://x.example/cpo.json',
      changeType: 'Adaptive',
      changeDescription: 'New MFA provider',
      planAndTimeline: {
        summary: 'Adaptive change: start not yet dated; completion not yet dated.\n\nNot yet dated: after finishing (SCN-ADP-NTF), counted from the finish.',
      },
    });
  });

  it('writes the twin from the document under the twin header, provider text escaped', () => {
    const md = scnMarkdown(
      { ...scn, changeDescription: '# not a heading | nor a cell' },
      {
        title: 'Significant Change Notification',
        fedrampId: 'FR1',
        packageUri: 'https://trust.example.com/fedramp/cpo.json',
        rulesVersion: '2026.10.05.01',
        tool: { name: 'svc', version: '1.0.0' },
        generatedAt: '2026-11-25T00:00:00Z',
        json: 'scn.json',
      },
    ).split('\n');
    expect(md.slice(0, 7)).toEqual([
      '# Significant Change Notification',
      '',
      '- FedRAMP ID: FR1',
      '- Certification Package Overview: https://trust.example.com/fedramp/cpo.json',
      '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
      '- Generated: 2026-11-25T00:00:00Z by svc 1.0.0',
      '- Machine-readable twin: scn.json (written from the same model)',
    ]);
    expect(md).toContain('- Description: \\# not a heading \\| nor a cell');
    expect(md).toContain(
      `| 2026-11-18 | Notify all necessary parties: initial plans (SCN-TRF-NIP), ${num('SCN-TRF-NIP')} business days before the start 2027-01-04 |`,
    );
    expect(md).toContain('> https://trust.example.com/sia.pdf');
  });
});

describe('scnWarnings: reminders of notice days that have passed', () => {
  const record = (summary: string, extra: Partial<ScnRecord>): ScnRecord => ({
    type: 'transformative',
    summary,
    notices: [],
    ksis: [],
    controls: [],
    document: {
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      changeType: extra.type === 'adaptive' ? 'Adaptive' : 'Transformative',
      changeDescription: summary,
      planAndTimeline: { summary: 'Start and completion not yet dated.' },
    },
    ...extra,
  });
  const planned = record('Move to Kubernetes', {
    start: '2027-01-04',
    notices: scnNotices(rules, 'transformative', { start: '2027-01-04' }, holiday).dated.map(({ rule, notice, due }) => ({ rule, notice, due })),
  });
  const adaptive = record('New MFA provider', {
    type: 'adaptive',
    finish: '2026-12-18',
    notices: [{ rule: 'SCN-ADP-NTF', notice: 'after finishing', due: '2027-01-05T23:59:59Z' }],
  });
  const recorded = [
    { seq: 3, recorded_at: '2026-11-01T00:00:00Z', record: planned },
    { seq: 7, recorded_at: '2026-12-01T00:00:00Z', record: adaptive },
  ];

  it('warns on each rule whose notice day ended before now, saying how the day was counted', () => {
    expect(scnWarnings(recorded, rules, new Date('2026-12-18T00:00:00Z'))).toEqual(
      new Map([
        [
          'SCN-TRF-NIP',
          [`SCN "Move to Kubernetes" (journal 3): initial plans were due by 2026-11-18 (${num('SCN-TRF-NIP')} business days before the start 2027-01-04)`],
        ],
        [
          'SCN-TRF-NFP',
          [`SCN "Move to Kubernetes" (journal 3): final plans were due by 2026-12-17 (${num('SCN-TRF-NFP')} business days before the start 2027-01-04)`],
        ],
      ]),
    );
    expect(scnWarnings(recorded, rules, new Date('2027-01-06T00:00:00Z')).get('SCN-ADP-NTF')).toEqual([
      `SCN "New MFA provider" (journal 7): the notice after finishing was due by 2027-01-05 (${num('SCN-ADP-NTF')} business days after the finish 2026-12-18)`,
    ]);
  });

  it('is quiet on the last day itself and before it, and for an SCN recorded after now', () => {
    expect(scnWarnings(recorded, rules, new Date('2026-11-18T23:59:59Z'))).toEqual(new Map());
    expect(scnWarnings(recorded, rules, new Date('2026-10-01T00:00:00Z'))).toEqual(new Map());
    expect(scnWarnings([{ ...recorded[0], recorded_at: '2027-01-01T00:00:00Z' }], rules, new Date('2026-12-18T00:00:00Z'))).toEqual(new Map());
  });

  it('adds them to the warnings of the rules they name, leaving every status as judged', () => {
    const items: ReadinessItem[] = [
      { id: 'SCN-TRF-NIP', kind: 'rule', effective: { state: 'in_force' }, status: 'met', warnings: ['earlier'] },
      { id: 'SCN-TRF-NFP', kind: 'rule', effective: { state: 'in_force' }, status: 'needs_statement' },
      { id: 'AFC-CSO-INB', kind: 'rule', effective: { state: 'in_force' }, status: 'met' },
    ];
    const out = withScnWarnings(
      items,
      new Map([
        ['SCN-TRF-NIP', ['a']],
        ['SCN-TRF-NFP', ['b']],
      ]),
    );
    expect(out.map((i) => [i.id, i.status, i.warnings])).toEqual([
      ['SCN-TRF-NIP', 'met', ['earlier', 'a']],
      ['SCN-TRF-NFP', 'needs_statement', ['b']],
      ['AFC-CSO-INB', 'met', undefined],
    ]);
  });
});
