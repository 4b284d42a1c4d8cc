import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { ProcessRun } from '../../../../src/application/conmon/process-run';
import { WriteIncidentReport, type WriteIncidentReportInput } from '../../../../src/application/fedramp/write-incident-report';
import { recordEvaluation } from '../../../../src/application/vulnerabilities/vulnerability-register';
import { ConfigError } from '../../../../src/domain/errors';
import { FIRST_SHAPES } from '../../../../src/domain/fedramp/schema-shapes';
import type { FedrampProfile } from '../../../../src/domain/fedramp/profile';
import type { OscalProblem } from '../../../../src/domain/oscal/oscal-problem';
import { DEFAULT_POLICY } from '../../../../src/domain/vulnerabilities/evaluation-policy';
import { FEDRAMP_RULES_SOURCE } from '../../../../src/ports/fedramp-rules-source';
import type { FedrampSchemaSet } from '../../../../src/ports/schema-validator';
import { builtInRules, FixedRulesSource } from '../../../fakes/fixed-rules-source';
import { FixedSchemaValidator } from '../../../fakes/fixed-schema-validator';
import { unitContainer, type UnitOptions } from '../../../support/unit-container';
import { SAMPLE_DETECTIONS, trackingIdOf, vulnerabilityReport } from '../../../support/vulnerabilities';

// Every expected value below is worked out by hand from the rules data (src/domain/fedramp/data/cr26-rules.json) and
// the sample detections: Class D's IEC-CSO-IIR is 0.25 hours at N3-N5 and 1 hour at N1-N2, IEC-CSO-OIR 3 hours at
// N3-N5 and 6 hours at N2, IEC-CSO-FIR 3 hours at N3-N5; Class B's IIR is 1 business day at N1, its FIR 3 business
// days; VDR-TFR-PVR's Class D irv_lev cell is 12 hours at N5 and 24 days at N2.

const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const agency = (name: string) => ({ name, realms: [], issuers: [], domains: [] });
const PACKAGE_URI = 'https://trust.example.com/fedramp/cpo.json';
const EXAMPLES = 'Department of Examples';
const SAMPLES = 'Department of Samples';
const PROFILE: FedrampProfile = {
  type: '20x',
  class: 'D',
  fedramp_id: 'FR2612345678',
  package_uri: PACKAGE_URI,
  agencies: [agency(EXAMPLES), agency(SAMPLES)],
};
// Thanksgiving: the real calendar (UsFederalHolidays) keeps it; this double keeps what a test gives it.
const THANKSGIVING = '2026-11-26';

// The vuln e2e tests' sample: the scan of 2026-12-07T00:00Z, an evaluation policy that calls *.example.com
// internet-reachable, and a KEV catalog listing CVE-2026-1000.
const { API, DB, MFA } = SAMPLE_DETECTIONS;
const SCANNED = '2026-12-07T00:00:00Z';
const POLICY = { ...DEFAULT_POLICY, internet_reachable: ['*.example.com'] };
const POLICY_ID = `policy:${hex(canonicalize(POLICY) as string).slice(0, 12)}`;
const POLICY_REASON = 'api.example.com matches an internet-reachable pattern; in the CISA KEV catalog (due 2026-12-20); N5 from scanner severity CRITICAL';
const FILES = {
  '/r/1.json': vulnerabilityReport(SCANNED, [API, DB, MFA]),
  '/work/kev.json': { catalogVersion: '2026.12.06', vulnerabilities: [{ cveID: 'CVE-2026-1000', dueDate: '2026-12-20', vendorProject: 'Example' }] },
};
const API_GROUP = trackingIdOf('CVE-2026-1000');
const DB_GROUP = trackingIdOf('CVE-2026-2000');
/** The incident CVE-2026-1000's group is: INC- and 16 hex digits of the SHA-256 of its group's tracking id. */
const INCIDENT = `INC-${hex(API_GROUP).slice(0, 16)}`;
const DESCRIPTION =
  'CVE-2026-1000: CVE-2026-1000 found on api.example.com; a FedRAMP reportable incident under VER-TFR-IRI (internet-reachable, likely exploitable, N5)';
const OBSERVED = `CVE-2026-1000 (CVE-2026-1000 found) detected by Trivy on 1 resource: api.example.com; first detected ${SCANNED}, last seen ${SCANNED} (1 detection).`;
const GROUP_MILESTONES = [
  { occurredAt: SCANNED, milestoneDescription: 'CVE-2026-1000 first detected by Trivy on api.example.com' },
  { occurredAt: SCANNED, milestoneDescription: `Policy evaluation (${POLICY_ID}): internet-reachable yes, likely exploitable yes, N5; ${POLICY_REASON}` },
];
const IDENTIFIED = { occurredAt: SCANNED, milestoneDescription: 'Identified as a FedRAMP reportable incident (VER-TFR-IRI)' };
/** The id of an incident reported from flags: INC- and 16 hex digits of the SHA-256 of the canonical JSON of its summary and start. */
const flagsId = (summary: string, occurredAt: string) => `INC-${hex(canonicalize({ summary, occurred_at: occurredAt }) as string).slice(0, 16)}`;

