import { ListBoundaryGaps } from '../../../src/application/boundary/list-boundary-gaps';
import { ProbeBoundary } from '../../../src/application/boundary/probe-boundary';
import { AssignOrgPaths } from '../../../src/application/orgpath/assign-org-paths';
import { ListOrgPathAssignments } from '../../../src/application/orgpath/list-org-path-assignments';
import { RunSurvey } from '../../../src/application/survey/run-survey';
import { SurveyFindings } from '../../../src/application/survey/survey-findings';
import type { OrgPathHolder } from '../../../src/domain/directory/org-path';
import { GLOBAL_ADMINISTRATOR_TEMPLATE_ID } from '../../../src/domain/directory/privileged-roles';
import { InvalidInputError, UnavailableError } from '../../../src/domain/errors';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import type { RunSettings } from '../../../src/ports/run-settings';
import { FixedBoundaryProbe } from '../../fakes/fixed-boundary-probe';
import { FixedClock } from '../../fakes/fixed-clock';
import { InMemoryDirectory } from '../../fakes/in-memory-directory';
import { InMemoryOrgPathDirectory } from '../../fakes/in-memory-org-path-directory';

const clock = new FixedClock(new Date('2026-11-20T12:00:00Z'));
const settings: RunSettings = { tool: { name: 'svc', version: '0.5.0' }, governance: DEFAULT_GOVERNANCE_POLICY, conmon: { sinks: [] } };

function directory(): InMemoryDirectory {
  const d = new InMemoryDirectory();
  const user = (id: string, last: string | null) => ({
    id,
    user_principal_name: `${id}@contoso.example`,
    display_name: id,
    user_type: 'Member' as const,
    account_enabled: true,
    department: null,
    office_location: null,
    created_at: '2024-01-01T00:00:00Z',
    last_sign_in_at: last,
  });
  d.users = [user('ga1', '2026-11-19T00:00:00Z'), user('ga2', '2026-11-18T00:00:00Z'), user('idle', '2026-06-01T00:00:00Z')];
  d.roles = [{ id: 'r1', display_name: 'Global Administrator', role_template_id: GLOBAL_ADMINISTRATOR_TEMPLATE_ID, member_ids: ['ga1', 'ga2'] }];
  d.registrations = ['ga1', 'ga2', 'idle'].map((id) => ({
    user_id: id,
    user_principal_name: null,
    is_mfa_registered: true,
    is_mfa_capable: true,
    methods_registered: ['fido2'],
  }));
  return d;
}

