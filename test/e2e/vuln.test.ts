import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withPage } from '../support/browser';
import { FEDRAMP_SCHEMA_GENERATIONS, fedrampSchemaErrors } from '../support/fedramp-schemas';

/** The schemas svc judges by when none is named: the newest generation it carries (2026-10-08). */
const NEWEST = FEDRAMP_SCHEMA_GENERATIONS[FEDRAMP_SCHEMA_GENERATIONS.length - 1];
import { svc, type SvcRun } from '../support/run-svc';
import { SAMPLE_DETECTIONS, trackingIdOf, vulnerabilityReport, writeVulnerabilityConfig } from '../support/vulnerabilities';

let work: string;
const at = (name: string) => join(work, name);
const run = (args: string[]): SvcRun => svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc') } });
const json = (r: SvcRun) => JSON.parse(r.stdout);
const trackingId = trackingIdOf;
const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

const { API, DB, MFA } = SAMPLE_DETECTIONS;
const report = vulnerabilityReport;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-vuln-'));
  mkdirSync(join(work, 'r'));
  writeVulnerabilityConfig(work);
  writeFileSync(at('r/1.json'), JSON.stringify(report('2026-12-07T00:00:00Z', [API, DB, MFA])));
  writeFileSync(at('r/2.json'), JSON.stringify(report('2026-12-10T00:00:00Z', [API, MFA])));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('svc vuln: the register across recorded runs (DESIGN §12.4)', () => {
  it('conmon process groups the detections and records the policy evaluation of each new group', () => {
    const processed = run(['conmon', 'process', 'r/1.json', '--json']);
    expect(processed.status).toBe(0);
    expect(json(processed).vulnerabilities).toEqual({ groups: 3, open: 3, policy_evaluations: 3 });
  });

  it('lists the groups as the policy evaluated them: Class D, an N5 internet-reachable KEV finding is overdue after 12 hours', () => {
    const list = run(['vuln', 'list', '--now', '2026-12-07T13:00:00Z', '--json']);
    expect(list.status).toBe(0);
    const byFinding = new Map((json(list) as { finding_id: string }[]).map((v) => [v.finding_id, v]));
    expect(byFinding.get('CVE-2026-1000')).toMatchObject({
      state: 'evaluated',
      current_n: 5,
      irv: true,
      lev: true,
      kev_due: '2026-12-20',
      incident: true,
      overdue: { is: true, reasons: ['N5 not mitigated or remediated by 2026-12-07T12:00:00Z (VDR-TFR-PVR)'], due_at: '2026-12-07T12:00:00Z' },
      evaluations: [{ at: '2026-12-07T00:00:00Z', by: expect.stringMatching(/^policy:[0-9a-f]{12}$/), irv: true, lev: true, n: 5 }],
    });
    expect(byFinding.get('CVE-2026-2000')).toMatchObject({ state: 'evaluated', current_n: 4, irv: false, lev: false, overdue: { is: false } });
    expect(byFinding.get('iam_root_mfa_enabled')).toMatchObject({ kind: 'configuration', current_n: 5 });
    const human = run(['vuln', 'list', '--now', '2026-12-07T13:00:00Z']);
    expect(human.stdout.split('\n')[0]).toBe('Vulnerabilities of run 1 (as of 2026-12-07T00:00:00Z), Class D at 2026-12-07T13:00:00Z, CR26 2026.10.05.01');
    expect(human.stdout).toMatch(
      /\nGroups: 3 \(detected 0, evaluated 3, mitigated 0, remediated 0, accepted 0, false positive 0\); overdue 1; reportable incidents 1\n$/,
    );
  });

  it("records a person's evaluation without overwriting the policy's, and judges with it", () => {
    const r = run([
      'vuln',
      'evaluate',
      'CVE-2026-2000',
      '--irv',
      'no',
      '--lev',
      'yes',
      '--n',
      'N5',
      '--reason',
      'exploit published',
      '--by',
      'ada@example.com',
      '--now',
      '2026-12-08T00:00:00Z',
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^Recorded evaluation \d+ of VG-[0-9a-f]{16} \(CVE-2026-2000\) by ada@example\.com at 2026-12-08T00:00:00Z$/),
      'State: evaluated, N5, not internet-reachable, likely exploitable',
      'Due: 2026-12-09T00:00:00Z',
    ]);
    const v = (
      json(run(['vuln', 'list', '--now', '2026-12-08T01:00:00Z', '--json'])) as { finding_id: string; evaluations: unknown[]; incident: boolean }[]
    ).find((x) => x.finding_id === 'CVE-2026-2000')!;
    expect(v.evaluations).toHaveLength(2);
    expect(v.incident).toBe(true); // VER-TFR-NRI: LEV, not IRV, N5
  });

  it('keeps a KEV entry overdue from the day after its due date although fully mitigated', () => {
    expect(
      run(['vuln', 'evaluate', 'CVE-2026-1000', '--mitigated', 'full', '--reason', 'WAF rule', '--by', 'ada', '--now', '2026-12-07T06:00:00Z']).status,
    ).toBe(0);
    const on = (now: string) =>
      (json(run(['vuln', 'list', '--now', now, '--json', '--status', 'overdue'])) as { finding_id: string }[]).map((x) => x.finding_id);
    expect(on('2026-12-20T12:00:00Z')).not.toContain('CVE-2026-1000');
    expect(on('2026-12-21T00:00:00Z')).toContain('CVE-2026-1000');
  });

  it('marks a group remediated when a later run no longer detects it', () => {
    expect(run(['conmon', 'process', 'r/2.json']).status).toBe(0);
    const v = (json(run(['vuln', 'list', '--now', '2026-12-10T01:00:00Z', '--json', '--status', 'remediated'])) as { finding_id: string }[]).map(
      (x) => x.finding_id,
    );
    expect(v).toEqual(['CVE-2026-2000']);
  });

  it("writes FedRAMP's VDR and AVI, valid against FedRAMP's schemas", () => {
    expect(
      run([
        'vuln',
        'evaluate',
        'iam_root_mfa_enabled',
        '--accept',
        '--reason',
        'break-glass account in a vault',
        '--by',
        'ciso',
        '--now',
        '2026-12-10T02:00:00Z',
      ]).status,
    ).toBe(0);
    const vdr = run([
      'vuln',
      'report',
      '--format',
      'vdr',
      '--from',
      '2026-12-01',
      '--to',
      '2026-12-10T23:00:00Z',
      '--now',
      '2026-12-10T23:00:00Z',
      '--out',
      'vdr.json',
    ]);
    expect(vdr.stdout).toMatch(/^VDR written to vdr\.json \(sha256:[0-9a-f]{64}\): 2 vulnerabilities\n$/);
    const doc = JSON.parse(readFileSync(at('vdr.json'), 'utf8'));
    expect(fedrampSchemaErrors('vdr', doc, NEWEST)).toEqual([]);
    expect(doc.vulnerabilities.map((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription.split(':')[0]).sort()).toEqual([
      'CVE-2026-1000',
      'CVE-2026-2000',
    ]);
    expect(doc.vulnerabilities.find((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription.startsWith('CVE-2026-2000'))).toMatchObject({
      finalDisposition: 'Remediated',
      supplementaryRiskInformation: 'N-rating raised: N4 → N5 at 2026-12-08T00:00:00Z.',
    });
    const avi = run([
      'vuln',
      'report',
      '--format',
      'avi',
      '--from',
      '2026-12-01',
      '--to',
      '2026-12-10T23:00:00Z',
      '--now',
      '2026-12-10T23:00:00Z',
      '--redact',
      '--json',
    ]);
    const aviDoc = json(avi);
    expect(fedrampSchemaErrors('avi', aviDoc, NEWEST)).toEqual([]);
    expect(aviDoc.acceptedVulnerabilities).toHaveLength(1);
    expect(aviDoc.acceptedVulnerabilities[0].acceptanceRationale).toBe('Accepted by decision on 2026-12-10T02:00:00Z: break-glass account in a vault');
    expect(aviDoc.acceptedVulnerabilities[0].vulnerabilityDetail.vulnerabilityDescription).toMatch(
      /^iam_root_mfa_enabled: iam_root_mfa_enabled found \(on 1 resource: resource-[0-9a-f]{12}\)$/,
    );
  });

  it("writes the historical activity (VER-TFR-MRH), every group whatever the period, valid against FedRAMP's schema", () => {
    const r = run(['vuln', 'report', '--format', 'history', '--now', '2026-12-10T23:00:00Z', '--out', 'history.json']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^Historical activity written to history\.json \(sha256:[0-9a-f]{64}\): 3 vulnerabilities \(active and accepted\)\n$/);
    const doc = JSON.parse(readFileSync(at('history.json'), 'utf8'));
    expect(fedrampSchemaErrors('history', doc, NEWEST)).toEqual([]);
    expect(doc.generatedAt).toBe('2026-12-10T23:00:00Z');
    expect(doc.activeVulnerabilities.map((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription.split(':')[0]).sort()).toEqual([
      'CVE-2026-1000',
      'CVE-2026-2000',
    ]);
    expect(doc.acceptedVulnerabilities.map((v: { acceptanceRationale: string }) => v.acceptanceRationale)).toEqual([
      'Accepted by decision on 2026-12-10T02:00:00Z: break-glass account in a vault',
    ]);
    const refused = run(['vuln', 'report', '--format', 'history', '--from', '2026-12-01', '--now', '2026-12-10T23:00:00Z', '--out', 'history.json']);
    expect([refused.status, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      'Error: --format history holds every vulnerability the register has, whatever the period: leave out --from and --to\n',
    ]);
    expect(JSON.parse(readFileSync(at('history.json'), 'utf8'))).toEqual(doc);
  });

  it('prints the monthly report (VER-TFR-MHR) as Markdown: the summary, the overdue, the incidents and the activity of the period', () => {
    const r = run(['vuln', 'report', '--format', 'md', '--from', '2026-12-01', '--to', '2026-12-21T00:00:00Z', '--now', '2026-12-21T00:00:00Z']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(String.raw`# Vulnerability Detection and Response Activity

- Period: 2026-12-01T00:00:00Z to 2026-12-21T00:00:00Z
- FedRAMP ID: not assigned (fedramp.fedramp_id)
- Certification Package Overview: https://trust.example.com/fedramp/cpo.json
- Class D, FedRAMP Consolidated Rules 2026.10.05.01 (VER-TFR-MHR)
- Judged at 2026-12-21T00:00:00Z from run 2 (as of 2026-12-10T00:00:00Z)
- Generated: 2026-12-21T00:00:00Z by svc ${VERSION}

## Summary

| Vulnerabilities | Detected | Evaluated | Mitigated | Remediated | Accepted | False positive | Overdue | Reportable incidents | In CISA KEV |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| 3 | 0 | 0 | 1 | 1 | 1 | 0 | 1 | 0 | 1 |

During the period: 3 newly detected, 6 evaluations, 0 N-rating reductions, 1 remediated, 1 accepted.

## Overdue

| ID | Finding | N | IRV | LEV | Why |
| --- | --- | --- | --- | --- | --- |
| VG-2e6d6abddb3e1f8d | CVE-2026-1000 | N5 | yes | yes | KEV due 2026-12-20 and still detected (VDR-TFR-KEV) |

## Reportable incidents

None.

## Vulnerabilities

| ID | Finding | Title | State | N | IRV | LEV | Detected | Evaluated | Due | KEV due | Resources |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| VG-2e6d6abddb3e1f8d | CVE-2026-1000 | CVE-2026-1000 found | mitigated | N5 | yes | yes | 2026-12-07T00:00:00Z | 2026-12-07T00:00:00Z | 2026-12-20T23:59:59Z | 2026-12-20 | api.example.com |
| VG-490d2db8888718d1 | CVE-2026-2000 | CVE-2026-2000 found | remediated | N5 | no | yes | 2026-12-07T00:00:00Z | 2026-12-07T00:00:00Z |  |  | db-1 |
| VG-520a77ad43e8a795 | iam_root_mfa_enabled | iam_root_mfa_enabled found | accepted | N5 | no | no | 2026-12-07T00:00:00Z | 2026-12-07T00:00:00Z |  |  | arn:aws:iam::1:root |

## Accepted vulnerabilities

| ID | Finding | Rationale |
| --- | --- | --- |
| VG-520a77ad43e8a795 | iam_root_mfa_enabled | Accepted by decision on 2026-12-10T02:00:00Z: break-glass account in a vault |

## Activity during the period

| Time | ID | Finding | What |
| --- | --- | --- | --- |
| 2026-12-07T00:00:00Z | VG-2e6d6abddb3e1f8d | CVE-2026-1000 | detected by Trivy |
| 2026-12-07T00:00:00Z | VG-2e6d6abddb3e1f8d | CVE-2026-1000 | policy evaluation (policy:529452fa3437): internet-reachable yes, likely exploitable yes, N5; api.example.com matches an internet-reachable pattern; in the CISA KEV catalog (due 2026-12-20); N5 from scanner severity CRITICAL |
| 2026-12-07T00:00:00Z | VG-490d2db8888718d1 | CVE-2026-2000 | detected by Trivy |
| 2026-12-07T00:00:00Z | VG-490d2db8888718d1 | CVE-2026-2000 | policy evaluation (policy:529452fa3437): internet-reachable no, likely exploitable no, N4; no resource matches an internet-reachable pattern; not in the CISA KEV catalog; N4 from scanner severity HIGH |
| 2026-12-07T00:00:00Z | VG-520a77ad43e8a795 | iam_root_mfa_enabled | detected by Prowler |
| 2026-12-07T00:00:00Z | VG-520a77ad43e8a795 | iam_root_mfa_enabled | policy evaluation (policy:529452fa3437): internet-reachable no, likely exploitable no, N5; no resource matches an internet-reachable pattern; not in the CISA KEV catalog; N5 from scanner severity critical |
| 2026-12-07T06:00:00Z | VG-2e6d6abddb3e1f8d | CVE-2026-1000 | evaluated by ada: fully mitigated; WAF rule |
| 2026-12-08T00:00:00Z | VG-490d2db8888718d1 | CVE-2026-2000 | evaluated by ada@example.com: internet-reachable no, likely exploitable yes, N5; exploit published |
| 2026-12-08T00:00:00Z | VG-490d2db8888718d1 | CVE-2026-2000 | N-rating raised from N4 to N5 |
| 2026-12-10T00:00:00Z | VG-490d2db8888718d1 | CVE-2026-2000 | remediated: no longer detected |
| 2026-12-10T02:00:00Z | VG-520a77ad43e8a795 | iam_root_mfa_enabled | evaluated by ciso: accepted; break-glass account in a vault |
| 2026-12-10T02:00:00Z | VG-520a77ad43e8a795 | iam_root_mfa_enabled | accepted by decision |
`);
  });

  it('makes fedramp readiness judge VER-TFR-EVU, VDR-TFR-PVR and VDR-TFR-KEV from the register', () => {
    const r = run(['fedramp', 'readiness', '--now', '2026-12-21T00:00:00Z', '--json']);
    const rules = new Map((json(r).rules as { id: string }[]).map((item) => [item.id, item]));
    expect([r.status, rules.get('VER-TFR-EVU'), rules.get('VDR-TFR-PVR')]).toEqual([
      1,
      { id: 'VER-TFR-EVU', kind: 'rule', force: 'SHOULD', effective: { state: 'in_force', since: '2026-12-07' }, status: 'met' },
      { id: 'VDR-TFR-PVR', kind: 'rule', force: 'SHOULD', effective: { state: 'in_force', since: '2026-12-07' }, status: 'met' },
    ]);
    expect(rules.get('VDR-TFR-KEV')).toEqual({
      id: 'VDR-TFR-KEV',
      kind: 'rule',
      force: 'SHOULD',
      effective: { state: 'in_force', since: '2026-12-07' },
      status: 'not_met',
      why: `1 vulnerability was not remediated by the due date the CISA KEV catalog gives: ${trackingId('CVE-2026-1000')} (CVE-2026-1000)`,
      todo: 'remediate them: a KEV entry stays overdue, even mitigated, until a run no longer detects it',
    });
  });

  it('writes the monthly report as one self-contained HTML page that Chromium renders without errors or requests', async () => {
    const out = at('vulnerabilities.html');
    const r = run([
      'vuln',
      'report',
      '--format',
      'html',
      '--from',
      '2026-12-01',
      '--to',
      '2026-12-21T00:00:00Z',
      '--now',
      '2026-12-21T00:00:00Z',
      '--out',
      'vulnerabilities.html',
    ]);
    expect(r.stdout).toMatch(/^Monthly report \(HTML\) written to vulnerabilities\.html \(sha256:[0-9a-f]{64}\): 3 vulnerabilities\n$/);
    await withPage(async (page) => {
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (q) => requests.push(q.url()));
      await page.goto(`file://${out}`);
      expect(await page.locator('h1').innerText()).toBe('Vulnerability Detection and Response Activity');
      expect(await page.locator('[data-tile="overdue"] b').innerText()).toBe('1');
      expect(await page.locator('[data-tile="accepted"] b').innerText()).toBe('1');
      expect(await page.locator('#vulnerabilities-table tbody tr').count()).toBe(3);
      expect(await page.locator('#accepted-table tbody tr td').allInnerTexts()).toEqual([
        expect.stringMatching(/^VG-/),
        'iam_root_mfa_enabled',
        'Accepted by decision on 2026-12-10T02:00:00Z: break-glass account in a vault',
      ]);
      const findings = () => page.locator('#vulnerabilities-table tbody tr td:nth-child(2)').allInnerTexts();
      expect(await findings()).toEqual(['CVE-2026-1000', 'CVE-2026-2000', 'iam_root_mfa_enabled']);
      const state = page.locator('#vulnerabilities-table thead th', { hasText: 'State' }).locator('button');
      await state.click();
      await state.click();
      expect(await findings()).toEqual(['iam_root_mfa_enabled', 'CVE-2026-2000', 'CVE-2026-1000']);
      expect(problems).toEqual([]);
      expect(requests).toEqual([`file://${out}`]);
    });
  }, 60_000);

  it.each([
    [
      ['vuln', 'evaluate', 'CVE-9999-0001', '--n', '3', '--reason', 'x'],
      3,
      /^Error: CVE-9999-0001: no vulnerability group of that tracking id or finding id in run 2 of .*; svc vuln list names them\n$/,
    ],
    [
      ['vuln', 'evaluate', 'CVE-2026-1000', '--reason', 'x'],
      2,
      /^Error: svc vuln evaluate: give at least one of --irv, --lev, --n, --false-positive, --mitigated, --next-reduction-at with --next-reduction-n, --accept\n$/,
    ],
    [
      ['vuln', 'evaluate', 'CVE-2026-1000', '--n', '7', '--reason', 'x'],
      2,
      /^Error: --n 7: not an N-rating; write 0 to 5 or N0 to N5 \(N0 where the CR26 release in use offers it\)\n$/,
    ],
    [['vuln', 'evaluate', 'CVE-2026-1000', '--irv', 'maybe', '--reason', 'x'], 2, /^Error: --irv maybe: write yes or no\n$/],
    [
      ['vuln', 'evaluate', 'CVE-2026-1000', '--next-reduction-n', '2', '--reason', 'x'],
      2,
      /^Error: --next-reduction-at and --next-reduction-n go together: give both\n$/,
    ],
  ])('refuses %j (exit %i)', (args, status, message) => {
    const r = run(args);
    expect([r.status, r.stdout]).toEqual([status, '']);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    [['--accept', '--reason', '', '--by', 'ada'], '--reason is empty; write why (with --accept, the rationale for accepting it, which the AVI carries)'],
    [['--accept', '--reason', ' \t\n ', '--by', 'ada'], '--reason is empty; write why (with --accept, the rationale for accepting it, which the AVI carries)'],
    [['--accept', '--reason', 'no fix; isolated network', '--by', ''], '--by is empty; write who evaluated it, such as ada@example.com'],
    [['--accept', '--reason', 'no fix; isolated network', '--by', '  '], '--by is empty; write who evaluated it, such as ada@example.com'],
    [['--accept', '--reason', 'no fix', '--by', 'ada\u001b[2J'], '--by holds a control character (U+001B); write a name or mailbox on one line'],
    [
      ['--n', '3', '--reason', 'x', '--by', 'ada', '--next-reduction-at', '9999-12-31', '--next-reduction-n', '2'],
      '--next-reduction-at 9999-12-31: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)',
    ],
    [
      ['--n', '3', '--reason', 'x', '--by', 'ada', '--now', '1969-07-20T20:17:00Z'],
      '--now 1969-07-20T20:17:00Z: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)',
    ],
  ])('refuses vuln evaluate %j with a usage error naming the flag (exit 2), recording nothing', (flags, message) => {
    const journal = readFileSync(join(work, '.svc', 'store', 'journal.ndjson'), 'utf8');
    expect(run(['vuln', 'evaluate', 'CVE-2026-2000', ...flags])).toEqual({ status: 2, stdout: '', stderr: `Error: ${message}\n` });
    expect(readFileSync(join(work, '.svc', 'store', 'journal.ndjson'), 'utf8')).toBe(journal);
  });

  it('takes the login name for --by when the flag is left out, and "unknown" when the environment has only a blank one', () => {
    const r = svc(['vuln', 'evaluate', 'CVE-2026-2000', '--lev', 'yes', '--reason', 'exploit published', '--now', '2026-12-08T00:00:00Z', '--json'], {
      cwd: work,
      env: { SVC_HOME: join(work, '.svc'), USER: ' ', USERNAME: '' },
    });
    expect([r.status, r.stderr, json(r).evaluation.by]).toEqual([0, '', 'unknown']);
  });

  it.each([
    [['--format', 'md', '--to', '9999-12-31'], '--to 9999-12-31: outside the days svc counts in; write a date from 1970-01-01 through 2999-12-31 (UTC)'],
    [['--format', 'vdr', '--from', '2026-02-30'], '--from 2026-02-30: not a day of the calendar; write a date such as 2026-11-21'],
    [
      ['--format', 'vdr', '--now', '+275760-09-13T00:00:00Z'],
      '--now +275760-09-13T00:00:00Z: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21',
    ],
  ])('refuses vuln report %j (exit 2)', (flags, message) => {
    expect(run(['vuln', 'report', ...flags])).toEqual({ status: 2, stdout: '', stderr: `Error: ${message}\n` });
  });
});
