import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssignOrgPaths } from '../../../src/application/orgpath/assign-org-paths';
import { RunSurvey } from '../../../src/application/survey/run-survey';
import { SurveyFindings } from '../../../src/application/survey/survey-findings';
import { ConfigError, InvalidInputError, NotFoundError } from '../../../src/domain/errors';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import { ExportFileDirectoryService } from '../../../src/infrastructure/directory/export-file-directory-service';
import { ExportFileOrgPathDirectory } from '../../../src/infrastructure/directory/export-file-org-path-directory';
import { FixedClock } from '../../fakes/fixed-clock';

const ROOT = join(__dirname, '..', '..', '..');
const EXPORT = join(ROOT, 'fixtures', 'graph-export.json');
const clock = new FixedClock(new Date('2026-11-20T12:00:00Z'));
const ATTRIBUTE = 'onPremisesExtensionAttributes.extensionAttribute1';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-graph-export-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Graph export file (offline mode)', () => {
  it('surveys the fixture tenant: guests, stale accounts, privileged holders', async () => {
    const survey = await new RunSurvey(new ExportFileDirectoryService(EXPORT), clock).execute();
    expect([survey.tenant_id, survey.cloud, survey.source]).toEqual(['2b7e4c1d-6f3a-4e8b-a9c0-5d1e2f3a4b5c', 'Public', 'export']);
    expect(survey.counts).toEqual({
      users: 12,
      members: 10,
      guests: 2,
      enabled_users: 11,
      groups: 4,
      roles: 6,
      privileged_role_holders: 4,
      global_administrators: 2,
      stale_accounts: 3,
      enabled_members_mfa_registered: 6,
      enabled_members_without_mfa: 3,
    });
    expect(survey.stale_accounts.map((a) => [a.user_principal_name, a.days_inactive])).toEqual([
      ['auditor_3pao.example#EXT#@contoso.onmicrosoft.com', 202],
      ['diego.siciliani@contoso.onmicrosoft.com', 142],
      ['isaiah.langer@contoso.onmicrosoft.com', null],
    ]);
    expect(survey.privileged_role_holders.map((h) => [h.user_principal_name, h.roles.map((r) => r.display_name).join('+'), h.mfa_registered])).toEqual([
      ['adele.vance@contoso.onmicrosoft.com', 'Global Administrator', true],
      ['alex.wilber@contoso.onmicrosoft.com', 'Global Administrator+Privileged Role Administrator', true],
      ['lee.gu@contoso.onmicrosoft.com', 'Security Administrator', false],
      ['partner.admin_fabrikam.com#EXT#@contoso.onmicrosoft.com', 'User Administrator', true],
    ]);
  });

  it('turns the survey into findings that svc ir auditor-bundle takes unchanged', async () => {
    const settings = { tool: { name: 'svc', version: '0.5.0' }, governance: DEFAULT_GOVERNANCE_POLICY, conmon: { sinks: [] } };
    const report = await new SurveyFindings(new RunSurvey(new ExportFileDirectoryService(EXPORT), clock), clock, settings).execute();
    expect(report.results.map((r) => `${r.ksi_id}=${r.status}`)).toEqual([
      'KSI-AC-02=FAIL',
      'KSI-AC-06=FAIL',
      'KSI-IA-02=FAIL',
      'KSI-IA-05=WARN',
      'KSI-IA-08=WARN',
    ]);
    expect(report.results.find((r) => r.ksi_id === 'KSI-IA-02')?.details).toBe(
      'SVC.DIR.1 FAIL: 3 of 9 enabled member(s) are not registered for MFA: isaiah.langer@contoso.onmicrosoft.com, lee.gu@contoso.onmicrosoft.com, pradeep.gupta@contoso.onmicrosoft.com; SVC.DIR.2 FAIL: 1 privileged role holder(s) are not registered for MFA: lee.gu@contoso.onmicrosoft.com',
    );
    const file = join(dir, 'findings.json');
    writeFileSync(file, JSON.stringify(report, null, 2));
    const out = join(dir, 'bundle');
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'run.js'), 'ir', 'auditor-bundle', file, '--out-dir', out], {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, SVC_HOME: join(dir, '.svc') },
    });
    expect(run.stderr.replace(/^npm warn.*\n/gm, '')).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Mapped 5 KSIs to controls and policies');
    expect(run.stdout).toContain('POA&M: 5');
    expect(execFileSync('ls', [out], { encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual([
      'evidence-bundle.json',
      'governance-report.md',
      'lineage.json',
      'manifest.json',
      'poam.json',
      'ssp-narrative.md',
    ]);
  });

  it('plans org paths offline and refuses to write into the export', async () => {
    const directory = new ExportFileOrgPathDirectory(EXPORT, ATTRIBUTE);
    const rules = [
      { match: { user_type: 'Guest' }, path: '/Contoso/External' },
      { match: { department: 'Finance' }, path: '/Contoso/Finance' },
      { match: { department: ['IT', 'Engineering'] }, path: '/Contoso/Technology' },
    ];
    const plan = await new AssignOrgPaths(directory).execute({ rules });
    expect(plan.counts).toEqual({ users: 12, set: 8, unchanged: 1, no_rule: 3, written: 0, failed: 0 });
    const applied = await new AssignOrgPaths(directory).execute({ rules, apply: true });
    expect(applied.counts.failed).toBe(8);
    expect(applied.assignments.find((a) => a.outcome === 'failed')?.error).toEqual({
      code: 'export-read-only',
      message: `${EXPORT}: the directory is a Graph export file (graph.export), which svc does not change; run without apply for a dry run, or remove graph.export to write through Microsoft Graph`,
    });
    await expect(directory.writePath()).rejects.toBeInstanceOf(ConfigError);
  });

  it('names the file and the JSON path of a malformed export', async () => {
    const bad = join(dir, 'bad-export.json');
    writeFileSync(
      bad,
      JSON.stringify({
        tenant_id: 't',
        cloud: 'Public',
        users: [{ id: 'u1', userPrincipalName: 'a@b', accountEnabled: 'yes' }],
        groups: [],
        directoryRoles: [],
        userRegistrationDetails: [],
      }),
    );
    await expect(new ExportFileDirectoryService(bad).listUsers()).rejects.toThrow(
      new InvalidInputError(
        'invalid-graph-export',
        `${bad}: users[0].accountEnabled: expected true or false, got "yes"; see the export format in docs/graph.md`,
      ),
    );
    writeFileSync(bad, JSON.stringify({ tenant_id: 't', cloud: 'Moon', users: [] }));
    await expect(new ExportFileDirectoryService(bad).identity()).rejects.toThrow(
      `${bad}: cloud: expected one of Public, USGov, USGovDoD, got "Moon"; see the export format in docs/graph.md`,
    );
    const missing = join(dir, 'missing.json');
    await expect(new ExportFileDirectoryService(missing).listUsers()).rejects.toThrow(
      new NotFoundError('file-not-found', `${missing}: no such Graph export file (graph.export); check the path`),
    );
  });
});