const SCHEMA_FILE = 'fedramp-incident-report-schema-2026-06-24.json';
/** FedRAMP's schemas with an incident report schema (the fixed validator's set holds only the SDR's). */
class IncidentSchemas extends FixedSchemaValidator {
  constructor(
    problems: OscalProblem[] = [],
    private readonly shapes = FIRST_SHAPES,
  ) {
    super(['1.1.3', '1.2.1'], problems);
  }

  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    const file = `/fedramp-schemas/${SCHEMA_FILE}`;
    return {
      dir: dir ?? '/fedramp-schemas',
      files: { incident: file },
      definitions: [],
      schemas: [{ type: 'incident', file, schemaVersion: '0.2.1', sha256: 'c'.repeat(64) }],
      shapes: this.shapes,
    };
  }
}

/** No FedRAMP schemas anywhere: none configured, and svc installed without its own (the real validator's ConfigError). */
class NoFedrampSchemas extends FixedSchemaValidator {
  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    throw new ConfigError('fedramp-schemas-missing', `FedRAMP schemas not found${dir === undefined ? '' : ` in ${dir}`}`);
  }
}

type Setup = UnitOptions & { scanned?: boolean };

/** The use case over the doubles, Class D at 2026-12-07T00:10Z; unless `scanned: false`, after `conmon process` recorded the sample scan at 00:05. */
async function incident(options: Setup = {}) {
  const { scanned = true, ...unit } = options;
  const d = unitContainer({
    now: '2026-12-07T00:10:00Z',
    profile: PROFILE,
    holidays: [THANKSGIVING],
    files: FILES,
    schemas: new IncidentSchemas(),
    vulnerabilities: { kev_catalog: '/work/kev.json', policy: POLICY },
    ...unit,
  });
  if (scanned) await d.container.resolve(ProcessRun).execute({ input: '/r/1.json', now: new Date('2026-12-07T00:05:00Z') });
  const write = (input: WriteIncidentReportInput) => d.container.resolve(WriteIncidentReport).execute(input);
  return { ...d, write };
}

const at = (iso: string) => new Date(iso);
/** The initial report of CVE-2026-1000's incident, recorded (printed, not written) at 00:10. */
const INITIAL: WriteIncidentReportInput = { type: 'initial', group: 'CVE-2026-1000' };
const FROM_FLAGS: WriteIncidentReportInput = {
  type: 'initial',
  summary: 'Credential stuffing against the admin portal',
  n: 4,
  occurredAt: at('2026-12-07T01:00:00Z'),
  now: at('2026-12-07T02:00:00Z'),
};

