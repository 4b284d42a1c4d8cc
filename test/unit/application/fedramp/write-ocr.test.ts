import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { ProcessRun } from '../../../../src/application/conmon/process-run';
import { WriteIncidentReport, type WriteIncidentReportInput } from '../../../../src/application/fedramp/write-incident-report';
import { WriteOcr, type WriteOcrInput } from '../../../../src/application/fedramp/write-ocr';
import { WriteScn, type WriteScnInput } from '../../../../src/application/fedramp/write-scn';
import { EvaluateVulnerability } from '../../../../src/application/vulnerabilities/evaluate-vulnerability';
import { ConfigError } from '../../../../src/domain/errors';
import type { FedrampProfile } from '../../../../src/domain/fedramp/profile';
import type { OscalProblem } from '../../../../src/domain/oscal/oscal-problem';
import type { FedrampSchemaSet } from '../../../../src/ports/schema-validator';
import { FIRST_SHAPES } from '../../../../src/domain/fedramp/schema-shapes';
import { FixedSchemaValidator } from '../../../fakes/fixed-schema-validator';
import { TEST_SETTINGS } from '../../../support/builders';
import { unitContainer, type UnitOptions } from '../../../support/unit-container';
import { detection } from '../../../support/vulnerabilities';

// The e2e test's store (test/e2e/fedramp-ocr.test.ts), recorded here by the use cases the CLI runs, over the doubles:
// a Prowler run of KSI-IAM-APM passing on 2026-10-01 and failing on 2026-11-02 (detecting iam_root_mfa_enabled, high:
// N4 by the default policy), that finding accepted on 2026-11-03; a 20x Class B profile. Every expected value is
// worked out by hand: the period before the first OCR is the 3 calendar months before --to, from the day after
// (2026-11-30: 2026-08-31 on), the next report and the planning horizon 3 months after --to (2027-02-28, the day
// clamped to February's length).

const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const PACKAGE_URI = 'https://trust.example.com/fedramp/cpo.json';
const AVI = 'https://trust.example.com/fedramp/avi.json';
const EXAMPLES = 'Department of Examples';
const PROFILE: FedrampProfile = {
  type: '20x',
  class: 'B',
  fedramp_id: 'FR2611250001',
  package_uri: PACKAGE_URI,
  agencies: [{ name: EXAMPLES, realms: [], issuers: [], domains: [] }],
  planned_changes: ['Move the audit log store to a second region'],
  recommendations: ['Enable phishing-resistant MFA for agency administrators'],
};
const CONFIG = '/work/svc.config.json';
// Thanksgiving, for the SCNs' and incidents' business days.
const THANKSGIVING = '2026-11-26';

/** A Prowler run of one KSI on `day`; a FAIL also detects the failed check as a configuration vulnerability. */
const report = (day: string, status: 'PASS' | 'FAIL') => ({
  schema_version: '1',
  generated_at: `${day}T08:00:00Z`,
  source: { tool: 'Prowler', version: '5.0.0' },
  results: [{ ksi_id: 'KSI-IAM-APM', status, observed_at: `${day}T08:00:00Z`, checks: [{ id: 'iam_root_mfa_enabled', status }] }],
  vulnerabilities: status === 'FAIL' ? [detection('Prowler', 'iam_root_mfa_enabled', 'arn:aws:iam::1:root', 'high', `${day}T08:00:00Z`, 'configuration')] : [],
});
const FILES = {
  '/r/october.json': report('2026-10-01', 'PASS'),
  '/r/november.json': report('2026-11-02', 'FAIL'),
  '/r/december.json': report('2026-12-05', 'PASS'),
};

const OCR_SCHEMA = 'fedramp-ocr-schema-2026-06-24.json';
/** FedRAMP's schemas with an OCR schema (the fixed validator's set holds only the SDR's). */
class OcrSchemas extends FixedSchemaValidator {
  constructor(problems: OscalProblem[] = []) {
    super(['1.1.3', '1.2.1'], problems);
  }

  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    const file = `/fedramp-schemas/${OCR_SCHEMA}`;
    return {
      dir: dir ?? '/fedramp-schemas',
      files: { ocr: file },
      definitions: [],
      schemas: [{ type: 'ocr', file, schemaVersion: '0.2.1', sha256: 'd'.repeat(64) }],
      shapes: FIRST_SHAPES,
    };
  }
}

