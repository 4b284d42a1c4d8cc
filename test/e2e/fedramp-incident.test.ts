import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEDRAMP_SCHEMAS, fedrampSchemaErrors, judgedBy } from '../support/fedramp-schemas';
import { svc, type SvcRun } from '../support/run-svc';
import { SAMPLE_DETECTIONS, trackingIdOf, vulnerabilityReport, writeVulnerabilityConfig } from '../support/vulnerabilities';

let work: string;
const at = (name: string) => join(work, name);
const run = (args: string[]): SvcRun => svc(['fedramp', 'incident', ...args], { cwd: work, env: { SVC_HOME: join(work, '.svc') } });
const read = (name: string) => JSON.parse(readFileSync(at(name), 'utf8'));
const sha256Of = (name: string) =>
  createHash('sha256')
    .update(readFileSync(at(name)))
    .digest('hex');

const { API, DB, MFA } = SAMPLE_DETECTIONS;
const API_GROUP = trackingIdOf('CVE-2026-1000');
/** The tracking id svc derives for the incident CVE-2026-1000's group is: INC- and 16 hex digits of its group's id. */
const INCIDENT = `INC-${createHash('sha256').update(API_GROUP).digest('hex').slice(0, 16)}`;

/** A refused command: its exit code and one-line stderr, nothing on stdout, and `out` (when named) not written. */
function refused(r: SvcRun, out?: string) {
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, written: out === undefined ? false : existsSync(at(out)) };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-incident-'));
  mkdirSync(join(work, 'r'));
  // The vuln tests' Class D offering, validated against FedRAMP's schemas, with one customer agency.
  writeVulnerabilityConfig(work);
  const config = JSON.parse(readFileSync(at('svc.config.json'), 'utf8'));
  config.fedramp_schemas = FEDRAMP_SCHEMAS;
  config.fedramp.agencies = [{ name: 'Department of Examples' }];
  writeFileSync(at('svc.config.json'), JSON.stringify(config));
  writeFileSync(at('r/1.json'), JSON.stringify(vulnerabilityReport('2026-12-07T00:00:00Z', [API, DB, MFA])));
  expect(svc(['conmon', 'process', 'r/1.json'], { cwd: work, env: { SVC_HOME: join(work, '.svc') } }).status).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('svc fedramp incident (DESIGN §12.5, IEC-CSO-IIR/OIR/FIR)', () => {
  it('drafts the initial report from the group VER-TFR-IRI flags (N5, IRV+LEV by policy), due 15 minutes after it was flagged (Class D), and records it', () => {
    const r = run(['--type', 'initial', '--group', 'CVE-2026-1000', '--now', '2026-12-07T00:10:00Z', '--out', 'incident.json']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        `Incident report (initial) written to incident.json (sha256:${sha256Of('incident.json')})`,
        'Markdown twin written to incident.md',
        `Tracking id: ${INCIDENT}`,
        'Due: 2026-12-07T00:15:00Z (IEC-CSO-IIR, Class D, N5: 15 minutes)',
        'Recorded as journal entry 1',
        '',
      ].join('\n'),
    );
    const doc = read('incident.json');
    expect(fedrampSchemaErrors('incident', doc)).toEqual([]);
    expect(doc).toMatchObject({
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      reportType: 'Initial',
      providerTrackingId: INCIDENT,
      incidentDescription:
        'CVE-2026-1000: CVE-2026-1000 found on api.example.com; a FedRAMP reportable incident under VER-TFR-IRI (internet-reachable, likely exploitable, N5)',
      timeline: { detectedAt: '2026-12-07T00:00:00Z', detectionSource: 'Trivy', evaluationCompletedAt: '2026-12-07T00:00:00Z' },
      potentialImpact: expect.stringMatching(
        /^Potential Agency Impact N-rating \(PAIN\): N5\. Evaluation: N5 by policy:[0-9a-f]{12} at 2026-12-07T00:00:00Z: /,
      ),
      recoveryPlan: 'Mitigate or remediate CVE-2026-1000 by 2026-12-07T12:00:00Z (VDR-TFR-PVR, N5).',
      affectedAgencies: ['Department of Examples'],
      relatedCveIds: ['CVE-2026-1000'],
    });
    expect(doc).not.toHaveProperty('resolvedAt');
    const md = readFileSync(at('incident.md'), 'utf8');
    expect(md.split('\n')[0]).toBe('# Initial Incident Report');
    expect(md).toContain('| Due | 2026-12-07T00:15:00Z (IEC-CSO-IIR, Class D, N5: 15 minutes, from 2026-12-07T00:00:00Z) |');
  });

  it('refuses a second initial report of the same incident', () => {
    const r = run(['--type', 'initial', '--group', 'CVE-2026-1000', '--now', '2026-12-07T00:20:00Z', '--out', 'again.json']);
    expect(refused(r, 'again.json')).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${INCIDENT}: an initial report of this incident is recorded already (journal entry 1 at 2026-12-07T00:10:00Z); write --type ongoing or final, or pass another --tracking-id for a new incident\n`,
      written: false,
    });
  });

  it('writes an ongoing report with the same tracking id, due 3 hours after the last report (Class D, N5)', () => {
    const r = run(['--type', 'ongoing', '--tracking-id', INCIDENT, '--now', '2026-12-07T02:00:00Z', '--out', 'ongoing.json', '--json']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({
      report_type: 'ongoing',
      rule: 'IEC-CSO-OIR',
      tracking_id: INCIDENT,
      group: { id: API_GROUP, finding_id: 'CVE-2026-1000' },
      due: {
        at: '2026-12-07T03:10:00Z',
        rule: 'IEC-CSO-OIR',
        class: 'D',
        n: 5,
        timeframe: { unit: 'hours', num: 3, text: '3 hours' },
        from: '2026-12-07T00:10:00Z',
        counted_from: 'last-report',
        late: false,
      },
      written_at: '2026-12-07T02:00:00Z',
      out: 'ongoing.json',
      sha256: `sha256:${sha256Of('ongoing.json')}`,
      twin: 'ongoing.md',
      recorded: true,
      journal_seq: 2,
      validation: { validated: true, schema: 'fedramp-incident-report-schema-2026-06-24.json', judged_by: judgedBy(FEDRAMP_SCHEMAS, 'incident') },
    });
    const doc = read('ongoing.json');
    expect(fedrampSchemaErrors('incident', doc)).toEqual([]);
    expect([doc.reportType, doc.providerTrackingId, doc.observedActivity]).toEqual([
      'Ongoing',
      INCIDENT,
      'CVE-2026-1000 (CVE-2026-1000 found) detected by Trivy on 1 resource: api.example.com; first detected 2026-12-07T00:00:00Z, last seen 2026-12-07T00:00:00Z (1 detection).',
    ]);
    expect(doc.timeline.milestones).toContainEqual({
      occurredAt: '2026-12-07T00:10:00Z',
      milestoneDescription: 'Initial Incident Report recorded (IEC-CSO-IIR, journal entry 1)',
    });
  });

  it('refuses a final report without --resolved-at, writing nothing', () => {
    const r = run(['--type', 'final', '--tracking-id', INCIDENT, '--now', '2026-12-07T06:00:00Z', '--out', 'final.json']);
    expect(refused(r, 'final.json')).toEqual({
      status: 2,
      stdout: '',
      stderr: 'Error: --type final needs --resolved-at: a Final Incident Report says when the incident was resolved and recovery completed (IEC-CSO-FIR)\n',
      written: false,
    });
  });

  it('writes the final report from the group with resolvedAt and lessons learned, due 3 hours after resolution, and records it', () => {
    const r = run([
      '--type',
      'final',
      '--group',
      'CVE-2026-1000',
      '--resolved-at',
      '2026-12-07T05:00:00Z',
      '--lesson',
      'page the on-call for KEV entries',
      '--now',
      '2026-12-07T06:00:00Z',
      '--out',
      'final.json',
    ]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n').slice(2)).toEqual([
      `Tracking id: ${INCIDENT}`,
      'Due: 2026-12-07T08:00:00Z (IEC-CSO-FIR, Class D, N5: 3 hours)',
      'Recorded as journal entry 3',
      '',
    ]);
    const doc = read('final.json');
    expect(fedrampSchemaErrors('incident', doc)).toEqual([]);
    expect(doc).toMatchObject({
      reportType: 'Final',
      providerTrackingId: INCIDENT,
      resolvedAt: '2026-12-07T05:00:00Z',
      responseAndRecoveryActivities: 'Lessons learned: page the on-call for KEV entries.',
      affectedAgencies: ['Department of Examples'],
    });
    // Recorded: the incident is closed, so a further report of it is refused.
    const after = run(['--type', 'ongoing', '--tracking-id', INCIDENT, '--now', '2026-12-07T07:00:00Z']);
    expect(refused(after)).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${INCIDENT}: this incident's final report is recorded (journal entry 3 at 2026-12-07T06:00:00Z); a new incident needs its own --tracking-id\n`,
      written: false,
    });
  });

  it('drafts a report from flags alone without recording it: printed on stdout, what svc says of it on stderr', () => {
    const r = run([
      '--type',
      'initial',
      '--summary',
      'Credential stuffing against the admin portal',
      '--n',
      'N4',
      '--occurred-at',
      '2026-12-07T01:00:00Z',
      '--draft',
      '--now',
      '2026-12-07T02:00:00Z',
    ]);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(fedrampSchemaErrors('incident', doc)).toEqual([]);
    expect(doc).toEqual({
      certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
      reportType: 'Initial',
      providerTrackingId: expect.stringMatching(/^INC-[0-9a-f]{16}$/),
      incidentDescription: 'Credential stuffing against the admin portal',
      timeline: { startedAt: '2026-12-07T01:00:00Z' },
      potentialImpact: 'Potential Agency Impact N-rating (PAIN): N4. Evaluation: Estimated by the provider (IEC-CSO-EFI).',
      affectedAgencies: ['Department of Examples'],
    });
    expect(r.stderr).toBe(
      [
        `Tracking id: ${doc.providerTrackingId}`,
        'Due: 2026-12-07T01:15:00Z (IEC-CSO-IIR, Class D, N4: 15 minutes)',
        'Late: written at 2026-12-07T02:00:00Z, after its due time',
        'Draft: not recorded',
        '',
      ].join('\n'),
    );
    // Not recorded: an ongoing report of it has no initial report to follow.
    const ongoing = run(['--type', 'ongoing', '--tracking-id', doc.providerTrackingId, '--now', '2026-12-07T03:00:00Z', '--out', 'draft-ongoing.json']);
    expect(refused(ongoing, 'draft-ongoing.json')).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${doc.providerTrackingId}: no initial report of this incident is recorded in ${join(work, '.svc', 'store')}; write --type initial first (without --draft), or pass the tracking id its initial report printed\n`,
      written: false,
    });
  });

  it('counts business days past US federal holidays: Class B, N1, from the Wednesday before Thanksgiving 2026 to Friday', () => {
    const r = run([
      '--type',
      'initial',
      '--summary',
      'Misrouted backup',
      '--n',
      '1',
      '--occurred-at',
      '2026-11-25T15:00:00Z',
      '--class',
      'B',
      '--draft',
      '--now',
      '2026-11-25T16:00:00Z',
      '--json',
    ]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).due).toEqual({
      at: '2026-11-27T15:00:00Z',
      rule: 'IEC-CSO-IIR',
      class: 'B',
      n: 1,
      timeframe: { unit: 'bizdays', num: 1, text: '1 business day' },
      from: '2026-11-25T15:00:00Z',
      counted_from: 'occurred',
      late: false,
    });
  });

  it.each([
    [
      'a group no rule flags as an incident',
      ['--type', 'initial', '--group', 'CVE-2026-2000', '--now', '2026-12-07T00:10:00Z', '--out', 'bad.json'],
      3,
      `${trackingIdOf('CVE-2026-2000')} (CVE-2026-2000): not a reportable incident at 2026-12-07T00:10:00Z (evaluated, N4, not internet-reachable, not likely exploitable; VER-TFR-IRI and VER-TFR-NRI do not flag it); record the evaluation that makes it one (svc vuln evaluate), or report it from flags without --group`,
    ],
    [
      'an unknown group',
      ['--type', 'initial', '--group', 'CVE-2099-0001', '--now', '2026-12-07T00:10:00Z', '--out', 'bad.json'],
      3,
      `CVE-2099-0001: no vulnerability group of that tracking id or finding id in run 1 of STORE; svc vuln list names them`,
    ],
    [
      'an N-rating that is none',
      ['--type', 'initial', '--group', 'CVE-2026-1000', '--n', '6', '--out', 'bad.json'],
      2,
      '--n 6: not an N-rating; write 1 to 5 or N1 to N5',
    ],
    [
      'flags alone without --summary',
      ['--type', 'initial', '--n', '4', '--occurred-at', '2026-12-07T01:00:00Z', '--now', '2026-12-07T02:00:00Z', '--out', 'bad.json'],
      2,
      '--type initial without --group needs --summary, --n and --occurred-at (missing --summary; --n 5 when the PAIN is not estimated, IEC-CSO-DPR); or draft it from a flagged vulnerability group with --group',
    ],
    [
      'an ongoing report naming no incident',
      ['--type', 'ongoing', '--now', '2026-12-07T02:00:00Z', '--out', 'bad.json'],
      2,
      "--type ongoing needs --tracking-id (the one the incident's initial report printed) or --group (the vulnerability group it was reported from)",
    ],
    [
      'a final report of an incident never reported',
      [
        '--type',
        'final',
        '--tracking-id',
        'INC-0000000000000000',
        '--resolved-at',
        '2026-12-07T01:00:00Z',
        '--now',
        '2026-12-07T02:00:00Z',
        '--out',
        'bad.json',
      ],
      3,
      'INC-0000000000000000: no initial report of this incident is recorded in STORE; write --type initial first (without --draft), or pass the tracking id its initial report printed',
    ],
    [
      '--resolved-at on an initial report',
      ['--type', 'initial', '--group', 'CVE-2026-1000', '--resolved-at', '2026-12-07T01:00:00Z', '--now', '2026-12-07T02:00:00Z', '--out', 'bad.json'],
      2,
      '--resolved-at is for --type final: an incident still being reported (--type initial) is not resolved',
    ],
    [
      'a start after --now',
      ['--type', 'initial', '--summary', 'x', '--n', '3', '--occurred-at', '2026-12-08T00:00:00Z', '--now', '2026-12-07T02:00:00Z', '--out', 'bad.json'],
      2,
      '--occurred-at 2026-12-08T00:00:00Z is after --now 2026-12-07T02:00:00Z; an incident report tells what has happened',
    ],
    [
      'a report type that is none',
      ['--type', 'weekly', '--out', 'bad.json'],
      2,
      'Expected --type=weekly to be one of: initial, ongoing, final\nSee more help with --help',
    ],
  ])('refuses %s, writing and recording nothing', (_what, args, status, message) => {
    const r = run(args as string[]);
    expect(refused(r, 'bad.json')).toEqual({
      status,
      stdout: '',
      stderr: `Error: ${(message as string).replace('STORE', join(work, '.svc', 'store'))}\n`,
      written: false,
    });
  });

  it('recorded exactly the three reports of the incident: a further initial from flags gets journal entry 4', () => {
    const r = run([
      '--type',
      'initial',
      '--summary',
      'Credential stuffing against the admin portal',
      '--n',
      '4',
      '--occurred-at',
      '2026-12-07T01:00:00Z',
      '--agency',
      'Department of Examples',
      '--now',
      '2026-12-07T02:00:00Z',
      '--json',
    ]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.recorded, out.journal_seq, out.document.affectedAgencies]).toEqual([true, 4, ['Department of Examples']]);
  });

  describe('--agency names an agency of fedramp.agencies, exactly', () => {
    const config = () => join(work, 'svc.config.json');
    const flags = [
      '--type',
      'initial',
      '--summary',
      'Phishing of the helpdesk',
      '--n',
      '3',
      '--occurred-at',
      '2026-12-07T01:00:00Z',
      '--now',
      '2026-12-07T02:00:00Z',
      '--out',
      'bad.json',
    ];
    it.each([
      [
        'an unknown agency',
        ['--agency', 'Department of Nothing'],
        3,
        () =>
          `--agency "Department of Nothing": not an agency of fedramp.agencies in ${config()}; write one of "Department of Examples", or add the agency there`,
      ],
      [
        'a wrongly cased one',
        ['--agency', 'Department of Examples', '--agency', 'department of examples'],
        3,
        () =>
          `--agency "department of examples": not an agency of fedramp.agencies in ${config()} (which writes it "Department of Examples": names match exactly); write one of "Department of Examples", or add the agency there`,
      ],
      ['an empty one', ['--agency', ' '], 2, () => `--agency is empty; write the name of an agency of fedramp.agencies in ${config()}`],
      [
        'an empty --lesson',
        ['--agency', 'Department of Examples', '--lesson', ''],
        2,
        () => '--lesson is empty; write the lesson learned, or leave the flag out',
      ],
    ])('refuses %s in one line naming the flag and the configured agencies, writing and recording nothing', (_what, extra, status, message) => {
      const entries = readFileSync(join(work, '.svc', 'store', 'journal.ndjson'), 'utf8');
      expect(refused(run([...flags, ...(extra as string[])]), 'bad.json')).toEqual({
        status,
        stdout: '',
        stderr: `Error: ${(message as () => string)()}\n`,
        written: false,
      });
      expect(readFileSync(join(work, '.svc', 'store', 'journal.ndjson'), 'utf8')).toBe(entries);
    });
  });
});
