import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import rulesData from '../../src/domain/fedramp/data/cr26-rules.json';
import { fedrampSchemaErrors, FEDRAMP_SCHEMAS, judgedBy } from '../support/fedramp-schemas';
import { FIXTURES, svc, type SvcRun } from '../support/run-svc';

const NOW = '2026-11-25T00:00:00Z';
const PROFILE = { type: '20x', class: 'B', fedramp_id: 'FR2611250001', package_uri: 'https://trust.example.com/fedramp/cpo.json' };
/** A notice rule's number as the checked-in rules file gives it: the test does not retype it. */
const num = (id: string): number => (rulesData.rules as { id: string; timeframe?: { num?: number } }[]).find((r) => r.id === id)!.timeframe!.num!;
const days = (id: string, words: string) => `${num(id)} business days ${words}`;

let tmp: string;
let work: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-fedramp-scn-'));
  work = join(tmp, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** svc in `dir` (the work directory unless told), with its own svc home (the run store) and cache. */
function inDir(args: string[], dir = work): SvcRun {
  return svc(args, { cwd: dir, env: { SVC_HOME: join(dir, '.svc'), SVC_CACHE_DIR: join(tmp, 'cache') } });
}
const scn = (...args: string[]) => inDir(['fedramp', 'scn', '--now', NOW, ...args]);
const at = (...parts: string[]) => join(work, ...parts);
const read = (...parts: string[]) => JSON.parse(readFileSync(at(...parts), 'utf8'));
const sha256 = (...parts: string[]) =>
  createHash('sha256')
    .update(readFileSync(at(...parts)))
    .digest('hex');
/** RFC 8785 for what an SCN holds (strings, integers, arrays, objects): members sorted, no white space. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);
/** The journal's entries as the file store keeps them (one JSON object per line). */
const journal = (): { seq: number; kind: string; recorded_at: string; record: Record<string, unknown> }[] =>
  existsSync(at('.svc', 'store', 'journal.ndjson'))
    ? readFileSync(at('.svc', 'store', 'journal.ndjson'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l))
    : [];

describe('svc fedramp scn', () => {
  describe('a transformative change with every day given', () => {
    let run: SvcRun;
    beforeAll(() => {
      run = scn(
        '--type',
        'transformative',
        '--summary',
        'Move the workloads to Kubernetes',
        '--start',
        '2027-01-04',
        '--finish',
        '2027-01-14',
        '--verified',
        '2027-02-09',
        '--out',
        'scn.json',
        '--reason',
        'Scale',
        '--explanation',
        'A paradigm shift in workload orchestration',
      );
    });

    it('says where it wrote the SCN and its twin, every notice day counted in business days over the holidays, and the journal entry', () => {
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout.split('\n')).toEqual([
        `SCN (transformative) written to scn.json (sha256:${sha256('scn.json')})`,
        'Markdown twin written to scn.md',
        // Back from Monday 2027-01-04 over New Year, Christmas and Thanksgiving: already passed at --now.
        `- initial plans (SCN-TRF-NIP): by 2026-11-18 (${days('SCN-TRF-NIP', 'before the start 2027-01-04')}), already passed`,
        `- final plans (SCN-TRF-NFP): by 2026-12-17 (${days('SCN-TRF-NFP', 'before the start 2027-01-04')})`,
        // On from Thursday 2027-01-14 over Martin Luther King Jr. Day, and from 2027-02-09 over Washington's Birthday.
        `- after finishing (SCN-TRF-NAF): by 2027-01-22 (${days('SCN-TRF-NAF', 'after the finish 2027-01-14')})`,
        `- after verification (SCN-TRF-NAV): by 2027-02-17 (${days('SCN-TRF-NAV', 'after the verification 2027-02-09')})`,
        'Recorded as journal entry 1',
        '',
      ]);
    });

    it("writes an SCN FedRAMP's schema accepts (an independent validator), in canonical JSON, with every field it can fill", () => {
      const doc = read('scn.json');
      expect(fedrampSchemaErrors('scn', doc)).toEqual([]);
      expect(readFileSync(at('scn.json'), 'utf8')).toBe(canonical(doc));
      expect(doc).toEqual({
        certificationPackageOverviewUri: PROFILE.package_uri,
        changeType: 'Transformative',
        changeTypeExplanation: 'A paradigm shift in workload orchestration',
        changeDescription: 'Move the workloads to Kubernetes',
        reason: 'Scale',
        planAndTimeline: {
          summary: expect.stringContaining(`- initial plans (SCN-TRF-NIP): by 2026-11-18, ${days('SCN-TRF-NIP', 'before the start 2027-01-04')}`),
          plannedStart: '2027-01-04',
          plannedCompletion: '2027-01-14',
          milestones: [
            {
              milestoneDescription: `Notify all necessary parties: initial plans (SCN-TRF-NIP), ${days('SCN-TRF-NIP', 'before the start 2027-01-04')}`,
              targetDate: '2026-11-18',
            },
            {
              milestoneDescription: `Notify all necessary parties: final plans (SCN-TRF-NFP), ${days('SCN-TRF-NFP', 'before the start 2027-01-04')}`,
              targetDate: '2026-12-17',
            },
            { milestoneDescription: 'The change starts', targetDate: '2027-01-04' },
            { milestoneDescription: 'The change is finished', targetDate: '2027-01-14' },
            {
              milestoneDescription: `Notify all necessary parties: after finishing (SCN-TRF-NAF), ${days('SCN-TRF-NAF', 'after the finish 2027-01-14')}`,
              targetDate: '2027-01-22',
            },
            { milestoneDescription: 'Verification, assessment and/or validation of the change is complete', targetDate: '2027-02-09' },
            {
              milestoneDescription: `Notify all necessary parties: after verification (SCN-TRF-NAV), ${days('SCN-TRF-NAV', 'after the verification 2027-02-09')}`,
              targetDate: '2027-02-17',
            },
          ],
        },
      });
    });

    it('writes the Markdown twin under the twin header', () => {
      const md = readFileSync(at('scn.md'), 'utf8').split('\n');
      expect(md.slice(0, 13)).toEqual([
        '# Significant Change Notification',
        '',
        `- FedRAMP ID: ${PROFILE.fedramp_id}`,
        `- Certification Package Overview: ${PROFILE.package_uri}`,
        '- Rules: FedRAMP Consolidated Rules 2026.10.05.01',
        expect.stringMatching(/^- Generated: 2026-11-25T00:00:00Z by svc \d+\.\d+\.\d+$/),
        '- Machine-readable twin: scn.json (written from the same model)',
        '',
        '- Change type: Transformative',
        '- Description: Move the workloads to Kubernetes',
        '- Why this type: A paradigm shift in workload orchestration',
        '- Reason: Scale',
        '- Planned start: 2027-01-04',
      ]);
      expect(md).toContain(
        `| 2027-02-17 | Notify all necessary parties: after verification (SCN-TRF-NAV), ${days('SCN-TRF-NAV', 'after the verification 2027-02-09')} |`,
      );
    });

    it('records the SCN in the journal with its days, notices and the document as written', () => {
      const [entry] = journal();
      expect(entry).toMatchObject({ seq: 1, kind: 'fedramp-scn', recorded_at: NOW });
      expect(entry.record).toEqual({
        type: 'transformative',
        summary: 'Move the workloads to Kubernetes',
        start: '2027-01-04',
        finish: '2027-01-14',
        verified: '2027-02-09',
        notices: [
          { rule: 'SCN-TRF-NIP', notice: 'initial plans', due: '2026-11-18T23:59:59Z' },
          { rule: 'SCN-TRF-NFP', notice: 'final plans', due: '2026-12-17T23:59:59Z' },
          { rule: 'SCN-TRF-NAF', notice: 'after finishing', due: '2027-01-22T23:59:59Z' },
          { rule: 'SCN-TRF-NAV', notice: 'after verification', due: '2027-02-17T23:59:59Z' },
        ],
        ksis: [],
        controls: [],
        document: read('scn.json'),
      });
    });
  });

  describe('an adaptive change with a drift report of svc ir drift-detect', () => {
    /** The CR26 KSIs whose controls meet those of the drifted catalog KSIs, KSI-AC-02 (ac-2) and KSI-SC-08 (sc-8). */
    const CR26_KSIS = [
      'KSI-CNA-MAT',
      'KSI-CNA-ULN',
      'KSI-IAM-AAM',
      'KSI-IAM-APM',
      'KSI-IAM-ELP',
      'KSI-IAM-JIT',
      'KSI-IAM-SNU',
      'KSI-IAM-SUS',
      'KSI-MLA-LET',
      'KSI-MLA-RVL',
      'KSI-SVC-ACM',
      'KSI-SVC-SIN',
    ];
    let run: SvcRun;
    beforeAll(() => {
      const drift = inDir(['ir', 'drift-detect', join(FIXTURES, 'sample-baseline-b.json'), join(FIXTURES, 'sample-baseline.json'), '--json']);
      expect(drift.status).toBe(0);
      writeFileSync(at('drift.json'), drift.stdout);
      run = scn(
        ...['--type', 'adaptive', '--summary', 'New MFA provider', '--finish', '2026-12-18', '--drift', 'drift.json', '--out', 'adaptive/scn.json'],
        ...[
          '--customer-impact',
          'Users enroll their MFA devices again',
          '--impact-analysis',
          'https://trust.example.com/sia/mfa.pdf',
          '--assessor',
          'Example 3PAO',
          '--vulnerability',
          'CVE-2026-0001',
        ],
      );
    });

    it('dates its one notice over Christmas and New Year, and names the KSIs and controls the drift touches', () => {
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout.split('\n')).toEqual([
        `SCN (adaptive) written to adaptive/scn.json (sha256:${sha256('adaptive', 'scn.json')})`,
        'Markdown twin written to adaptive/scn.md',
        `- after finishing (SCN-ADP-NTF): by 2027-01-05 (${days('SCN-ADP-NTF', 'after the finish 2026-12-18')})`,
        // svc's catalog KSIs KSI-AC-02 and KSI-SC-08 as the CR26 KSIs that share a control with them.
        `Drift: drift.json (svc ir drift-detect, 2 changes): KSIs ${CR26_KSIS.join(', ')}; 12 controls`,
        'Recorded as journal entry 2',
        '',
      ]);
    });

    it('puts the CR26 KSIs and the controls in impactedControls, controls as FedRAMP writes them, and the drift in the impact analysis', () => {
      const doc = read('adaptive', 'scn.json');
      expect(fedrampSchemaErrors('scn', doc)).toEqual([]);
      expect(doc).toMatchObject({
        changeType: 'Adaptive',
        customerImpact: 'Users enroll their MFA devices again',
        assessorName: 'Example 3PAO',
        relatedVulnerability: 'CVE-2026-0001',
      });
      expect(doc.impactedControls).toEqual([
        ...CR26_KSIS,
        ...['AC-02', 'AC-02 (01)', 'AC-02 (02)', 'AC-02 (03)', 'AC-02 (04)', 'AC-02 (05)', 'AC-02 (07)', 'AC-02 (09)', 'AC-02 (12)', 'AC-02 (13)'],
        'SC-08',
        'SC-08 (01)',
      ]);
      expect(doc.impactAnalysis).toBe(
        `https://trust.example.com/sia/mfa.pdf\n\nDrift from sample-baseline-b.json to sample-baseline.json (svc ir drift-detect, drift.json): 2 changes (P1 1, P2 0, P3 1, P4 0) on ${CR26_KSIS.join(', ')}: 12 NIST SP 800-53 controls to verify (impactedControls).`,
      );
      expect(journal()[1].record).toMatchObject({
        type: 'adaptive',
        finish: '2026-12-18',
        ksis: CR26_KSIS,
        controls: expect.arrayContaining(['ac-2', 'ac-2.1', 'sc-8', 'sc-8.1']),
      });
    });
  });

  it('reads a drift report of svc substrate drift: it names resources, not KSIs', () => {
    const before = join(tmp, 'tree-a');
    const after = join(tmp, 'tree-b');
    cpSync(join(FIXTURES, 'substrate', 'tree-a'), before, { recursive: true });
    cpSync(join(FIXTURES, 'substrate', 'tree-a'), after, { recursive: true });
    const state = join(after, 'terraform', 'terraform.tfstate');
    writeFileSync(state, readFileSync(state, 'utf8').replace('"max_session_duration": 3600', '"max_session_duration": 43200'));
    const drift = inDir(['substrate', 'drift', before, after, '--json']);
    expect(drift.status).toBe(0);
    writeFileSync(at('substrate-drift.json'), drift.stdout);
    const run = scn('--type', 'adaptive', '--summary', 'Longer admin sessions', '--drift', 'substrate-drift.json', '--out', 'substrate/scn.json', '--draft');
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout.split('\n').slice(2)).toEqual([
      'Not dated: after finishing (SCN-ADP-NTF): give --finish',
      'Drift: substrate-drift.json (svc substrate drift, 1 change): no KSIs or controls (a substrate report names configuration resources)',
      'Draft: not recorded',
      '',
    ]);
    const doc = read('substrate', 'scn.json');
    expect(fedrampSchemaErrors('scn', doc)).toEqual([]);
    expect(doc.impactedControls).toBeUndefined();
    expect(doc.impactAnalysis).toMatch(
      /^Drift from tree-a to tree-b \(svc substrate drift, substrate-drift\.json\): 1 change \(P1 0, P2 1, P3 0, P4 0\) to terraform:\S+\. A substrate report names configuration resources, not KSIs or controls\.$/,
    );
  });

  describe('--draft', () => {
    it('writes the SCN (to scn-<date of --now>.json by default) and its twin marked as a draft, records nothing, and says which flags date the rest', () => {
      const entries = journal().length;
      const run = scn('--type', 'transformative', '--summary', 'Datacenter migration', '--verified', '2027-02-09', '--draft');
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout.split('\n')).toEqual([
        `SCN (transformative) written to scn-2026-11-25.json (sha256:${sha256('scn-2026-11-25.json')})`,
        'Markdown twin written to scn-2026-11-25.md',
        `- after verification (SCN-TRF-NAV): by 2027-02-17 (${days('SCN-TRF-NAV', 'after the verification 2027-02-09')})`,
        'Not dated: initial plans (SCN-TRF-NIP): give --start',
        'Not dated: final plans (SCN-TRF-NFP): give --start',
        'Not dated: after finishing (SCN-TRF-NAF): give --finish',
        'Draft: not recorded',
        '',
      ]);
      expect(journal()).toHaveLength(entries);
      expect(fedrampSchemaErrors('scn', read('scn-2026-11-25.json'))).toEqual([]);
      expect(readFileSync(at('scn-2026-11-25.md'), 'utf8').split('\n')[0]).toBe('# Significant Change Notification (DRAFT)');
    });

    it('prints the facts as JSON under --json, without a journal entry', () => {
      const run = scn('--type', 'adaptive', '--summary', 'Swap the database', '--finish', '2026-12-18', '--out', 'json/scn.json', '--draft', '--json');
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout)).toEqual({
        type: 'adaptive',
        out: 'json/scn.json',
        markdown: 'json/scn.md',
        sha256: `sha256:${sha256('json', 'scn.json')}`,
        notices: [
          {
            rule: 'SCN-ADP-NTF',
            notice: 'after finishing',
            due: '2027-01-05T23:59:59Z',
            date: '2027-01-05',
            timeframe: { unit: 'bizdays', num: num('SCN-ADP-NTF') },
            from: 'finish',
            direction: 'after',
            on: '2026-12-18',
          },
        ],
        undated: [],
        passed: [],
        ksis: [],
        controls: [],
        validated: { schema: FEDRAMP_SCHEMAS, judged_by: judgedBy(FEDRAMP_SCHEMAS, 'scn') },
        now: NOW,
      });
    });
  });

  describe('svc fedramp readiness reminds of the recorded notices whose day has passed', () => {
    const readiness = (now: string) => inDir(['fedramp', 'readiness', '--now', now, '--json']);
    const warningsOf = (run: SvcRun, id: string): string[] | undefined =>
      (JSON.parse(run.stdout).rules as { id: string; warnings?: string[] }[]).find((r) => r.id === id)?.warnings;

    it('on the rule of each notice due before --now, naming the SCN, its journal entry and how the day was counted', () => {
      const run = readiness('2026-12-20T00:00:00Z');
      expect(run.stderr).toBe('');
      expect(warningsOf(run, 'SCN-TRF-NIP')).toEqual([
        `SCN "Move the workloads to Kubernetes" (journal 1): initial plans were due by 2026-11-18 (${days('SCN-TRF-NIP', 'before the start 2027-01-04')})`,
      ]);
      expect(warningsOf(run, 'SCN-TRF-NFP')).toEqual([
        `SCN "Move the workloads to Kubernetes" (journal 1): final plans were due by 2026-12-17 (${days('SCN-TRF-NFP', 'before the start 2027-01-04')})`,
      ]);
      expect([warningsOf(run, 'SCN-TRF-NAF'), warningsOf(run, 'SCN-ADP-NTF')]).toEqual([undefined, undefined]);
      const later = readiness('2027-01-06T00:00:00Z');
      expect(warningsOf(later, 'SCN-ADP-NTF')).toEqual([
        `SCN "New MFA provider" (journal 2): the notice after finishing was due by 2027-01-05 (${days('SCN-ADP-NTF', 'after the finish 2026-12-18')})`,
      ]);
    });

    it('in the table for people, after what the rule needs', () => {
      const run = inDir(['fedramp', 'readiness', '--now', '2026-12-20T00:00:00Z']);
      const line = run.stdout.split('\n').find((l) => l.startsWith('SCN-TRF-NIP '));
      expect(line).toMatch(/^SCN-TRF-NIP {2}MUST {8}needs a statement {2}no provider statement; to do: .*; warning: /);
      expect(line!.split('; warning: ')[1]).toBe(
        `SCN "Move the workloads to Kubernetes" (journal 1): initial plans were due by 2026-11-18 (${days('SCN-TRF-NIP', 'before the start 2027-01-04')})`,
      );
    });
  });

  describe('refuses, with one line naming the fix, and writes and records nothing', () => {
    let before: string[];
    let entries: number;
    beforeEach(() => {
      before = readdirSync(work).sort();
      entries = journal().length;
    });
    afterEach(() => {
      expect(readdirSync(work).sort()).toEqual(before);
      expect(journal()).toHaveLength(entries);
    });
    const refused = (run: SvcRun, status: number, message: string) => expect(run).toEqual({ stdout: '', stderr: `Error: ${message}\n`, status });

    it('--type routine: routine recurring changes are not notified (SCN-RTR-NNR); exit 2', () => {
      refused(
        scn('--type', 'routine', '--summary', 'Monthly patching', '--finish', '2026-12-18', '--out', 'routine.json'),
        2,
        '--type routine: routine recurring changes are not notified: providers SHOULD NOT make formal Significant Change Notifications for them (SCN-RTR-NNR); nothing written or recorded',
      );
      refused(
        scn('--type', 'minor', '--summary', 'x', '--out', 'minor.json'),
        2,
        '--type minor: not a significant change type; write adaptive or transformative (routine recurring changes are not notified, SCN-RTR-NNR)',
      );
    });

    it('a day that is not a date, not on the calendar, or out of order; exit 2', () => {
      refused(
        scn('--type', 'adaptive', '--summary', 'x', '--finish', '2026-12-1', '--out', 'x.json'),
        2,
        '--finish 2026-12-1: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21',
      );
      refused(
        scn('--type', 'adaptive', '--summary', 'x', '--finish', '2027-02-29', '--out', 'x.json'),
        2,
        '--finish 2027-02-29: not a day of the calendar; write a date such as 2026-11-21',
      );
      // Ten business days after 9999-12-31 is no four-digit-year date: refused as a flag, never an internal error (exit 70).
      refused(
        scn('--type', 'adaptive', '--summary', 'x', '--finish', '9999-12-31', '--out', 'x.json'),
        2,
        '--finish 9999-12-31: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)',
      );
      refused(
        scn('--type', 'transformative', '--summary', 'x', '--start', '1969-12-31', '--out', 'x.json'),
        2,
        '--start 1969-12-31: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)',
      );
      refused(
        scn('--type', 'transformative', '--summary', 'x', '--start', '2027-01-14', '--finish', '2027-01-04', '--out', 'x.json'),
        2,
        '--finish 2027-01-04 is before --start 2027-01-14; give the day the change finishes, on or after the start',
      );
      refused(
        scn('--type', 'transformative', '--summary', 'x', '--finish', '2027-01-14', '--verified', '2027-01-13', '--out', 'x.json'),
        2,
        '--verified 2027-01-13 is before --finish 2027-01-14; give the day its verification, assessment and/or validation completed, on or after the finish',
      );
    });

    it('a drift file that is not a drift report, or not there; exit 3', () => {
      cpSync(join(FIXTURES, 'sample-baseline.json'), join(tmp, 'report.json'));
      refused(
        scn('--type', 'adaptive', '--summary', 'x', '--drift', join(tmp, 'report.json'), '--out', 'x.json'),
        3,
        `${join(tmp, 'report.json')}: $: not a drift report: it has neither run_a and run_b (svc ir drift-detect) nor a and b (svc substrate drift); pass the --json output of svc ir drift-detect or svc substrate drift`,
      );
      writeFileSync(
        join(tmp, 'broken-drift.json'),
        JSON.stringify({ run_a: { name: 'a.json' }, run_b: { name: 'b.json' }, findings: [{ ksi_id: 'KSI-AC-02', class: 'DRIFT-AUTHZ', severity: 'P9' }] }),
      );
      refused(
        scn('--type', 'adaptive', '--summary', 'x', '--drift', join(tmp, 'broken-drift.json'), '--out', 'x.json'),
        3,
        `${join(tmp, 'broken-drift.json')}: findings[0].severity: "P9" is not a drift severity (P1-P4); pass the --json output of svc ir drift-detect or svc substrate drift`,
      );
      refused(scn('--type', 'adaptive', '--summary', 'x', '--drift', 'nope.json', '--out', 'x.json'), 3, 'nope.json: no such input file; check the path');
    });

    it('a profile without package_uri; exit 3', () => {
      const dir = join(tmp, 'no-uri');
      mkdirSync(dir);
      writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ fedramp: { type: '20x', class: 'B' } }));
      const run = inDir(['fedramp', 'scn', '--type', 'adaptive', '--summary', 'x'], dir);
      expect(run).toEqual({
        stdout: '',
        stderr: `Error: ${join(dir, 'svc.config.json')}: fedramp.package_uri: missing; svc fedramp scn needs it: write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md\n`,
        status: 3,
      });
      expect(readdirSync(dir)).toEqual(['svc.config.json']);
    });

    it('a run store whose journal was changed outside svc; exit 4', () => {
      const file = at('.svc', 'store', 'journal.ndjson');
      const original = readFileSync(file, 'utf8');
      writeFileSync(file, original.replace('Move the workloads to Kubernetes', 'Move the workloads to Nomad'));
      try {
        const run = scn('--type', 'adaptive', '--summary', 'x', '--finish', '2026-12-18', '--out', 'tampered.json');
        expect([run.status, run.stdout]).toEqual([4, '']);
        expect(run.stderr).toMatch(/^Error: .*journal entry 1.*; the store was modified outside svc\. Restore it from backup\n$/);
      } finally {
        writeFileSync(file, original);
      }
    });
  });
});