describe('WriteIncidentReport (svc fedramp incident), unit', () => {
  describe('an incident drafted from the vulnerability group VER-TFR-IRI flags', () => {
    it('writes the initial report and its twin, due 15 minutes after the evaluation that flagged the group, validated, and records it in the journal', async () => {
      const d = await incident();
      const result = await d.write({ ...INITIAL, out: '/out/incident.json' });
      const document = {
        certificationPackageOverviewUri: PACKAGE_URI,
        reportType: 'Initial',
        providerTrackingId: INCIDENT,
        incidentDescription: DESCRIPTION,
        timeline: { detectedAt: SCANNED, detectionSource: 'Trivy', evaluationCompletedAt: SCANNED, milestones: [...GROUP_MILESTONES, IDENTIFIED] },
        potentialImpact: `Potential Agency Impact N-rating (PAIN): N5. Evaluation: N5 by ${POLICY_ID} at ${SCANNED}: ${POLICY_REASON}.`,
        recoveryPlan: 'Mitigate or remediate CVE-2026-1000 by 2026-12-07T12:00:00Z (VDR-TFR-PVR, N5).',
        affectedAgencies: [EXAMPLES, SAMPLES],
        observedActivity: OBSERVED,
        relatedCveIds: ['CVE-2026-1000'],
      };
      const json = d.writer.files.get('/out/incident.json')!;
      const md = d.writer.files.get('/out/incident.md')!;
      expect(result).toEqual({
        report_type: 'initial',
        rule: 'IEC-CSO-IIR',
        tracking_id: INCIDENT,
        group: { id: API_GROUP, finding_id: 'CVE-2026-1000' },
        due: {
          rule: 'IEC-CSO-IIR',
          class: 'D',
          n: 5,
          force: 'MUST',
          timeframe: { unit: 'hours', num: 0.25 },
          from: SCANNED,
          at: '2026-12-07T00:15:00Z',
          basis: 'identified',
          late: false,
        },
        at: '2026-12-07T00:10:00Z',
        document,
        written: {
          json: { path: '/out/incident.json', name: 'incident.json', sha256: hex(json), bytes: Buffer.byteLength(json) },
          markdown: { path: '/out/incident.md', name: 'incident.md', sha256: hex(md), bytes: Buffer.byteLength(md) },
        },
        recorded: { journal_seq: 1 },
        validation: {
          validated: true,
          schema: SCHEMA_FILE,
          judged_by: { type: 'incident', file: SCHEMA_FILE, schema_version: '0.2.1', sha256: `sha256:${'c'.repeat(64)}` },
        },
      });
      // The JSON as RFC 8785 canonical text, its twin from the same model.
      expect(json).toBe(canonicalize(document));
      expect([...d.writer.files.keys()]).toEqual(['/out/incident.json', '/out/incident.md']);
      expect(d.schemas.validated).toEqual([{ version: 'cr26', model: 'incident' }]);
      const lines = md.split('\n');
      expect(lines[0]).toBe('# Initial Incident Report');
      expect(lines).toEqual(
        expect.arrayContaining([
          '- Machine-readable twin: incident.json (written from the same model)',
          '| Report type | Initial (IEC-CSO-IIR) |',
          `| Provider tracking id | ${INCIDENT} |`,
          '| Due | 2026-12-07T00:15:00Z (IEC-CSO-IIR, Class D, N5: 15 minutes, from 2026-12-07T00:00:00Z) |',
          '| Potential Agency Impact N-rating | N5 |',
          `- Detected: ${SCANNED} by Trivy`,
          `- ${EXAMPLES}`,
          `- ${SAMPLES}`,
          '- CVE-2026-1000',
        ]),
      );
      const journal = await d.store.journal();
      expect(journal).toHaveLength(1);
      expect(journal[0]).toMatchObject({ seq: 1, kind: 'fedramp-incident', recorded_at: '2026-12-07T00:10:00Z' });
      expect(journal[0].record).toEqual({
        report_type: 'initial',
        tracking_id: INCIDENT,
        group: API_GROUP,
        summary: DESCRIPTION,
        occurred_at: SCANNED,
        due_at: '2026-12-07T00:15:00Z',
        affected_agencies: [EXAMPLES, SAMPLES],
        lessons_learned: [],
        document,
        n: 5,
      });
    });

    it('records the report without writing a file when no --out is given, and returns the document', async () => {
      const d = await incident();
      const result = await d.write(INITIAL);
      expect([result.recorded, result.written, d.writer.files.size]).toEqual([{ journal_seq: 1 }, undefined, 0]);
      const [entry] = await d.store.journal();
      expect(entry.record).toMatchObject({ report_type: 'initial', tracking_id: INCIDENT, document: result.document });
    });

    it('writes the ongoing report with the same tracking id, due 3 hours after the last report, the group and agencies taken from it, and records it', async () => {
      const d = await incident();
      await d.write({ ...INITIAL, agencies: [SAMPLES] });
      const result = await d.write({ type: 'ongoing', trackingId: INCIDENT, now: at('2026-12-07T02:00:00Z'), out: '/out/ongoing.json' });
      expect(result).toMatchObject({
        report_type: 'ongoing',
        rule: 'IEC-CSO-OIR',
        tracking_id: INCIDENT,
        group: { id: API_GROUP, finding_id: 'CVE-2026-1000' },
        due: {
          rule: 'IEC-CSO-OIR',
          class: 'D',
          n: 5,
          force: 'MUST',
          timeframe: { unit: 'hours', num: 3 },
          from: '2026-12-07T00:10:00Z',
          at: '2026-12-07T03:10:00Z',
          basis: 'last-report',
          late: false,
        },
        at: '2026-12-07T02:00:00Z',
        recorded: { journal_seq: 2 },
      });
      expect(result.document).toEqual({
        certificationPackageOverviewUri: PACKAGE_URI,
        reportType: 'Ongoing',
        providerTrackingId: INCIDENT,
        incidentDescription: DESCRIPTION,
        timeline: {
          detectedAt: SCANNED,
          detectionSource: 'Trivy',
          evaluationCompletedAt: SCANNED,
          milestones: [
            ...GROUP_MILESTONES,
            IDENTIFIED,
            { occurredAt: '2026-12-07T00:10:00Z', milestoneDescription: 'Initial Incident Report recorded (IEC-CSO-IIR, journal entry 1)' },
          ],
        },
        potentialImpact: "Potential Agency Impact N-rating (PAIN): N5. Evaluation: As the incident's report of 2026-12-07T00:10:00Z gave it (journal entry 1).",
        recoveryPlan: 'Mitigate or remediate CVE-2026-1000 by 2026-12-07T12:00:00Z (VDR-TFR-PVR, N5).',
        // The last report's agencies, not the profile's two.
        affectedAgencies: [SAMPLES],
        observedActivity: OBSERVED,
        relatedCveIds: ['CVE-2026-1000'],
      });
      expect(d.writer.files.get('/out/ongoing.md')!.split('\n')[0]).toBe('# Ongoing Incident Report');
      const journal = await d.store.journal();
      expect(journal.map((e) => [e.seq, e.kind, e.recorded_at])).toEqual([
        [1, 'fedramp-incident', '2026-12-07T00:10:00Z'],
        [2, 'fedramp-incident', '2026-12-07T02:00:00Z'],
      ]);
      expect(journal[1].record).toEqual({
        report_type: 'ongoing',
        tracking_id: INCIDENT,
        group: API_GROUP,
        summary: DESCRIPTION,
        occurred_at: SCANNED,
        due_at: '2026-12-07T03:10:00Z',
        affected_agencies: [SAMPLES],
        lessons_learned: [],
        document: result.document,
        n: 5,
      });
    });

    it('writes the final report from --group with resolvedAt and lessons learned, due 3 hours after resolution; the incident is closed then', async () => {
      const d = await incident();
      await d.write(INITIAL);
      await d.write({ type: 'ongoing', trackingId: INCIDENT, now: at('2026-12-07T02:00:00Z') });
      const result = await d.write({
        type: 'final',
        group: 'CVE-2026-1000',
        resolvedAt: at('2026-12-07T05:00:00Z'),
        lessons: ['page the on-call for KEV entries'],
        now: at('2026-12-07T06:00:00Z'),
        out: '/out/final.json',
      });
      expect(result).toMatchObject({
        report_type: 'final',
        rule: 'IEC-CSO-FIR',
        tracking_id: INCIDENT,
        due: {
          rule: 'IEC-CSO-FIR',
          class: 'D',
          n: 5,
          timeframe: { unit: 'hours', num: 3 },
          from: '2026-12-07T05:00:00Z',
          at: '2026-12-07T08:00:00Z',
          basis: 'resolved',
          late: false,
        },
        recorded: { journal_seq: 3 },
      });
      expect(result.document).toMatchObject({
        reportType: 'Final',
        providerTrackingId: INCIDENT,
        resolvedAt: '2026-12-07T05:00:00Z',
        responseAndRecoveryActivities: 'Lessons learned: page the on-call for KEV entries.',
        potentialImpact: "Potential Agency Impact N-rating (PAIN): N5. Evaluation: As the incident's report of 2026-12-07T02:00:00Z gave it (journal entry 2).",
        affectedAgencies: [EXAMPLES, SAMPLES],
      });
      expect((result.document.timeline as { milestones: unknown[] }).milestones.slice(3)).toEqual([
        { occurredAt: '2026-12-07T00:10:00Z', milestoneDescription: 'Initial Incident Report recorded (IEC-CSO-IIR, journal entry 1)' },
        { occurredAt: '2026-12-07T02:00:00Z', milestoneDescription: 'Ongoing Incident Report recorded (IEC-CSO-OIR, journal entry 2)' },
        { occurredAt: '2026-12-07T05:00:00Z', milestoneDescription: 'Incident resolved and recovery complete' },
      ]);
      const journal = await d.store.journal();
      expect(journal[2].record).toMatchObject({
        report_type: 'final',
        resolved_at: '2026-12-07T05:00:00Z',
        lessons_learned: ['page the on-call for KEV entries'],
        due_at: '2026-12-07T08:00:00Z',
        n: 5,
      });

      // Closed: neither a further report of it nor a new initial report from the same group is taken.
      const closed = `${INCIDENT}: this incident's final report is recorded (journal entry 3 at 2026-12-07T06:00:00Z); a new incident needs its own --tracking-id`;
      await expect(d.write({ type: 'ongoing', trackingId: INCIDENT, now: at('2026-12-07T07:00:00Z'), out: '/out/after.json' })).rejects.toMatchObject({
        code: 'incident-closed',
        message: closed,
      });
      await expect(d.write({ ...INITIAL, now: at('2026-12-07T07:00:00Z'), out: '/out/after.json' })).rejects.toMatchObject({
        code: 'incident-closed',
        message: closed,
      });
      expect(await d.store.journal()).toHaveLength(3);
      expect([...d.writer.files.keys()]).toEqual(['/out/final.json', '/out/final.md']);
    });

    it('takes --n, --summary, --occurred-at and --tracking-id over the group: due from the flagging evaluation at the given rating, late when written after it', async () => {
      const d = await incident();
      const result = await d.write({
        ...INITIAL,
        n: 1,
        summary: 'Exploit attempts against the API',
        occurredAt: at('2026-12-06T22:00:00Z'),
        trackingId: 'INC-api-2026-12',
        now: at('2026-12-07T02:00:00Z'),
      });
      expect(result.tracking_id).toBe('INC-api-2026-12');
      // Class D, N1: 1 hour from the evaluation that flagged it (00:00), not from --occurred-at.
      expect(result.due).toEqual({
        rule: 'IEC-CSO-IIR',
        class: 'D',
        n: 1,
        force: 'MUST',
        timeframe: { unit: 'hours', num: 1 },
        from: SCANNED,
        at: '2026-12-07T01:00:00Z',
        basis: 'identified',
        late: true,
      });
      expect(result.document).toMatchObject({
        providerTrackingId: 'INC-api-2026-12',
        incidentDescription: 'Exploit attempts against the API',
        timeline: { startedAt: '2026-12-06T22:00:00Z', detectedAt: SCANNED },
        potentialImpact: 'Potential Agency Impact N-rating (PAIN): N1 (historically N5, then N1). Evaluation: Estimated by the provider (IEC-CSO-EFI).',
      });
      const [entry] = await d.store.journal();
      expect(entry.record).toMatchObject({
        tracking_id: 'INC-api-2026-12',
        group: API_GROUP,
        summary: 'Exploit attempts against the API',
        occurred_at: '2026-12-06T22:00:00Z',
        due_at: '2026-12-07T01:00:00Z',
        n: 1,
      });
    });

    it("takes the group's rating when an evaluation set it after the last report, though the group is no longer flagged", async () => {
      const d = await incident();
      await d.write(INITIAL);
      // svc vuln evaluate: N2 at 01:00, which ends VER-TFR-IRI's flag (N above 3), not the incident.
      await recordEvaluation(
        d.store,
        { tracking_id: API_GROUP, finding_id: 'CVE-2026-1000' },
        { at: '2026-12-07T01:00:00Z', by: 'alice', reason: 'the exploit needs an admin session', n: 2 },
      );
      const result = await d.write({ type: 'ongoing', trackingId: INCIDENT, now: at('2026-12-07T02:00:00Z') });
      // Class D, N2: 6 hours from the last report (00:10).
      expect(result.due).toMatchObject({
        n: 2,
        timeframe: { unit: 'hours', num: 6 },
        from: '2026-12-07T00:10:00Z',
        at: '2026-12-07T06:10:00Z',
        basis: 'last-report',
      });
      expect(result.recorded).toEqual({ journal_seq: 3 });
      expect(result.document).toMatchObject({
        incidentDescription: DESCRIPTION,
        potentialImpact:
          'Potential Agency Impact N-rating (PAIN): N2 (historically N5, then N2). Evaluation: N2 by alice at 2026-12-07T01:00:00Z: the exploit needs an admin session.',
        // VDR-TFR-PVR, Class D, N2 internet-reachable and likely exploitable: 24 days from the evaluation that set N2.
        recoveryPlan: 'Mitigate or remediate CVE-2026-1000 by 2026-12-31T01:00:00Z (VDR-TFR-PVR, N2).',
        timeline: {
          detectedAt: SCANNED,
          detectionSource: 'Trivy',
          // No longer flagged: the reportable incident evaluation is the one the initial report gave.
          evaluationCompletedAt: SCANNED,
          milestones: [
            ...GROUP_MILESTONES,
            { occurredAt: '2026-12-07T00:10:00Z', milestoneDescription: 'Initial Incident Report recorded (IEC-CSO-IIR, journal entry 1)' },
            { occurredAt: '2026-12-07T01:00:00Z', milestoneDescription: 'Evaluated by alice: N2; the exploit needs an admin session' },
          ],
        },
      });
      expect((await d.store.journal())[2].record).toMatchObject({ report_type: 'ongoing', n: 2, due_at: '2026-12-07T06:10:00Z' });
    });
  });

  describe('an incident reported from flags alone', () => {
    it('drafts it without writing or recording it: due 15 minutes after --occurred-at, late, the id derived from summary and start', async () => {
      const d = await incident({ scanned: false });
      const result = await d.write({ ...FROM_FLAGS, draft: true });
      const id = flagsId('Credential stuffing against the admin portal', '2026-12-07T01:00:00Z');
      expect(result).toEqual({
        report_type: 'initial',
        rule: 'IEC-CSO-IIR',
        tracking_id: id,
        due: {
          rule: 'IEC-CSO-IIR',
          class: 'D',
          n: 4,
          force: 'MUST',
          timeframe: { unit: 'hours', num: 0.25 },
          from: '2026-12-07T01:00:00Z',
          at: '2026-12-07T01:15:00Z',
          basis: 'occurred',
          late: true,
        },
        at: '2026-12-07T02:00:00Z',
        document: {
          certificationPackageOverviewUri: PACKAGE_URI,
          reportType: 'Initial',
          providerTrackingId: id,
          incidentDescription: 'Credential stuffing against the admin portal',
          timeline: { startedAt: '2026-12-07T01:00:00Z' },
          potentialImpact: 'Potential Agency Impact N-rating (PAIN): N4. Evaluation: Estimated by the provider (IEC-CSO-EFI).',
          affectedAgencies: [EXAMPLES, SAMPLES],
        },
        recorded: { draft: true },
        validation: expect.objectContaining({ validated: true }),
      });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
      // Not recorded: an ongoing report has no initial report to follow.
      await expect(d.write({ type: 'ongoing', trackingId: id, now: at('2026-12-07T03:00:00Z') })).rejects.toMatchObject({
        code: 'incident-not-reported',
        message: `${id}: no initial report of this incident is recorded in memory; write --type initial first (without --draft), or pass the tracking id its initial report printed`,
      });
    });

    it('writes a draft to --out with its twin, recording nothing', async () => {
      const d = await incident({ scanned: false });
      const result = await d.write({ ...FROM_FLAGS, draft: true, out: '/out/draft.json' });
      expect(result.recorded).toEqual({ draft: true });
      expect([...d.writer.files.keys()]).toEqual(['/out/draft.json', '/out/draft.md']);
      expect(JSON.parse(d.writer.files.get('/out/draft.json')!)).toEqual(result.document);
      expect(await d.store.journal()).toEqual([]);
    });

    it.each([
      ['keeps', [THANKSGIVING], '2026-11-27T15:00:00Z'],
      ['does not keep', [], '2026-11-26T15:00:00Z'],
    ])(
      "counts Class B's 1 business day (N1) past the holidays the calendar %s: Wednesday 15:00 before Thanksgiving to the next business day",
      async (_keeps, holidays, due) => {
        const d = await incident({ scanned: false, holidays });
        const result = await d.write({
          type: 'initial',
          summary: 'Misrouted backup',
          n: 1,
          occurredAt: at('2026-11-25T15:00:00Z'),
          class: 'B',
          draft: true,
          now: at('2026-11-25T16:00:00Z'),
        });
        expect(result.due).toEqual({
          rule: 'IEC-CSO-IIR',
          class: 'B',
          n: 1,
          force: 'MUST',
          timeframe: { unit: 'bizdays', num: 1 },
          from: '2026-11-25T15:00:00Z',
          at: due,
          basis: 'occurred',
          late: false,
        });
      },
    );

    it("dates a Class B final report 3 business days after --resolved-at, skipping Thanksgiving and the weekend, at the last report's rating", async () => {
      const d = await incident({ scanned: false });
      const initial = await d.write({
        type: 'initial',
        summary: 'Misrouted backup',
        n: 3,
        occurredAt: at('2026-11-24T09:00:00Z'),
        class: 'B',
        now: at('2026-11-24T10:00:00Z'),
      });
      const result = await d.write({
        type: 'final',
        trackingId: initial.tracking_id,
        resolvedAt: at('2026-11-25T15:00:00Z'),
        class: 'B',
        now: at('2026-11-25T16:00:00Z'),
      });
      // Thursday 26 a holiday, Friday 27 the first business day, Monday 30 the second, Tuesday 1 December the third.
      expect(result.due).toEqual({
        rule: 'IEC-CSO-FIR',
        class: 'B',
        n: 3,
        force: 'MUST',
        timeframe: { unit: 'bizdays', num: 3 },
        from: '2026-11-25T15:00:00Z',
        at: '2026-12-01T15:00:00Z',
        basis: 'resolved',
        late: false,
      });
      expect(result.document).toMatchObject({
        timeline: {
          startedAt: '2026-11-24T09:00:00Z',
          milestones: [
            { occurredAt: '2026-11-24T10:00:00Z', milestoneDescription: 'Initial Incident Report recorded (IEC-CSO-IIR, journal entry 1)' },
            { occurredAt: '2026-11-25T15:00:00Z', milestoneDescription: 'Incident resolved and recovery complete' },
          ],
        },
        potentialImpact: "Potential Agency Impact N-rating (PAIN): N3. Evaluation: As the incident's report of 2026-11-24T10:00:00Z gave it (journal entry 1).",
        resolvedAt: '2026-11-25T15:00:00Z',
      });
      expect((await d.store.journal()).map((e) => e.record.report_type)).toEqual(['initial', 'final']);
    });

    it('rates an incident whose recorded report gave no N-rating N5 by default (IEC-CSO-DPR), keeping its start and agencies', async () => {
      const d = await incident({ scanned: false });
      // An entry of an svc that did not record the rating yet.
      const legacy = {
        report_type: 'initial',
        tracking_id: 'INC-0123456789abcdef',
        summary: 'Lost laptop',
        occurred_at: '2026-12-06T20:00:00Z',
        due_at: '2026-12-06T20:15:00Z',
        affected_agencies: [EXAMPLES],
        lessons_learned: [],
        document: { reportType: 'Initial' },
      };
      await d.store.appendJournal('fedramp-incident', legacy, '2026-12-06T20:10:00Z');
      const result = await d.write({ type: 'ongoing', trackingId: 'INC-0123456789abcdef' });
      expect(result.due).toEqual({
        rule: 'IEC-CSO-OIR',
        class: 'D',
        n: 5,
        force: 'MUST',
        timeframe: { unit: 'hours', num: 3 },
        from: '2026-12-06T20:10:00Z',
        at: '2026-12-06T23:10:00Z',
        basis: 'last-report',
        late: true,
      });
      expect(result.document).toEqual({
        certificationPackageOverviewUri: PACKAGE_URI,
        reportType: 'Ongoing',
        providerTrackingId: 'INC-0123456789abcdef',
        incidentDescription: 'Lost laptop',
        timeline: {
          startedAt: '2026-12-06T20:00:00Z',
          milestones: [{ occurredAt: '2026-12-06T20:10:00Z', milestoneDescription: 'Initial Incident Report recorded (IEC-CSO-IIR, journal entry 1)' }],
        },
        potentialImpact: 'Potential Agency Impact N-rating (PAIN): N5. Evaluation: Not estimated: N5 by default (IEC-CSO-DPR).',
        affectedAgencies: [EXAMPLES],
      });
      expect((await d.store.journal())[1].record).toMatchObject({
        report_type: 'ongoing',
        occurred_at: '2026-12-06T20:00:00Z',
        n: 5,
        affected_agencies: [EXAMPLES],
      });
    });

    it('names no agency when --agency is given none of them', async () => {
      const d = await incident({ scanned: false });
      const result = await d.write({ ...FROM_FLAGS, agencies: [] });
      expect(result.document).not.toHaveProperty('affectedAgencies');
      expect((await d.store.journal())[0].record).toMatchObject({ affected_agencies: [] });
    });

    it('writes potentialImpact as an object where the schema in use declares one', async () => {
      const d = await incident({ scanned: false, schemas: new IncidentSchemas([], { ...FIRST_SHAPES, potentialImpact: 'object' }) });
      const result = await d.write({ ...FROM_FLAGS, draft: true });
      expect(result.document.potentialImpact).toEqual({ historicalRating: [4], currentRating: 4, evaluationNotes: 'Estimated by the provider (IEC-CSO-EFI).' });
    });

    it('writes it unvalidated, saying why, when no FedRAMP schemas are found and none were named', async () => {
      const d = await incident({ scanned: false, schemas: new NoFedrampSchemas() });
      const result = await d.write({ ...FROM_FLAGS, out: '/out/incident.json' });
      expect(result.validation).toEqual({ validated: false, note: 'FedRAMP schemas not found' });
      expect(result.document.potentialImpact).toBe('Potential Agency Impact N-rating (PAIN): N4. Evaluation: Estimated by the provider (IEC-CSO-EFI).');
      expect(d.schemas.validated).toEqual([]);
      expect(result.recorded).toEqual({ journal_seq: 1 });
    });
  });

  describe('refuses before anything is written or recorded', () => {
    const CONFIG = '/work/svc.config.json';
    it.each<[string, WriteIncidentReportInput, string, string]>([
      [
        'a final report without --resolved-at',
        { type: 'final', trackingId: INCIDENT },
        'missing-flag',
        '--type final needs --resolved-at: a Final Incident Report says when the incident was resolved and recovery completed (IEC-CSO-FIR)',
      ],
      [
        '--resolved-at on an initial report',
        { ...INITIAL, resolvedAt: at('2026-12-07T00:05:00Z') },
        'bad-flag-value',
        '--resolved-at is for --type final: an incident still being reported (--type initial) is not resolved',
      ],
      [
        'flags alone without --summary, --n or --occurred-at',
        { type: 'initial' },
        'missing-flag',
        '--type initial without --group needs --summary, --n and --occurred-at (missing --summary, --n, --occurred-at; --n 5 when the PAIN is not estimated, IEC-CSO-DPR); or draft it from a flagged vulnerability group with --group',
      ],
      [
        'flags alone without --n',
        { ...FROM_FLAGS, n: undefined },
        'missing-flag',
        '--type initial without --group needs --summary, --n and --occurred-at (missing --n; --n 5 when the PAIN is not estimated, IEC-CSO-DPR); or draft it from a flagged vulnerability group with --group',
      ],
      [
        'an ongoing report naming no incident',
        { type: 'ongoing' },
        'missing-flag',
        "--type ongoing needs --tracking-id (the one the incident's initial report printed) or --group (the vulnerability group it was reported from)",
      ],
      [
        'an empty --tracking-id',
        { type: 'ongoing', trackingId: ' ' },
        'bad-flag-value',
        "--tracking-id is empty; give the incident's tracking id, such as INC-1f2e3d4c5b6a7980",
      ],
      ['an empty --summary', { ...INITIAL, summary: '  ' }, 'bad-flag-value', '--summary is empty; describe the incident'],
      [
        'an empty --lesson',
        { ...INITIAL, lessons: ['rotate keys', ' '] },
        'bad-flag-value',
        '--lesson is empty; write the lesson learned, or leave the flag out',
      ],
      [
        'a start after --now',
        { ...FROM_FLAGS, occurredAt: at('2026-12-08T00:00:00Z') },
        'bad-time',
        '--occurred-at 2026-12-08T00:00:00Z is after --now 2026-12-07T02:00:00Z; an incident report tells what has happened',
      ],
      [
        'a resolution after the clock',
        { type: 'final', trackingId: INCIDENT, resolvedAt: at('2026-12-07T01:00:00Z') },
        'bad-time',
        '--resolved-at 2026-12-07T01:00:00Z is after --now 2026-12-07T00:10:00Z; an incident report tells what has happened',
      ],
      [
        'a resolution before --occurred-at',
        { type: 'final', trackingId: INCIDENT, occurredAt: at('2026-12-07T00:05:00Z'), resolvedAt: at('2026-12-07T00:01:00Z') },
        'bad-time',
        '--resolved-at 2026-12-07T00:01:00Z is before --occurred-at 2026-12-07T00:05:00Z; give the time it was resolved',
      ],
      [
        'an agency the profile does not list',
        { ...FROM_FLAGS, agencies: ['Department of Nothing'] },
        'unknown-agency',
        `--agency "Department of Nothing": not an agency of fedramp.agencies in ${CONFIG}; write one of "${EXAMPLES}", "${SAMPLES}", or add the agency there`,
      ],
      [
        'an agency cased otherwise than the profile writes it',
        { ...FROM_FLAGS, agencies: [EXAMPLES, 'department of samples'] },
        'unknown-agency',
        `--agency "department of samples": not an agency of fedramp.agencies in ${CONFIG} (which writes it "${SAMPLES}": names match exactly); write one of "${EXAMPLES}", "${SAMPLES}", or add the agency there`,
      ],
      [
        'an empty --agency',
        { ...FROM_FLAGS, agencies: [' '] },
        'bad-flag-value',
        `--agency is empty; write the name of an agency of fedramp.agencies in ${CONFIG}`,
      ],
      [
        'a group no rule flags as an incident',
        { type: 'initial', group: 'CVE-2026-2000' },
        'not-an-incident',
        `${DB_GROUP} (CVE-2026-2000): not a reportable incident at 2026-12-07T00:10:00Z (evaluated, N4, not internet-reachable, not likely exploitable; VER-TFR-IRI and VER-TFR-NRI do not flag it); record the evaluation that makes it one (svc vuln evaluate), or report it from flags without --group`,
      ],
      [
        'an unknown group',
        { type: 'initial', group: 'CVE-2099-0001' },
        'unknown-vulnerability',
        'CVE-2099-0001: no vulnerability group of that tracking id or finding id in run 1 of memory; svc vuln list names them',
      ],
      [
        'a final report of an incident never reported',
        { type: 'final', trackingId: 'INC-0000000000000000', resolvedAt: at('2026-12-07T00:05:00Z') },
        'incident-not-reported',
        'INC-0000000000000000: no initial report of this incident is recorded in memory; write --type initial first (without --draft), or pass the tracking id its initial report printed',
      ],
    ])('%s', async (_what, input, code, message) => {
      const d = await incident();
      await expect(d.write({ ...input, out: '/out/bad.json' })).rejects.toMatchObject({ code, message });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it.each<[string, Partial<FedrampProfile>, string]>([
      [
        'a profile without a class',
        { class: undefined },
        `${CONFIG}: fedramp.class: missing; svc fedramp incident needs it: write A, B, C or D, or pass --class; see docs/configuration.md`,
      ],
      [
        'a profile without package_uri',
        { package_uri: undefined },
        `${CONFIG}: fedramp.package_uri: missing; svc fedramp incident needs it: write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md`,
      ],
    ])('%s, naming the key and the file', async (_what, change, message) => {
      const d = await incident({ profile: { ...PROFILE, ...change } });
      await expect(d.write({ ...INITIAL, out: '/out/bad.json' })).rejects.toMatchObject({ code: 'invalid-config', message });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it('an --agency when the profile lists no agency', async () => {
      const d = await incident({ scanned: false, profile: { ...PROFILE, agencies: undefined } });
      await expect(d.write({ ...FROM_FLAGS, agencies: [EXAMPLES], out: '/out/bad.json' })).rejects.toMatchObject({
        code: 'unknown-agency',
        message: `--agency "${EXAMPLES}": ${CONFIG}: fedramp.agencies names no agency; add the agency there ({"name": "${EXAMPLES}"}), then name it`,
      });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it('a group when no run is recorded', async () => {
      const d = await incident({ scanned: false });
      await expect(d.write({ ...INITIAL, out: '/out/bad.json' })).rejects.toMatchObject({
        code: 'unknown-vulnerability',
        message: 'CVE-2026-1000: no vulnerability group of that tracking id or finding id in memory (no run recorded); svc vuln list names them',
      });
      expect(d.writer.files.size).toBe(0);
    });

    it('rules data without the timeframe, naming the rule and the class', async () => {
      const rules = builtInRules();
      delete rules.rules.find((r) => r.id === 'IEC-CSO-IIR')!.varies_by_class!.D!.pain_timeframes;
      const d = await incident({ scanned: false });
      d.container.register(FEDRAMP_RULES_SOURCE, { useValue: new FixedRulesSource(rules) });
      await expect(d.write({ ...FROM_FLAGS, out: '/out/bad.json' })).rejects.toMatchObject({
        code: 'no-timeframe',
        message:
          'CR26 2026.10.05.01: IEC-CSO-IIR gives no pain_timeframes for Class D, so svc cannot time the initial incident report; use a release that gives it (SVC_FEDRAMP_RULES)',
      });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it('--schemas naming a directory without FedRAMP schemas', async () => {
      const d = await incident({ scanned: false, schemas: new NoFedrampSchemas() });
      await expect(d.write({ ...FROM_FLAGS, schemas: '/nowhere', out: '/out/bad.json' })).rejects.toMatchObject({
        code: 'fedramp-schemas-missing',
        message: 'FedRAMP schemas not found in /nowhere',
      });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it("a report FedRAMP's schema rejects: svc's bug, an internal error", async () => {
      const d = await incident({
        scanned: false,
        schemas: new IncidentSchemas([{ layer: 'fedramp', rule: 'required', path: '$.timeline', message: "must have required property 'detectedAt'" }]),
      });
      const refused = d.write({ ...FROM_FLAGS, out: '/out/bad.json' });
      await expect(refused).rejects.toThrow(
        "/out/bad.json: $.timeline: must have required property 'detectedAt': svc built a document FedRAMP's schema rejects, and wrote nothing",
      );
      await expect(refused).rejects.not.toHaveProperty('code');
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it('an output that cannot be written: the journal entry is not appended either', async () => {
      const d = await incident({ scanned: false });
      d.writer.failWriting = 'bad.md';
      await expect(d.write({ ...FROM_FLAGS, out: '/out/bad.json' })).rejects.toThrow('injected failure writing bad.md');
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    describe('against what the journal holds', () => {
      /** The store with the initial report of CVE-2026-1000's incident recorded (not written) at 00:10. */
      const reported = async () => {
        const d = await incident();
        await d.write(INITIAL);
        const before = await d.store.journal();
        return { d, before };
      };

      it.each<[string, WriteIncidentReportInput, string, string, string]>([
        [
          'a second initial report of the incident',
          { ...INITIAL, now: at('2026-12-07T00:20:00Z') },
          'ConflictError',
          'incident-reported',
          `${INCIDENT}: an initial report of this incident is recorded already (journal entry 1 at 2026-12-07T00:10:00Z); write --type ongoing or final, or pass another --tracking-id for a new incident`,
        ],
        [
          'a --group other than the one the incident was reported from',
          { type: 'ongoing', trackingId: INCIDENT, group: 'CVE-2026-2000' },
          'InvalidInputError',
          'incident-group-mismatch',
          `--group CVE-2026-2000: incident ${INCIDENT} was reported from ${API_GROUP}, not ${DB_GROUP}; pass that group, or leave out --group`,
        ],
        [
          'a resolution before the incident occurred (the first detection, as its initial report recorded)',
          { type: 'final', trackingId: INCIDENT, resolvedAt: at('2026-12-06T23:00:00Z') },
          'UsageError',
          'bad-time',
          '--resolved-at 2026-12-06T23:00:00Z is before the incident occurred (2026-12-07T00:00:00Z); give the time it was resolved',
        ],
      ])('%s', async (_what, input, kind, code, message) => {
        const { d, before } = await reported();
        const refused = d.write({ ...input, out: '/out/bad.json' });
        await expect(refused).rejects.toMatchObject({ code, message });
        await expect(refused).rejects.toHaveProperty('constructor.name', kind);
        expect(d.writer.files.size).toBe(0);
        expect(await d.store.journal()).toEqual(before);
      });

      it('a journal that no longer verifies', async () => {
        const { d } = await reported();
        (d.store.shared.journal[0].record as Record<string, unknown>).summary = 'edited';
        await expect(d.write({ type: 'ongoing', trackingId: INCIDENT, out: '/out/bad.json' })).rejects.toMatchObject({ code: 'run-store-tampered' });
        expect(d.writer.files.size).toBe(0);
        expect(d.store.shared.journal).toHaveLength(1);
      });
    });
  });
});