/** No FedRAMP schemas anywhere: none configured, and svc installed without its own (the real validator's ConfigError). */
class NoFedrampSchemas extends FixedSchemaValidator {
  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    throw new ConfigError('fedramp-schemas-missing', `FedRAMP schemas not found${dir === undefined ? '' : ` in ${dir}`}`);
  }
}

const at = (iso: string) => new Date(iso);

/**
 * The use case over the doubles at 2026-12-01T00:00Z, after `conmon process` recorded October's and November's runs
 * and `vuln evaluate` accepted the finding (journal entry 1); `runs: false` for an empty store. The files the setup
 * wrote are cleared: what the writer holds afterwards is the OCR's.
 */
async function ocr(options: UnitOptions & { runs?: boolean } = {}) {
  const { runs = true, ...unit } = options;
  const d = unitContainer({ now: '2026-12-01T00:00:00Z', profile: PROFILE, files: FILES, holidays: [THANKSGIVING], schemas: new OcrSchemas(), ...unit });
  const conmon = (input: string, now: string) => d.container.resolve(ProcessRun).execute({ input, now: at(now) });
  if (runs) {
    await conmon('/r/october.json', '2026-10-01T09:00:00Z');
    await conmon('/r/november.json', '2026-11-02T09:00:00Z');
    await d.container.resolve(EvaluateVulnerability).execute({
      group: 'iam_root_mfa_enabled',
      accept: true,
      reason: 'break-glass account in a vault',
      by: 'ciso',
      class: 'B',
      now: at('2026-11-03T00:00:00Z'),
    });
  }
  const write = (input: WriteOcrInput) => d.container.resolve(WriteOcr).execute(input);
  const scn = async (input: Omit<WriteScnInput, 'out'>) => {
    await d.container.resolve(WriteScn).execute({ ...input, out: '/scn/scn.json' });
    d.writer.files.clear();
  };
  const incident = (input: WriteIncidentReportInput) => d.container.resolve(WriteIncidentReport).execute(input);
  return { ...d, write, conmon, scn, incident };
}

const DOCUMENT = {
  certificationPackageOverviewUri: PACKAGE_URI,
  reportPeriod: { from: '2026-08-31', to: '2026-11-30' },
  certificationDataChanges: ['KSI-IAM-APM: Implemented → Not Implemented on 2026-11-02'],
  plannedCertificationDataChanges: { planningHorizonThrough: '2027-02-28', changes: ['Move the audit log store to a second region'] },
  acceptedVulnerabilities: `1 accepted vulnerability (N4: 1); full records in the Accepted Vulnerability Info (VER-RPT-AVI) at ${AVI}.`,
  transformativeChanges: [],
  updatedRecommendations: ['Enable phishing-resistant MFA for agency administrators'],
  activeAgencies: [EXAMPLES],
  reportableIncidents: { incidents: [] },
};

const markdown = (title: string, json: string) =>
  [
    `# ${title}`,
    '',
    '- FedRAMP ID: FR2611250001',
    `- Certification Package Overview: ${PACKAGE_URI}`,
    '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
    `- Generated: 2026-12-01T00:00:00Z by svc ${TEST_SETTINGS.tool.version}`,
    `- Machine-readable twin: ${json} (written from the same model)`,
    '',
    '- Period: 2026-08-31 to 2026-11-30',
    '- Planning horizon through: 2027-02-28',
    `- Active agencies: ${EXAMPLES}`,
    `- Accepted vulnerabilities: 1 accepted vulnerability (N4: 1); full records in the Accepted Vulnerability Info (VER-RPT-AVI) at ${AVI}.`,
    '',
    '## Certification data changes',
    '',
    '- KSI-IAM-APM: Implemented → Not Implemented on 2026-11-02',
    '',
    '## Planned changes',
    '',
    '- Move the audit log store to a second region',
    '',
    '## Transformative changes',
    '',
    'None in the period.',
    '',
    '## Updated recommendations',
    '',
    '- Enable phishing-resistant MFA for agency administrators',
    '',
    '## Reportable incidents',
    '',
    'None occurred in the period.',
    '',
  ].join('\n');

