import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fedrampSchemaErrors } from '../support/fedramp-schemas';
import { svc, type SvcRun } from '../support/run-svc';

let work: string;
const at = (name: string) => join(work, name);
const run = (args: string[]): SvcRun => svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc') } });
const json = (r: SvcRun) => JSON.parse(r.stdout);

const detection = (source: string, finding: string, resource: string, severity: string, detected: string, kind?: string) => ({
  id: `VULN-${createHash('sha256').update(`${source}\n${finding}\n${resource}`).digest('hex').slice(0, 20)}`,
  source,
  finding_id: finding,
  resource,
  title: `${finding} found`,
  scanner_severity: severity,
  detected_at: detected,
  ...(kind ? { kind } : {}),
});
const report = (generated: string, vulnerabilities: unknown[]) => ({ schema_version: '1', generated_at: generated, source: { tool: 'Trivy' }, results: [{ ksi_id: 'KSI-SI-02', status: 'FAIL' }], vulnerabilities });
const API = detection('Trivy', 'CVE-2026-1000', 'api.example.com', 'CRITICAL', '2026-12-07T00:00:00Z');
const DB = detection('Trivy', 'CVE-2026-2000', 'db-1', 'HIGH', '2026-12-07T00:00:00Z');
const MFA = detection('Prowler', 'iam_root_mfa_enabled', 'arn:aws:iam::1:root', 'critical', '2026-12-07T00:00:00Z', 'configuration');

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-vuln-'));
  mkdirSync(join(work, 'r'));
  writeFileSync(
    at('svc.config.json'),
    JSON.stringify({
      fedramp: { type: '20x', class: 'D', package_uri: 'https://trust.example.com/fedramp/cpo.json' },
      vulnerabilities: { kev_catalog: 'kev.json', policy: { internet_reachable: ['*.example.com'] } },
    }),
  );
  writeFileSync(at('kev.json'), JSON.stringify({ catalogVersion: '2026.12.06', vulnerabilities: [{ cveID: 'CVE-2026-1000', dueDate: '2026-12-20', vendorProject: 'Example' }] }));
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
    expect(human.stdout.split('\n')[0]).toBe('Vulnerabilities of run 1 (as of 2026-12-07T00:00:00Z), Class D at 2026-12-07T13:00:00Z, CR26 2026.07.14.01');
    expect(human.stdout).toMatch(/\nGroups: 3 \(detected 0, evaluated 3, mitigated 0, remediated 0, accepted 0, false positive 0\); overdue 1; reportable incidents 1\n$/);
  });

  it("records a person's evaluation without overwriting the policy's, and judges with it", () => {
    const r = run(['vuln', 'evaluate', 'CVE-2026-2000', '--irv', 'no', '--lev', 'yes', '--n', 'N5', '--reason', 'exploit published', '--by', 'ada@example.com', '--now', '2026-12-08T00:00:00Z']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^Recorded evaluation \d+ of VG-[0-9a-f]{16} \(CVE-2026-2000\) by ada@example\.com at 2026-12-08T00:00:00Z$/),
      'State: evaluated, N5, not internet-reachable, likely exploitable',
      'Due: 2026-12-09T00:00:00Z',
    ]);
    const v = (json(run(['vuln', 'list', '--now', '2026-12-08T01:00:00Z', '--json'])) as { finding_id: string; evaluations: unknown[]; incident: boolean }[]).find((x) => x.finding_id === 'CVE-2026-2000')!;
    expect(v.evaluations).toHaveLength(2);
    expect(v.incident).toBe(true); // VER-TFR-NRI: LEV, not IRV, N5
  });

  it('keeps a KEV entry overdue from the day after its due date although fully mitigated', () => {
    expect(run(['vuln', 'evaluate', 'CVE-2026-1000', '--mitigated', 'full', '--reason', 'WAF rule', '--by', 'ada', '--now', '2026-12-07T06:00:00Z']).status).toBe(0);
    const on = (now: string) => (json(run(['vuln', 'list', '--now', now, '--json', '--status', 'overdue'])) as { finding_id: string }[]).map((x) => x.finding_id);
    expect(on('2026-12-20T12:00:00Z')).not.toContain('CVE-2026-1000');
    expect(on('2026-12-21T00:00:00Z')).toContain('CVE-2026-1000');
  });

  it('marks a group remediated when a later run no longer detects it', () => {
    expect(run(['conmon', 'process', 'r/2.json']).status).toBe(0);
    const v = (json(run(['vuln', 'list', '--now', '2026-12-10T01:00:00Z', '--json', '--status', 'remediated'])) as { finding_id: string }[]).map((x) => x.finding_id);
    expect(v).toEqual(['CVE-2026-2000']);
  });

  it("writes FedRAMP's VDR and AVI, valid against FedRAMP's schemas", () => {
    expect(run(['vuln', 'evaluate', 'iam_root_mfa_enabled', '--accept', '--reason', 'break-glass account in a vault', '--by', 'ciso', '--now', '2026-12-10T02:00:00Z']).status).toBe(0);
    const vdr = run(['vuln', 'report', '--format', 'vdr', '--from', '2026-12-01', '--to', '2026-12-10T23:00:00Z', '--now', '2026-12-10T23:00:00Z', '--out', 'vdr.json']);
    expect(vdr.stdout).toMatch(/^VDR written to vdr\.json \(sha256:[0-9a-f]{64}\): 2 vulnerabilities\n$/);
    const doc = JSON.parse(readFileSync(at('vdr.json'), 'utf8'));
    expect(fedrampSchemaErrors('vdr', doc)).toEqual([]);
    expect(doc.vulnerabilities.map((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription.split(':')[0]).sort()).toEqual(['CVE-2026-1000', 'CVE-2026-2000']);
    expect(doc.vulnerabilities.find((v: { vulnerabilityDescription: string }) => v.vulnerabilityDescription.startsWith('CVE-2026-2000'))).toMatchObject({ finalDisposition: 'Fully Mitigated', supplementaryRiskInformation: expect.stringContaining('Remediated: no longer detected from 2026-12-10T00:00:00Z.') });
    const avi = run(['vuln', 'report', '--format', 'avi', '--from', '2026-12-01', '--to', '2026-12-10T23:00:00Z', '--now', '2026-12-10T23:00:00Z', '--redact', '--json']);
    const aviDoc = json(avi);
    expect(fedrampSchemaErrors('avi', aviDoc)).toEqual([]);
    expect(aviDoc.acceptedVulnerabilities).toHaveLength(1);
    expect(aviDoc.acceptedVulnerabilities[0].acceptanceRationale).toBe('Accepted by decision on 2026-12-10T02:00:00Z: break-glass account in a vault');
    expect(aviDoc.acceptedVulnerabilities[0].vulnerabilityDetail.vulnerabilityDescription).toMatch(/^iam_root_mfa_enabled: iam_root_mfa_enabled found \(on 1 resource: resource-[0-9a-f]{12}\)$/);
  });

  it.each([
    [['vuln', 'evaluate', 'CVE-9999-0001', '--n', '3', '--reason', 'x'], 3, /^Error: CVE-9999-0001: no vulnerability group of that tracking id or finding id in run 2 of .*; svc vuln list names them\n$/],
    [['vuln', 'evaluate', 'CVE-2026-1000', '--reason', 'x'], 2, /^Error: svc vuln evaluate: give at least one of --irv, --lev, --n, --false-positive, --mitigated, --next-reduction-at with --next-reduction-n, --accept\n$/],
    [['vuln', 'evaluate', 'CVE-2026-1000', '--n', '7', '--reason', 'x'], 2, /^Error: --n 7: not an N-rating; write 1 to 5 or N1 to N5\n$/],
    [['vuln', 'evaluate', 'CVE-2026-1000', '--irv', 'maybe', '--reason', 'x'], 2, /^Error: --irv maybe: write yes or no\n$/],
    [['vuln', 'evaluate', 'CVE-2026-1000', '--next-reduction-n', '2', '--reason', 'x'], 2, /^Error: --next-reduction-at and --next-reduction-n go together: give both\n$/],
  ])('refuses %j (exit %i)', (args, status, message) => {
    const r = run(args);
    expect([r.status, r.stdout]).toEqual([status, '']);
    expect(r.stderr).toMatch(message);
  });
});