describe('RunSurvey', () => {
  it('reads every list once, in order, and dates the survey by the clock', async () => {
    const d = directory();
    const survey = await new RunSurvey(d, clock).execute({ stale_days: 30 });
    expect(d.calls).toEqual(['identity', 'users', 'groups', 'roles', 'registrations']);
    expect([survey.surveyed_at, survey.stale_days, survey.source, survey.stale_accounts.map((a) => a.id)]).toEqual([
      '2026-11-20T12:00:00.000Z',
      30,
      'graph',
      ['idle'],
    ]);
  });

  it('refuses a stale_days that is not a whole number of days', async () => {
    await expect(new RunSurvey(directory(), clock).execute({ stale_days: '90' })).rejects.toThrow(
      new InvalidInputError('invalid-survey', 'body.stale_days: expected a whole number of days from 1 to 3650, got "90"; e.g. 90'),
    );
  });

  it('lets directory errors through unchanged', async () => {
    const d = directory();
    d.listGroups = async () => {
      throw new UnavailableError('graph-throttled', 'throttled');
    };
    await expect(new RunSurvey(d, clock).execute()).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe('SurveyFindings', () => {
  it('surveys now when no survey is posted and returns a full normalized report', async () => {
    const d = directory();
    const report = await new SurveyFindings(new RunSurvey(d, clock), clock, settings).execute({});
    expect(report.schema_version).toBe('1');
    expect(report.generated_at).toBe('2026-11-20T12:00:00.000Z');
    expect(report.source).toEqual({ tool: 'svc survey', version: '0.5.0', tenant: 'contoso.onmicrosoft.com' });
    expect(report.results.map((r) => `${r.ksi_id}=${r.status}`)).toEqual([
      'KSI-AC-02=FAIL',
      'KSI-AC-06=PASS',
      'KSI-IA-02=PASS',
      'KSI-IA-05=PASS',
      'KSI-IA-08=PASS',
    ]);
  });

  it('judges a posted survey without reading the directory, with policy overrides', async () => {
    const survey = await new RunSurvey(directory(), clock).execute();
    const d = directory();
    const report = await new SurveyFindings(new RunSurvey(d, clock), clock, settings).execute({
      survey: JSON.parse(JSON.stringify(survey)),
      policy: { global_admin_min: 3 },
    });
    expect(d.calls).toEqual([]);
    expect(report.results.find((r) => r.ksi_id === 'KSI-AC-06')?.status).toBe('WARN');
  });

  it.each([
    [{ policy: { max_admins: 3 } }, 'body.policy.max_admins: unknown setting; known: global_admin_min, global_admin_max, max_privileged_holders'],
    [{ policy: { global_admin_min: -1 } }, 'body.policy.global_admin_min: expected a whole number, 0 or more, got number -1'],
    [{ policy: { global_admin_min: 5 } }, 'body.policy: global_admin_min 5 is above global_admin_max 4; swap them'],
    [
      { survey: { tenant_id: 'x' }, at: 'body.survey' },
      'body.survey.cloud: expected one of Public, USGov, USGovDoD, got nothing; post a survey as returned by POST /survey/run (docs/graph.md)',
    ],
  ])('refuses bad input (%#)', async (input, message) => {
    await expect(new SurveyFindings(new RunSurvey(directory(), clock), clock, settings).execute(input)).rejects.toThrow(message);
  });
});

function holders(): OrgPathHolder[] {
  const h = (id: string, department: string | null, path: string | null = null): OrgPathHolder => ({
    user_id: id,
    user_principal_name: `${id}@contoso.example`,
    user_type: 'Member',
    department,
    office_location: null,
    path,
  });
  return [h('a', 'Finance'), h('b', 'Finance', '/Contoso/Finance'), h('c', 'IT'), h('d', 'HR', '/Contoso/HR')];
}
const rules = [
  { match: { department: 'Finance' }, path: '/Contoso/Finance' },
  { match: { department: 'IT' }, path: '/Contoso/IT' },
];

describe('AssignOrgPaths', () => {
  it('plans without writing by default', async () => {
    const d = new InMemoryOrgPathDirectory(holders());
    const result = await new AssignOrgPaths(d).execute({ rules });
    expect(d.writes).toEqual([]);
    expect(result.apply).toBe(false);
    expect(result.counts).toEqual({ users: 4, set: 2, unchanged: 1, no_rule: 1, written: 0, failed: 0 });
    expect(result.assignments.map((a) => `${a.user_id}:${a.change}:${a.outcome}`)).toEqual([
      'a:set:dry-run',
      'b:unchanged:skipped',
      'c:set:dry-run',
      'd:no-rule:skipped',
    ]);
    expect(result.attribute).toBe('onPremisesExtensionAttributes.extensionAttribute1');
  });

  it('writes each change when applying, and one failed write does not stop the others', async () => {
    const d = new InMemoryOrgPathDirectory(holders());
    d.refuse.set('a', new UnavailableError('graph-throttled', 'PATCH users/a: throttled'));
    const result = await new AssignOrgPaths(d).execute({ rules, apply: true });
    expect(d.writes).toEqual([{ user_id: 'c', path: '/Contoso/IT' }]);
    expect(result.counts).toEqual({ users: 4, set: 2, unchanged: 1, no_rule: 1, written: 1, failed: 1 });
    expect(result.assignments[0]).toEqual({
      user_id: 'a',
      user_principal_name: 'a@contoso.example',
      current: null,
      proposed: '/Contoso/Finance',
      rule: 0,
      change: 'set',
      outcome: 'failed',
      error: { code: 'graph-throttled', message: 'PATCH users/a: throttled' },
    });
  });

  it.each([
    [{ rules: [{ match: {}, path: 'x' }] }, 'body.rules[0].path: "x" does not start with "/"; see the rule format in docs/graph.md'],
    [{ rules, apply: 'yes' }, 'body.apply: expected true or false, got "yes"; see the rule format in docs/graph.md'],
    [{ rules: undefined }, 'body.rules: expected an array of rules {"match": {...}, "path": "/Org/Unit"}, got nothing; see the rule format in docs/graph.md'],
  ])('refuses bad input (%#)', async (input, message) => {
    await expect(new AssignOrgPaths(new InMemoryOrgPathDirectory(holders())).execute(input)).rejects.toThrow(
      new InvalidInputError('invalid-orgpath-request', message),
    );
  });
});

describe('ListOrgPathAssignments', () => {
  it('lists every user with counts, or those at or below a prefix', async () => {
    const d = new InMemoryOrgPathDirectory([
      ...holders(),
      { ...holders()[0], user_id: 'e', path: '/Contoso/Finance/Payroll' },
      { ...holders()[0], user_id: 'f', path: '/Contoso/FinanceOld' },
    ]);
    const all = await new ListOrgPathAssignments(d).execute();
    expect(all.counts).toEqual({ users: 6, assigned: 4, unassigned: 2 });
    expect(all.assignments).toHaveLength(6);
    const under = await new ListOrgPathAssignments(d).execute({ path_prefix: '/Contoso/Finance' });
    expect(under.assignments.map((a) => [a.user_id, a.path])).toEqual([
      ['b', '/Contoso/Finance'],
      ['e', '/Contoso/Finance/Payroll'],
    ]);
    await expect(new ListOrgPathAssignments(d).execute({ path_prefix: 'Contoso' })).rejects.toThrow(
      'query.path_prefix: "Contoso" does not start with "/"; e.g. /Contoso/Finance',
    );
  });
});

describe('ProbeBoundary and ListBoundaryGaps', () => {
  it('probes the endpoints of the environment and reports features with reachability', async () => {
    const probe = new FixedBoundaryProbe({ graph: 'connect ETIMEDOUT' });
    const result = await new ProbeBoundary(probe, clock).execute({ environment: 'DoD' });
    expect(probe.probed[0].map((t) => t.url)).toEqual([
      'https://login.microsoftonline.us/common/v2.0/.well-known/openid-configuration',
      'https://dod-graph.microsoft.us/v1.0/$metadata',
    ]);
    expect([result.environment, result.cloud, result.probed_at]).toEqual(['DoD', 'USGovDoD', '2026-11-20T12:00:00.000Z']);
    expect(result.features.find((f) => f.id === 'conditional-access')).toMatchObject({ offered: true, reachable: false });
    expect(result.features.find((f) => f.id === 'intune')).toMatchObject({ offered: true, reachable: true });
    await expect(new ProbeBoundary(probe, clock).execute({ environment: 'Mars' })).rejects.toThrow(
      new InvalidInputError('invalid-boundary-request', 'body.environment: expected one of Commercial, GCC, GCCHigh, DoD, got "Mars"'),
    );
  });

  it('lists gaps without probing unless asked', async () => {
    const probe = new FixedBoundaryProbe({ authority: 'connect ECONNREFUSED' });
    const gaps = new ListBoundaryGaps(probe);
    const quiet = await gaps.execute({ environment: 'GCCHigh', required: ['conditional-access', 'lifecycle-workflows'] });
    expect(probe.probed).toEqual([]);
    expect([quiet.satisfied, quiet.gaps.map((g) => g.reason)]).toEqual([['conditional-access'], ['not-offered']]);
    const probed = await gaps.execute({ environment: 'GCCHigh', required: ['conditional-access'], probe: true });
    expect(probed.gaps.map((g) => [g.feature, g.reason])).toEqual([['conditional-access', 'unreachable']]);
    expect(probed.endpoints).toHaveLength(2);
  });

  it.each([
    [
      { environment: 'GCC', required: [] },
      'query.required: expected a non-empty list of feature ids, got an array; e.g. ["conditional-access", "privileged-identity-management"]',
    ],
    [
      { environment: 'GCC', required: ['Conditional Access'] },
      'query.required[0]: expected a feature id in kebab case, got "Conditional Access"; e.g. "conditional-access"',
    ],
    [{ environment: 'GCC', required: ['intune'], probe: 'yes' }, 'query.probe: expected true or false, got "yes"'],
    [{ environment: 'gcc', required: ['intune'] }, 'query.environment: expected one of Commercial, GCC, GCCHigh, DoD, got "gcc"'],
  ])('refuses bad input (%#)', async (input, message) => {
    await expect(new ListBoundaryGaps(new FixedBoundaryProbe()).execute(input)).rejects.toThrow(new InvalidInputError('invalid-boundary-request', message));
  });
});
