import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../../../../src/domain/errors';
import { CR26_CLASSES, type Cr26Class, type Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import {
  buildIncidentReport,
  cveIds,
  dueBasis,
  flagsIncidentId,
  groupIncidentFacts,
  groupIncidentId,
  incidentDue,
  incidentFlaggedAt,
  incidentMarkdown,
  incidentTimeframe,
  INCIDENT_REPORT_TYPES,
  INCIDENT_RULES,
  timeframeWords,
  type IncidentReportModel,
  type IncidentReportType,
} from '../../../../src/domain/fedramp/incident';
import { cr26Shapes } from '../../../../src/domain/fedramp/schema-shapes';
import { judgeGroup, type Evaluation, type NRating } from '../../../../src/domain/vulnerabilities/lifecycle';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import { PureJsHashing } from '../../../fakes/pure-js-hashing';
import { FEDRAMP_SCHEMA_GENERATIONS, FEDRAMP_SCHEMAS, fedrampSchemaErrors } from '../../../support/fedramp-schemas';

const rules = builtInRules();
const RATINGS: NRating[] = [1, 2, 3, 4, 5];
const CELL: Record<IncidentReportType, string> = { initial: 'iir', ongoing: 'oir', final: 'fir' };
const holidays = new Set(['2026-11-26', '2026-12-25', '2027-01-01']);
const holiday = (day: string) => holidays.has(day);

/** The cell of the checked-in rules data, read here the way a reader of the rules file would look it up. */
function cellOf(type: IncidentReportType, cls: Cr26Class, n: NRating) {
  return rules.rules.find((r) => r.id === INCIDENT_RULES[type])!.varies_by_class![cls]!.pain_timeframes![String(n)][CELL[type]];
}

describe('incident report due times from the rules data (IEC-CSO-IIR/OIR/FIR pain_timeframes)', () => {
  it('reads every class, N-rating and report type from the data', () => {
    for (const type of INCIDENT_REPORT_TYPES) {
      for (const cls of CR26_CLASSES) {
        for (const n of RATINGS) {
          const cell = cellOf(type, cls, n);
          expect(incidentTimeframe(rules, type, cls, n)).toEqual({
            rule: INCIDENT_RULES[type],
            class: cls,
            n,
            force: rules.rules.find((r) => r.id === INCIDENT_RULES[type])!.varies_by_class![cls]!.force,
            timeframe: { unit: cell.unit, num: cell.num },
          });
        }
      }
    }
  });

  it('gives the timeframes DESIGN §12.5 names: Class B 1 business day at N1–N2 and 6 hours at N3–N5; Class D 15 minutes at N3–N5', () => {
    const basis = (type: IncidentReportType, cls: Cr26Class, n: NRating) => dueBasis(incidentTimeframe(rules, type, cls, n));
    expect(RATINGS.map((n) => basis('initial', 'B', n))).toEqual([
      'IEC-CSO-IIR, Class B, N1: 1 business day',
      'IEC-CSO-IIR, Class B, N2: 1 business day',
      'IEC-CSO-IIR, Class B, N3: 6 hours',
      'IEC-CSO-IIR, Class B, N4: 6 hours',
      'IEC-CSO-IIR, Class B, N5: 6 hours',
    ]);
    expect(RATINGS.map((n) => basis('initial', 'D', n))).toEqual([
      'IEC-CSO-IIR, Class D, N1: 1 hour',
      'IEC-CSO-IIR, Class D, N2: 1 hour',
      'IEC-CSO-IIR, Class D, N3: 15 minutes',
      'IEC-CSO-IIR, Class D, N4: 15 minutes',
      'IEC-CSO-IIR, Class D, N5: 15 minutes',
    ]);
    expect([basis('ongoing', 'C', 2), basis('ongoing', 'D', 5), basis('final', 'B', 5), basis('final', 'C', 1)]).toEqual([
      'IEC-CSO-OIR, Class C, N2: 24 hours',
      'IEC-CSO-OIR, Class D, N5: 3 hours',
      'IEC-CSO-FIR, Class B, N5: 3 business days',
      'IEC-CSO-FIR, Class C, N1: 1 business day',
    ]);
  });

  it('pins due instants: fractional hours, fixed hours, and business days across weekends and holidays', () => {
    const due = (type: IncidentReportType, cls: Cr26Class, n: NRating, from: string) => incidentDue(rules, type, cls, n, from, holiday).at;
    // Class D, N5: 0.25 hours.
    expect(due('initial', 'D', 5, '2026-12-07T00:00:00Z')).toBe('2026-12-07T00:15:00Z');
    expect(due('initial', 'D', 3, '2026-12-07T23:50:00Z')).toBe('2026-12-08T00:05:00Z');
    // Class B, N4: 6 hours, through a weekend night as any other.
    expect(due('initial', 'B', 4, '2026-12-05T21:00:00Z')).toBe('2026-12-06T03:00:00Z');
    // Class B, N1: 1 business day from the Wednesday before Thanksgiving is Friday.
    expect(due('initial', 'B', 1, '2026-11-25T15:00:00Z')).toBe('2026-11-27T15:00:00Z');
    // Class B final: 3 business days from Wednesday 23 December skip Christmas (Friday) and the weekend.
    expect(due('final', 'B', 5, '2026-12-23T12:00:00Z')).toBe('2026-12-29T12:00:00Z');
    // Without a holiday calendar, Thanksgiving would count.
    expect(incidentDue(rules, 'initial', 'B', 1, '2026-11-25T15:00:00Z').at).toBe('2026-11-26T15:00:00Z');
    expect(incidentDue(rules, 'ongoing', 'D', 5, '2026-12-07T00:10:00Z')).toMatchObject({
      from: '2026-12-07T00:10:00Z',
      at: '2026-12-07T03:10:00Z',
      timeframe: { unit: 'hours', num: 3 },
    });
  });

  it('names the rule when the rules data lacks the table or the cell', () => {
    const changed: Cr26Rules = structuredClone(rules);
    delete changed.rules.find((r) => r.id === 'IEC-CSO-OIR')!.varies_by_class!.C!.pain_timeframes;
    expect(() => incidentTimeframe(changed, 'ongoing', 'C', 3)).toThrow(
      new InvalidInputError(
        'no-timeframe',
        'CR26 2026.10.05.01: IEC-CSO-OIR gives no pain_timeframes for Class C, so svc cannot time the ongoing incident report; use a release that gives it (SVC_FEDRAMP_RULES)',
      ),
    );
    changed.rules.find((r) => r.id === 'IEC-CSO-FIR')!.varies_by_class!.D!.pain_timeframes!['4'] = {};
    expect(() => incidentTimeframe(changed, 'final', 'D', 4)).toThrow(
      'CR26 2026.10.05.01: IEC-CSO-FIR gives no fir timeframe for Class D at N4, so svc cannot time the final incident report',
    );
    changed.rules = changed.rules.filter((r) => r.id !== 'IEC-CSO-IIR');
    expect(() => incidentTimeframe(changed, 'initial', 'B', 1)).toThrow(
      'CR26 2026.10.05.01: no rule IEC-CSO-IIR, so svc cannot time the initial incident report',
    );
  });

  it('says timeframes as people do: minutes for a fraction of an hour', () => {
    expect([
      timeframeWords({ unit: 'hours', num: 0.25 }),
      timeframeWords({ unit: 'hours', num: 0.5 }),
      timeframeWords({ unit: 'hours', num: 1 }),
      timeframeWords({ unit: 'hours', num: 24 }),
      timeframeWords({ unit: 'bizdays', num: 1 }),
      timeframeWords({ unit: 'bizdays', num: 3 }),
    ]).toEqual(['15 minutes', '30 minutes', '1 hour', '24 hours', '1 business day', '3 business days']);
  });
});

describe('relatedCveIds and tracking ids', () => {
  it('keeps only CVE ids, each once, upper-cased', () => {
    expect(
      cveIds(['CVE-2026-1000', 'cve-2024-3094', 'GHSA-2qrg-x229-3v8q', 'iam_root_mfa_enabled', 'CVE-2026-12', 'CVE-2026-1000', ' CVE-2021-44228 ']),
    ).toEqual(['CVE-2026-1000', 'CVE-2024-3094', 'CVE-2021-44228']);
    expect(cveIds(['RHSA-2026:0001'])).toEqual([]);
  });

  it('derives a stable tracking id from the group, the same for every report of the incident', () => {
    const hashing = new PureJsHashing();
    const expected = `INC-${createHash('sha256').update('VG-2e6d6abddb3e1f8d').digest('hex').slice(0, 16)}`;
    expect(groupIncidentId('VG-2e6d6abddb3e1f8d', hashing)).toBe(expected);
    expect(groupIncidentId('VG-2e6d6abddb3e1f8d', hashing)).toBe(expected);
    const fromFlags = flagsIncidentId('Credential stuffing', '2026-12-07T01:00:00Z', hashing);
    expect(fromFlags).toMatch(/^INC-[0-9a-f]{16}$/);
    expect(flagsIncidentId('Credential stuffing', '2026-12-07T01:00:00Z', hashing)).toBe(fromFlags);
    expect(flagsIncidentId('Credential stuffing', '2026-12-07T02:00:00Z', hashing)).not.toBe(fromFlags);
  });
});

/** A group of one CVE on an internet-reachable host, with the evaluations given. */
function aGroup(evaluations: Evaluation[], remediated_at?: string) {
  return {
    finding_id: 'CVE-2026-1000',
    tracking_id: 'VG-2e6d6abddb3e1f8d',
    title: 'CVE-2026-1000 found',
    sources: ['Trivy'],
    resources: ['api.example.com'],
    severities: ['CRITICAL'],
    kind: 'vulnerability' as const,
    first_detected: '2026-12-07T00:00:00Z',
    last_seen: '2026-12-08T00:00:00Z',
    detections: 1,
    ...(remediated_at === undefined ? {} : { remediated_at }),
    evaluations,
  };
}

const POLICY: Evaluation = {
  at: '2026-12-07T00:00:00Z',
  by: 'policy:529452fa3437',
  reason: 'no resource matches an internet-reachable pattern',
  irv: false,
  lev: false,
  n: 4,
};
const RAISED: Evaluation = { at: '2026-12-07T02:00:00Z', by: 'ada@example.com', reason: 'exploit published; the host is public', irv: true, lev: true, n: 5 };
const PARTIAL: Evaluation = {
  at: '2026-12-07T05:00:00Z',
  by: 'ada@example.com',
  reason: 'WAF rule blocks the vector',
  mitigated: 'partial',
  n: 3,
  next_reduction: { at: '2026-12-10T00:00:00Z', n: 2 },
};
const BACK: Evaluation = { at: '2026-12-08T00:00:00Z', by: 'ada@example.com', reason: 'WAF bypass found', n: 4 };

describe('incidentFlaggedAt: when a group became the reportable incident it is', () => {
  const group = aGroup([POLICY, RAISED, PARTIAL, BACK]);
  it('is the evaluation from which VER-TFR-IRI flags it without a break', () => {
    expect(incidentFlaggedAt(group, rules, 'B', new Date('2026-12-07T03:00:00Z'))).toBe('2026-12-07T02:00:00Z');
    expect(incidentFlaggedAt(group, rules, 'B', new Date('2026-12-07T06:00:00Z'))).toBeUndefined();
    expect(incidentFlaggedAt(group, rules, 'B', new Date('2026-12-09T00:00:00Z'))).toBe('2026-12-08T00:00:00Z');
    expect(incidentFlaggedAt(group, rules, 'B', new Date('2026-12-07T01:00:00Z'))).toBeUndefined();
  });
});

describe('the incident report document', () => {
  const group = aGroup([POLICY, RAISED, PARTIAL]);
  const known = aGroup([POLICY, RAISED]);
  const facts = groupIncidentFacts(known, judgeGroup(known, rules, 'B', new Date('2026-12-07T04:00:00Z')), '2026-12-07T02:00:00Z');

  it('takes from a group its description, timeline, rating, recovery plan, observed activity and CVE id', () => {
    expect(facts).toEqual({
      description:
        'CVE-2026-1000: CVE-2026-1000 found on api.example.com; a FedRAMP reportable incident under VER-TFR-IRI (internet-reachable, likely exploitable, N5)',
      detectedAt: '2026-12-07T00:00:00Z',
      detectionSource: 'Trivy',
      evaluationCompletedAt: '2026-12-07T02:00:00Z',
      milestones: [
        { at: '2026-12-07T00:00:00Z', what: 'CVE-2026-1000 first detected by Trivy on api.example.com' },
        {
          at: '2026-12-07T00:00:00Z',
          what: 'Policy evaluation (policy:529452fa3437): internet-reachable no, likely exploitable no, N4; no resource matches an internet-reachable pattern',
        },
        {
          at: '2026-12-07T02:00:00Z',
          what: 'Evaluated by ada@example.com: internet-reachable yes, likely exploitable yes, N5; exploit published; the host is public',
        },
        { at: '2026-12-07T02:00:00Z', what: 'Identified as a FedRAMP reportable incident (VER-TFR-IRI)' },
      ],
      rating: {
        current: 5,
        history: [
          { at: '2026-12-07T00:00:00Z', n: 4 },
          { at: '2026-12-07T02:00:00Z', n: 5 },
        ],
        notes: 'N5 by ada@example.com at 2026-12-07T02:00:00Z: exploit published; the host is public',
      },
      recoveryPlan: `Mitigate or remediate CVE-2026-1000 by ${judgeGroup(known, rules, 'B', new Date('2026-12-07T04:00:00Z')).due.mitigation!.at} (VDR-TFR-PVR, N5).`,
      observedActivity:
        'CVE-2026-1000 (CVE-2026-1000 found) detected by Trivy on 1 resource: api.example.com; first detected 2026-12-07T00:00:00Z, last seen 2026-12-08T00:00:00Z (1 detection).',
      relatedCveIds: ['CVE-2026-1000'],
    });
    const later = groupIncidentFacts(group, judgeGroup(group, rules, 'B', new Date('2026-12-07T06:00:00Z')));
    expect([later.recoveryPlan, later.responseAndRecovery]).toEqual([
      expect.stringMatching(/^Mitigate or remediate CVE-2026-1000 by \S+ \(VDR-TFR-PVR, N3\); projected reduction to N2 by 2026-12-10T00:00:00Z\.$/),
      '2026-12-07T05:00:00Z: partially mitigated (ada@example.com): WAF rule blocks the vector.',
    ]);
  });

  const model = (over: Partial<IncidentReportModel> = {}): IncidentReportModel => ({
    type: 'final',
    packageUri: 'https://trust.example.com/fedramp/cpo.json',
    trackingId: 'INC-7d9b39f6cbd88ab9',
    description: facts.description,
    timeline: {
      detectedAt: facts.detectedAt,
      detectionSource: facts.detectionSource,
      evaluationCompletedAt: '2026-12-07T02:00:00Z',
      milestones: [{ at: '2026-12-07T09:00:00Z', what: 'Incident resolved and recovery complete' }, ...facts.milestones],
    },
    rating: { current: 3, history: [4, 5, 5], notes: 'WAF rule' },
    agencies: [],
    relatedCveIds: ['CVE-2026-1000', 'GHSA-2qrg-x229-3v8q'],
    resolvedAt: '2026-12-07T09:00:00Z',
    lessons: ['rotate WAF rules weekly', 'page the on-call for KEV entries'],
    ...over,
  });

  it("writes the schema's fields svc knows, valid against FedRAMP's 2026-06-24 schema, and leaves out what it cannot know", () => {
    const doc = buildIncidentReport(model(), 'string');
    expect(fedrampSchemaErrors('incident', doc)).toEqual([]);
    expect(doc).toEqual({
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      reportType: 'Final',
      providerTrackingId: 'INC-7d9b39f6cbd88ab9',
      incidentDescription: facts.description,
      timeline: {
        detectedAt: '2026-12-07T00:00:00Z',
        detectionSource: 'Trivy',
        evaluationCompletedAt: '2026-12-07T02:00:00Z',
        milestones: [...facts.milestones, { at: '2026-12-07T09:00:00Z', what: 'Incident resolved and recovery complete' }].map((m) => ({
          occurredAt: m.at,
          milestoneDescription: m.what,
        })),
      },
      potentialImpact: 'Potential Agency Impact N-rating (PAIN): N3 (historically N4, then N5, then N3). Evaluation: WAF rule.',
      relatedCveIds: ['CVE-2026-1000'],
      responseAndRecoveryActivities: 'Lessons learned: rotate WAF rules weekly; page the on-call for KEV entries.',
      resolvedAt: '2026-12-07T09:00:00Z',
    });
    for (const key of ['federalIncidentCoordinator', 'functionalImpact', 'indicatorsOfCompromise', 'rootCause', 'affectedAgencies'])
      expect(doc).not.toHaveProperty(key);
    const initial = buildIncidentReport(
      model({ type: 'initial', resolvedAt: undefined, lessons: [], agencies: ['Department of Examples'], relatedCveIds: ['iam_root_mfa_enabled'] }),
      'string',
    );
    expect(fedrampSchemaErrors('incident', initial)).toEqual([]);
    expect([initial.reportType, initial.affectedAgencies, 'relatedCveIds' in initial, 'resolvedAt' in initial]).toEqual([
      'Initial',
      ['Department of Examples'],
      false,
      false,
    ]);
  });

  it('writes potentialImpact in the form the schema in use declares: a string in the 2026-06-24 file, else an object', () => {
    const schema = JSON.parse(readFileSync(join(FEDRAMP_SCHEMAS, 'fedramp-incident-report-schema-2026-06-24.json'), 'utf8'));
    expect(cr26Shapes({ incident: schema }).potentialImpact).toBe('string');
    const newer = structuredClone(schema);
    newer.properties.potentialImpact.type = 'object';
    expect(cr26Shapes({ incident: newer }).potentialImpact).toBe('object');
    expect(buildIncidentReport(model(), 'object').potentialImpact).toEqual({ historicalRating: [4, 5, 3], currentRating: 3, evaluationNotes: 'WAF rule' });
  });

  it("leaves an N0 (VER-EVA-EPA) out of the schema's N-ratings, 1 to 5 in every generation, and says it in evaluationNotes", () => {
    const doc = buildIncidentReport(model({ rating: { current: 0, history: [5, 3], notes: 'the feature is removed' } }), 'object');
    expect(doc.potentialImpact).toEqual({
      historicalRating: [5, 3],
      evaluationNotes:
        "The feature is removed. Rated N0 now (VER-EVA-EPA): the schema's N-ratings are N1 to N5, so N0 is not in historicalRating or currentRating.",
    });
    expect(fedrampSchemaErrors('incident', doc, FEDRAMP_SCHEMA_GENERATIONS[2])).toEqual([]);
  });

  it('renders the Markdown twin from the same model', () => {
    const due = incidentDue(rules, 'final', 'B', 3, '2026-12-07T09:00:00Z', holiday);
    const md = incidentMarkdown(model(), due, {
      packageUri: 'https://trust.example.com/fedramp/cpo.json',
      rulesVersion: '2026.10.05.01',
      tool: { name: 'svc', version: '0.0.0' },
      generatedAt: '2026-12-07T10:00:00Z',
      json: 'incident.json',
    });
    expect(md.split('\n').slice(0, 16)).toEqual([
      '# Final Incident Report',
      '',
      '- FedRAMP ID: not assigned (fedramp.fedramp_id)',
      '- Certification Package Overview: https://trust.example.com/fedramp/cpo.json',
      '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
      '- Generated: 2026-12-07T10:00:00Z by svc 0.0.0',
      '- Machine-readable twin: incident.json (written from the same model)',
      '',
      '## Report',
      '',
      '| Field | Value |',
      '| --- | --- |',
      '| Report type | Final (IEC-CSO-FIR) |',
      '| Provider tracking id | INC-7d9b39f6cbd88ab9 |',
      '| Due | 2026-12-10T09:00:00Z (IEC-CSO-FIR, Class B, N3: 3 business days, from 2026-12-07T09:00:00Z) |',
      '| Potential Agency Impact N-rating | N4 → N5 → N3 |',
    ]);
    expect(md).toContain('\n## Lessons learned\n\n- rotate WAF rules weekly\n- page the on-call for KEV entries\n');
    expect(md).toContain('\n## Related CVE ids\n\n- CVE-2026-1000\n');
    expect(md.endsWith('\n')).toBe(true);
  });
});