describe('WriteOcr (svc fedramp ocr), unit', () => {
  it('writes the OCR of the 3 months ending --to from the run store and the profile, validated, and records it with the snapshot it freezes', async () => {
    const d = await ocr();
    const result = await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    const json = d.writer.files.get('/out/ocr.json')!;
    expect(result).toEqual({
      out: '/out/ocr.json',
      markdown: '/out/ocr.md',
      sha256: `sha256:${hex(json)}`,
      period: { from: '2026-08-31', to: '2026-11-30' },
      next_report_date: '2027-02-28',
      // Journal entry 1 is the acceptance; the latest run is November's (seq 2).
      recorded: { seq: 2, snapshot: { run_seq: 2, journal_seq: 1 } },
      counts: { certification_data_changes: 1, planned_changes: 1, transformative_changes: 0, incidents: 0, accepted_vulnerabilities: 1 },
      validated: { schema: '/fedramp-schemas', judged_by: { type: 'ocr', file: OCR_SCHEMA, schema_version: '0.2.1', sha256: `sha256:${'d'.repeat(64)}` } },
    });
    expect(JSON.parse(json)).toEqual(DOCUMENT);
    expect(json).toBe(canonicalize(DOCUMENT));
    expect(d.writer.files.get('/out/ocr.md')).toBe(markdown('Ongoing Certification Report', 'ocr.json'));
    expect([...d.writer.files.keys()]).toEqual(['/out/ocr.json', '/out/ocr.md']);
    expect(d.schemas.validated).toEqual([{ version: 'cr26', model: 'ocr' }]);
    const journal = await d.store.journal();
    expect(journal.map((e) => [e.seq, e.kind, e.recorded_at])).toEqual([
      [1, 'vulnerability-evaluation', '2026-11-03T00:00:00Z'],
      [2, 'fedramp-ocr', '2026-12-01T00:00:00Z'],
    ]);
    expect(journal[1].record).toEqual({
      period: { from: '2026-08-31', to: '2026-11-30' },
      next_report_date: '2027-02-28',
      document: DOCUMENT,
      snapshot: { run_seq: 2, journal_seq: 1 },
    });
  });

  it('writes a draft titled as one without recording it', async () => {
    const d = await ocr();
    const result = await d.write({ to: '2026-11-30', draft: true, out: '/draft/ocr.json' });
    expect(result.recorded).toBeUndefined();
    expect(result).not.toHaveProperty('recorded');
    expect(JSON.parse(d.writer.files.get('/draft/ocr.json')!)).toEqual(DOCUMENT);
    expect(d.writer.files.get('/draft/ocr.md')).toBe(markdown('Ongoing Certification Report (DRAFT)', 'ocr.json'));
    expect((await d.store.journal()).map((e) => e.kind)).toEqual(['vulnerability-evaluation']);
  });

  it('ends the period on the day of now and names the file after it when neither --to nor --out is given', async () => {
    const d = await ocr();
    const result = await d.write({});
    // 2026-12-01: the 3 months before it from the day after 2026-09-01; the next report 2027-03-01.
    expect([result.out, result.markdown, result.period, result.next_report_date]).toEqual([
      'ocr-2026-12-01.json',
      'ocr-2026-12-01.md',
      { from: '2026-09-02', to: '2026-12-01' },
      '2027-03-01',
    ]);
    expect([...d.writer.files.keys()]).toEqual(['./ocr-2026-12-01.json', './ocr-2026-12-01.md']);
  });

  it("starts the next period the day after the last recorded OCR's, and freezes the journal with that OCR in it", async () => {
    const d = await ocr();
    await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    await d.conmon('/r/december.json', '2026-12-05T09:00:00Z');
    const result = await d.write({ to: '2027-02-28', now: at('2027-03-01T00:00:00Z'), out: '/out/next.json' });
    expect(result).toMatchObject({
      period: { from: '2026-12-01', to: '2027-02-28' },
      next_report_date: '2027-05-28',
      recorded: { seq: 3, snapshot: { run_seq: 3, journal_seq: 2 } },
    });
    const document = JSON.parse(d.writer.files.get('/out/next.json')!);
    // December's run passes again: the change is in this period; the finding is no longer detected, so none is accepted.
    expect(document).toMatchObject({
      reportPeriod: { from: '2026-12-01', to: '2027-02-28' },
      certificationDataChanges: ['KSI-IAM-APM: Not Implemented → Implemented on 2026-12-05'],
      plannedCertificationDataChanges: { planningHorizonThrough: '2027-05-28', changes: ['Move the audit log store to a second region'] },
      acceptedVulnerabilities: `No accepted vulnerabilities; the Accepted Vulnerability Info (VER-RPT-AVI) is at ${AVI}.`,
    });
  });

  it('takes --from over the last recorded period', async () => {
    const d = await ocr();
    await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    const result = await d.write({ from: '2026-11-01', to: '2026-11-30', draft: true, out: '/out/again.json' });
    expect(result.period).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(JSON.parse(d.writer.files.get('/out/again.json')!).certificationDataChanges).toEqual(['KSI-IAM-APM: Implemented → Not Implemented on 2026-11-02']);
  });

  it('lists no change of a KSI whose status changed outside the period', async () => {
    const d = await ocr();
    const result = await d.write({ from: '2026-11-03', to: '2026-11-30', draft: true, out: '/out/ocr.json' });
    expect(result.counts.certification_data_changes).toBe(0);
    expect(d.writer.files.get('/out/ocr.md')).toContain('## Certification data changes\n\nNo KSI status changed in the period.\n');
  });

  it("lists the period's recorded SCNs and incidents: adaptive changes finished in it, transformative work overlapping it, planned changes by the horizon, incidents open in it", async () => {
    const d = await ocr();
    await d.scn({
      type: 'adaptive',
      summary: 'Patch the load balancers',
      dates: { start: '2026-11-14', finish: '2026-11-16' },
      now: at('2026-11-04T00:00:00Z'),
    });
    await d.scn({ type: 'transformative', summary: 'Region move', dates: { start: '2026-11-20', finish: '2026-12-10' }, now: at('2026-11-04T00:00:00Z') });
    // Past the planning horizon (2027-02-28).
    await d.scn({ type: 'adaptive', summary: 'Rotate the HSM', dates: { start: '2027-03-01', finish: '2027-03-05' }, now: at('2026-11-04T00:00:00Z') });
    const flags = (summary: string, occurredAt: string, now: string): WriteIncidentReportInput => ({
      type: 'initial',
      summary,
      n: 3,
      occurredAt: at(occurredAt),
      now: at(now),
    });
    // Resolved before the period began: not in it.
    const phishing = await d.incident(flags('Phishing of the helpdesk', '2026-08-01T10:00:00Z', '2026-11-05T10:00:00Z'));
    await d.incident({ type: 'final', trackingId: phishing.tracking_id, resolvedAt: at('2026-08-15T10:00:00Z'), now: at('2026-11-05T10:05:00Z') });
    // Occurred before the period and still open at its start.
    const stuffing = await d.incident(flags('Credential stuffing against the admin portal', '2026-08-20T12:00:00Z', '2026-11-06T00:00:00Z'));
    // Occurred, reported and resolved in the period, with a lesson in two reports.
    const backup = await d.incident(flags('Misrouted backup', '2026-11-10T12:00:00Z', '2026-11-10T13:00:00Z'));
    await d.incident({ type: 'ongoing', trackingId: backup.tracking_id, lessons: ['tag backup buckets'], now: at('2026-11-11T09:00:00Z') });
    await d.incident({
      type: 'final',
      trackingId: backup.tracking_id,
      resolvedAt: at('2026-11-12T09:00:00Z'),
      lessons: ['tag backup buckets', 'alert on cross-account copies'],
      now: at('2026-11-12T10:00:00Z'),
    });
    // Occurred after --to.
    await d.incident(flags('Defaced status page', '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    const entries = (await d.store.journal()).length;

    const result = await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    expect(result.counts).toEqual({ certification_data_changes: 2, planned_changes: 2, transformative_changes: 1, incidents: 2, accepted_vulnerabilities: 1 });
    expect(result.recorded).toEqual({ seq: entries + 1, snapshot: { run_seq: 2, journal_seq: entries } });
    expect(JSON.parse(d.writer.files.get('/out/ocr.json')!)).toMatchObject({
      certificationDataChanges: ['KSI-IAM-APM: Implemented → Not Implemented on 2026-11-02', 'Adaptive change finished 2026-11-16: Patch the load balancers'],
      plannedCertificationDataChanges: {
        planningHorizonThrough: '2027-02-28',
        changes: ['Transformative change starting 2026-11-20, finishing 2026-12-10: Region move', 'Move the audit log store to a second region'],
      },
      transformativeChanges: ['Region move (start 2026-11-20, finish 2026-12-10)'],
      reportableIncidents: {
        incidents: [
          { summary: `${stuffing.tracking_id}: Credential stuffing against the admin portal`, occurredAt: '2026-08-20T12:00:00Z', incidentLessonsLearned: [] },
          {
            summary: `${backup.tracking_id}: Misrouted backup`,
            occurredAt: '2026-11-10T12:00:00Z',
            resolvedAt: '2026-11-12T09:00:00Z',
            incidentLessonsLearned: ['tag backup buckets', 'alert on cross-account copies'],
          },
        ],
      },
    });
    expect(d.writer.files.get('/out/ocr.md')).toContain(
      [
        '## Reportable incidents',
        '',
        `- ${stuffing.tracking_id}: Credential stuffing against the admin portal: occurred 2026-08-20T12:00:00Z, not resolved`,
        `- ${backup.tracking_id}: Misrouted backup: occurred 2026-11-10T12:00:00Z, resolved 2026-11-12T09:00:00Z`,
        '  - Lesson learned: tag backup buckets',
        '  - Lesson learned: alert on cross-account copies',
      ].join('\n'),
    );
  });

  it('writes the OCR of an empty store: no change, none accepted, no incident (the attestation), nothing frozen but the journal', async () => {
    const d = await ocr({ runs: false, profile: { ...PROFILE, agencies: undefined, planned_changes: undefined, recommendations: undefined } });
    const result = await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    expect(result.recorded).toEqual({ seq: 1, snapshot: { journal_seq: 0 } });
    expect(result.counts).toEqual({ certification_data_changes: 0, planned_changes: 0, transformative_changes: 0, incidents: 0, accepted_vulnerabilities: 0 });
    expect(JSON.parse(d.writer.files.get('/out/ocr.json')!)).toEqual({
      certificationPackageOverviewUri: PACKAGE_URI,
      reportPeriod: { from: '2026-08-31', to: '2026-11-30' },
      certificationDataChanges: [],
      plannedCertificationDataChanges: { planningHorizonThrough: '2027-02-28', changes: [] },
      acceptedVulnerabilities: `No accepted vulnerabilities; the Accepted Vulnerability Info (VER-RPT-AVI) is at ${AVI}.`,
      transformativeChanges: [],
      updatedRecommendations: [],
      activeAgencies: [],
      reportableIncidents: { incidents: [] },
    });
    expect(d.writer.files.get('/out/ocr.md')).toContain('- Active agencies: none listed (fedramp.agencies)\n');
  });

  it('takes --type and --class where the profile gives none', async () => {
    const d = await ocr({ profile: { ...PROFILE, type: undefined, class: undefined } });
    const result = await d.write({ to: '2026-11-30', type: '20x', class: 'B', draft: true, out: '/out/ocr.json' });
    expect(JSON.parse(d.writer.files.get('/out/ocr.json')!)).toEqual(DOCUMENT);
    expect(result.counts.accepted_vulnerabilities).toBe(1);
  });

  it('writes and records it unvalidated, saying why, when no FedRAMP schemas are found and none were named', async () => {
    const d = await ocr({ schemas: new NoFedrampSchemas() });
    const result = await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    expect(result.validated).toEqual({ note: 'the OCR was not validated: FedRAMP schemas not found' });
    expect(result.recorded).toEqual({ seq: 2, snapshot: { run_seq: 2, journal_seq: 1 } });
    expect(d.schemas.validated).toEqual([]);
  });

  // Found by this suite (issue 36): the daily picture held only the 365 days before --now, so an OCR whose period
  // reaches further back (the default --from is the day after the last recorded OCR) listed none of the older changes.
  it('lists every status change of a period that began more than a year before --now (an OCR written late)', async () => {
    const d = await ocr();
    await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
    await d.conmon('/r/december.json', '2026-12-05T09:00:00Z');
    const result = await d.write({ now: at('2028-01-15T00:00:00Z'), draft: true, out: '/out/late.json' });
    expect(result.period).toEqual({ from: '2026-12-01', to: '2028-01-15' });
    expect(JSON.parse(d.writer.files.get('/out/late.json')!).certificationDataChanges).toEqual(['KSI-IAM-APM: Not Implemented → Implemented on 2026-12-05']);
  });

  // Found by this suite (issue 36): buildOcr kept only SCNs with a start or a finish, so a transformative change
  // notified without dates (its notices undated) was in no OCR at all.
  it('lists a transformative SCN recorded without dates in the period it was recorded in', async () => {
    const d = await ocr();
    await d.scn({ type: 'transformative', summary: 'Move to a new identity provider', dates: {}, now: at('2026-11-04T00:00:00Z') });
    const result = await d.write({ to: '2026-11-30', draft: true, out: '/out/ocr.json' });
    expect(result.counts.transformative_changes).toBe(1);
  });

  describe('refuses before anything is written or recorded', () => {
    it.each<[string, WriteOcrInput, string, string]>([
      [
        'a period whose start is after its end',
        { from: '2026-12-01', to: '2026-11-30' },
        'bad-period',
        "--from 2026-12-01 is after --to 2026-11-30; give the period's start first",
      ],
      [
        'a profile without a type',
        { type: undefined },
        'invalid-config',
        `${CONFIG}: fedramp.type: missing; svc fedramp ocr needs it: write "20x" or "rev5", or pass --type; see docs/configuration.md`,
      ],
    ])('%s', async (_what, input, code, message) => {
      const d = await ocr({ profile: { ...PROFILE, type: undefined } });
      await expect(d.write({ type: '20x', ...input, out: '/out/ocr.json' })).rejects.toMatchObject({ code, message });
      expect(d.writer.files.size).toBe(0);
      expect((await d.store.journal()).map((e) => e.kind)).toEqual(['vulnerability-evaluation']);
    });

    it.each<[string, Partial<FedrampProfile>, string]>([
      [
        'class',
        { class: undefined },
        `${CONFIG}: fedramp.class: missing; svc fedramp ocr needs it: write A, B, C or D, or pass --class; see docs/configuration.md`,
      ],
      [
        'package_uri',
        { package_uri: undefined },
        `${CONFIG}: fedramp.package_uri: missing; svc fedramp ocr needs it: write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md`,
      ],
    ])('a profile without %s, naming the key and the file', async (_key, change, message) => {
      const d = await ocr({ profile: { ...PROFILE, ...change } });
      await expect(d.write({ to: '2026-11-30', out: '/out/ocr.json' })).rejects.toMatchObject({ code: 'invalid-config', message });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toHaveLength(1);
    });

    it('a --to before the day after the last recorded period, naming where that one ended', async () => {
      const d = await ocr();
      await d.write({ to: '2026-11-30', out: '/out/ocr.json' });
      d.writer.files.clear();
      await expect(d.write({ to: '2026-11-15', out: '/out/again.json' })).rejects.toMatchObject({
        code: 'bad-period',
        message: "--from 2026-12-01 is after --to 2026-11-15; give the period's start first (the last recorded OCR ended 2026-11-30)",
      });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toHaveLength(2);
    });

    it("an OCR FedRAMP's schema rejects: svc's bug, an internal error naming the file", async () => {
      const d = await ocr({
        schemas: new OcrSchemas([{ layer: 'fedramp', rule: 'required', path: '$.reportableIncidents', message: "must have required property 'incidents'" }]),
      });
      const refused = d.write({ to: '2026-11-30', out: '/out/ocr.json' });
      await expect(refused).rejects.toThrow(
        "ocr.json: $.reportableIncidents: must have required property 'incidents': svc built a document FedRAMP's schema rejects, and wrote nothing",
      );
      await expect(refused).rejects.not.toHaveProperty('code');
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toHaveLength(1);
    });

    it('--schemas naming a directory without FedRAMP schemas', async () => {
      const d = await ocr({ schemas: new NoFedrampSchemas() });
      await expect(d.write({ to: '2026-11-30', schemas: '/nowhere', out: '/out/ocr.json' })).rejects.toMatchObject({
        code: 'fedramp-schemas-missing',
        message: 'FedRAMP schemas not found in /nowhere',
      });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toHaveLength(1);
    });

    it('an output that cannot be written: the OCR is not recorded either', async () => {
      const d = await ocr();
      d.writer.failWriting = 'ocr.md';
      await expect(d.write({ to: '2026-11-30', out: '/out/ocr.json' })).rejects.toThrow('injected failure writing ocr.md');
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toHaveLength(1);
    });

    it('a journal that no longer verifies', async () => {
      const d = await ocr();
      (d.store.shared.journal[0].record as Record<string, unknown>).reason = 'edited';
      await expect(d.write({ to: '2026-11-30', out: '/out/ocr.json' })).rejects.toMatchObject({ code: 'run-store-tampered' });
      expect(d.writer.files.size).toBe(0);
      expect(d.store.shared.journal).toHaveLength(1);
    });

    it('a run store whose runs no longer verify', async () => {
      const d = await ocr();
      d.store.shared.runs[1].run.summary.as_of = '2026-11-01T08:00:00Z';
      await expect(d.write({ to: '2026-11-30', out: '/out/ocr.json' })).rejects.toMatchObject({ code: 'run-store-tampered' });
      expect(d.writer.files.size).toBe(0);
      expect(d.store.shared.journal).toHaveLength(1);
    });
  });
});
