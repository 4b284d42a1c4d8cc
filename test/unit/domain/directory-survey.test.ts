import type { DirectoryRole, DirectoryUser, MfaRegistration } from '../../../src/domain/directory/directory-entities';
import { buildDirectorySurvey, readDirectorySurvey, type SurveyFacts } from '../../../src/domain/directory/directory-survey';
import { GLOBAL_ADMINISTRATOR_TEMPLATE_ID } from '../../../src/domain/directory/privileged-roles';
import { surveyFindings, surveyReport } from '../../../src/domain/directory/survey-findings';
import { InvalidInputError } from '../../../src/domain/errors';
import { readNormalizedReport } from '../../../src/domain/ksi/ksi-result';

const NOW = '2026-11-20T12:00:00.000Z';
const SECURITY_ADMIN = '194ae4cb-b126-40b2-bd5b-6091b380977d';

function aUser(id: string, overrides: Partial<DirectoryUser> = {}): DirectoryUser {
  return {
    id,
    user_principal_name: `${id}@contoso.example`,
    display_name: id,
    user_type: 'Member',
    account_enabled: true,
    department: null,
    office_location: null,
    created_at: '2024-01-01T00:00:00Z',
    last_sign_in_at: '2026-11-19T00:00:00Z',
    ...overrides,
  };
}

function registered(userId: string, methods = ['microsoftAuthenticatorPush']): MfaRegistration {
  return { user_id: userId, user_principal_name: null, is_mfa_registered: methods.length > 0, is_mfa_capable: methods.length > 0, methods_registered: methods };
}

function role(templateId: string, members: string[]): DirectoryRole {
  return { id: `role-${templateId.slice(0, 4)}`, display_name: 'role', role_template_id: templateId, member_ids: members };
}

function facts(overrides: Partial<SurveyFacts> = {}): SurveyFacts {
  const users = overrides.users ?? [aUser('ga1'), aUser('ga2')];
  return {
    tenant_id: 'contoso.example',
    cloud: 'Public',
    surveyed_at: NOW,
    source: 'graph',
    users,
    groups: [],
    roles: [role(GLOBAL_ADMINISTRATOR_TEMPLATE_ID, ['ga1', 'ga2'])],
    mfa_registrations: users.map((u) => registered(u.id)),
    ...overrides,
  };
}

const statuses = (f: SurveyFacts) => Object.fromEntries(surveyFindings(buildDirectorySurvey(f)).map((r) => [r.ksi_id, r.status]));
const checks = (f: SurveyFacts) => Object.fromEntries(surveyFindings(buildDirectorySurvey(f)).flatMap((r) => (r.checks ?? []).map((c) => [c.id, c.status])));

describe('buildDirectorySurvey', () => {
  it('counts an enabled account stale from exactly stale_days without sign-in, and never-signed-in accounts created before the window', () => {
    const survey = buildDirectorySurvey(
      facts({
        users: [
          aUser('edge', { last_sign_in_at: '2026-08-22T12:00:00Z' }),
          aUser('fresh', { last_sign_in_at: '2026-08-22T12:00:01Z' }),
          aUser('never-old', { last_sign_in_at: null, created_at: '2026-01-01T00:00:00Z' }),
          aUser('never-new', { last_sign_in_at: null, created_at: '2026-11-01T00:00:00Z' }),
          aUser('never-unknown', { last_sign_in_at: null, created_at: null }),
          aUser('disabled', { account_enabled: false, last_sign_in_at: '2025-01-01T00:00:00Z' }),
        ],
      }),
    );
    expect(survey.stale_accounts).toEqual([
      {
        id: 'edge',
        user_principal_name: 'edge@contoso.example',
        user_type: 'Member',
        last_sign_in_at: '2026-08-22T12:00:00Z',
        created_at: '2024-01-01T00:00:00Z',
        days_inactive: 90,
      },
      {
        id: 'never-old',
        user_principal_name: 'never-old@contoso.example',
        user_type: 'Member',
        last_sign_in_at: null,
        created_at: '2026-01-01T00:00:00Z',
        days_inactive: null,
      },
      {
        id: 'never-unknown',
        user_principal_name: 'never-unknown@contoso.example',
        user_type: 'Member',
        last_sign_in_at: null,
        created_at: null,
        days_inactive: null,
      },
    ]);
    expect(
      buildDirectorySurvey(facts({ users: [aUser('a', { last_sign_in_at: '2026-10-20T12:00:00Z' })], stale_days: 30 })).stale_accounts.map((a) => a.id),
    ).toEqual(['a']);
  });

  it('lists privileged role holders once with all their roles, leaving out non-user members and non-privileged roles', () => {
    const survey = buildDirectorySurvey(
      facts({
        users: [aUser('ga1'), aUser('ga2'), aUser('guest', { user_type: 'Guest' })],
        roles: [
          role(GLOBAL_ADMINISTRATOR_TEMPLATE_ID, ['ga1', 'ga2', 'service-principal']),
          role(SECURITY_ADMIN, ['ga1', 'guest']),
          role('88d8e3e3-8f55-4a1e-953a-9b9898b8876b', ['ga2']),
        ],
        mfa_registrations: [registered('ga1')],
      }),
    );
    expect(survey.privileged_role_holders).toEqual([
      {
        user_id: 'ga1',
        user_principal_name: 'ga1@contoso.example',
        user_type: 'Member',
        account_enabled: true,
        roles: [
          { role_template_id: GLOBAL_ADMINISTRATOR_TEMPLATE_ID, display_name: 'Global Administrator' },
          { role_template_id: SECURITY_ADMIN, display_name: 'Security Administrator' },
        ],
        mfa_registered: true,
      },
      {
        user_id: 'ga2',
        user_principal_name: 'ga2@contoso.example',
        user_type: 'Member',
        account_enabled: true,
        roles: [{ role_template_id: GLOBAL_ADMINISTRATOR_TEMPLATE_ID, display_name: 'Global Administrator' }],
        mfa_registered: false,
      },
      {
        user_id: 'guest',
        user_principal_name: 'guest@contoso.example',
        user_type: 'Guest',
        account_enabled: true,
        roles: [{ role_template_id: SECURITY_ADMIN, display_name: 'Security Administrator' }],
        mfa_registered: false,
      },
    ]);
    expect(survey.counts).toEqual({
      users: 3,
      members: 2,
      guests: 1,
      enabled_users: 3,
      groups: 0,
      roles: 3,
      privileged_role_holders: 3,
      global_administrators: 2,
      stale_accounts: 0,
      enabled_members_mfa_registered: 1,
      enabled_members_without_mfa: 1,
    });
    expect(survey.guests).toEqual([{ id: 'guest', user_principal_name: 'guest@contoso.example', account_enabled: true }]);
  });
});

describe('surveyFindings', () => {
  it('passes every KSI for a clean tenant, with stable check ids', () => {
    const results = surveyFindings(buildDirectorySurvey(facts()));
    expect(results.map((r) => [r.ksi_id, r.status, r.details])).toEqual([
      ['KSI-AC-02', 'PASS', 'All 2 directory check(s) passed'],
      ['KSI-AC-06', 'PASS', 'All 3 directory check(s) passed'],
      ['KSI-IA-02', 'PASS', 'All 2 directory check(s) passed'],
      ['KSI-IA-05', 'PASS', 'All 1 directory check(s) passed'],
      ['KSI-IA-08', 'PASS', 'All 1 directory check(s) passed'],
    ]);
    expect(results.flatMap((r) => (r.checks ?? []).map((c) => c.id))).toEqual([
      'SVC.DIR.3',
      'SVC.DIR.4',
      'SVC.DIR.6',
      'SVC.DIR.7',
      'SVC.DIR.8',
      'SVC.DIR.1',
      'SVC.DIR.2',
      'SVC.DIR.5',
      'SVC.DIR.9',
    ]);
    expect(results.every((r) => r.observed_at === NOW && r.source === 'svc survey')).toBe(true);
  });

  it('fails KSI-IA-02 when an enabled member or a privileged role holder lacks MFA registration', () => {
    const users = [aUser('ga1'), aUser('ga2'), aUser('bob')];
    const result = surveyFindings(buildDirectorySurvey(facts({ users, mfa_registrations: [registered('ga1')] }))).find((r) => r.ksi_id === 'KSI-IA-02');
    expect(result?.status).toBe('FAIL');
    expect(result?.details).toBe(
      'SVC.DIR.1 FAIL: 2 of 3 enabled member(s) are not registered for MFA: bob@contoso.example, ga2@contoso.example; SVC.DIR.2 FAIL: 1 privileged role holder(s) are not registered for MFA: ga2@contoso.example',
    );
    expect(
      checks(facts({ users: [...users, aUser('off', { account_enabled: false })], mfa_registrations: users.map((u) => registered(u.id)) }))['SVC.DIR.1'],
    ).toBe('PASS');
  });

  it('fails KSI-AC-02 for stale enabled members and stale enabled guests', () => {
    const users = [
      aUser('ga1'),
      aUser('ga2'),
      aUser('old', { last_sign_in_at: '2026-01-01T00:00:00Z' }),
      aUser('g', { user_type: 'Guest', last_sign_in_at: '2026-02-01T00:00:00Z' }),
    ];
    const c = checks(facts({ users }));
    expect([c['SVC.DIR.3'], c['SVC.DIR.4']]).toEqual(['FAIL', 'FAIL']);
    expect(statuses(facts({ users: users.slice(0, 3) }))['KSI-AC-02']).toBe('FAIL');
  });

  it('judges Global Administrators against 2 to 4: fewer is WARN, more is FAIL', () => {
    const gas = (n: number) => {
      const users = Array.from({ length: n }, (_, i) => aUser(`ga${i}`));
      return facts({
        users: users.length ? users : [aUser('x')],
        roles: [
          role(
            GLOBAL_ADMINISTRATOR_TEMPLATE_ID,
            users.map((u) => u.id),
          ),
        ],
      });
    };
    expect([1, 2, 4, 5].map((n) => checks(gas(n))['SVC.DIR.6'])).toEqual(['WARN', 'PASS', 'PASS', 'FAIL']);
    expect(surveyFindings(buildDirectorySurvey(gas(5))).find((r) => r.ksi_id === 'KSI-AC-06')?.details).toBe(
      "SVC.DIR.6 FAIL: 5 Global Administrator(s); Microsoft's guidance is 2 to 4",
    );
  });

  it('warns on more privileged holders than the threshold and fails a guest in a privileged role', () => {
    const users = Array.from({ length: 4 }, (_, i) => aUser(`admin${i}`));
    const base = facts({ users, roles: [role(GLOBAL_ADMINISTRATOR_TEMPLATE_ID, ['admin0', 'admin1']), role(SECURITY_ADMIN, ['admin2', 'admin3'])] });
    expect(
      surveyFindings(buildDirectorySurvey(base), { global_admin_min: 2, global_admin_max: 4, max_privileged_holders: 3 }).find((r) => r.ksi_id === 'KSI-AC-06')
        ?.status,
    ).toBe('WARN');
    const guest = aUser('ext', { user_type: 'Guest' });
    expect(checks({ ...base, users: [...users, guest], roles: [...base.roles, role(SECURITY_ADMIN, ['ext'])] })['SVC.DIR.8']).toBe('FAIL');
  });

  it('warns when a member registered only phone or e-mail methods, and on #EXT# accounts typed Member', () => {
    const users = [aUser('ga1'), aUser('ga2'), aUser('sms'), aUser('vendor_x.example#EXT#')];
    const c = checks(
      facts({
        users,
        mfa_registrations: [registered('ga1'), registered('ga2'), registered('sms', ['mobilePhone', 'email']), registered('vendor_x.example#EXT#')],
      }),
    );
    expect([c['SVC.DIR.5'], c['SVC.DIR.9']]).toEqual(['WARN', 'WARN']);
  });

  it('is a normalized report that the report reader accepts', () => {
    const report = surveyReport(buildDirectorySurvey(facts()), { version: '0.5.0' }, NOW);
    expect(report.source).toEqual({ tool: 'svc survey', version: '0.5.0', tenant: 'contoso.example' });
    expect(readNormalizedReport(JSON.parse(JSON.stringify(report)), 'findings.json').results).toHaveLength(5);
  });
});

describe('readDirectorySurvey', () => {
  const survey = () => JSON.parse(JSON.stringify(buildDirectorySurvey(facts()))) as Record<string, unknown>;

  it('reads back a survey and recomputes what is derived', () => {
    const posted = survey();
    posted.counts = { users: 999 };
    expect(readDirectorySurvey(posted)).toEqual(buildDirectorySurvey(facts()));
  });

  it.each([
    [(s: Record<string, any>) => (s.users[1].id = 7), 'body.users[1].id: expected a string, got number 7'],
    [(s: Record<string, any>) => (s.users[0].user_type = 'Admin'), 'body.users[0].user_type: expected "Member" or "Guest", got "Admin"'],
    [
      (s: Record<string, any>) => (s.users[0].last_sign_in_at = 'yesterday'),
      'body.users[0].last_sign_in_at: expected an ISO-8601 time or null, got "yesterday"',
    ],
    [(s: Record<string, any>) => (s.cloud = 'Mars'), 'body.cloud: expected one of Public, USGov, USGovDoD, got "Mars"'],
    [(s: Record<string, any>) => delete s.groups, 'body.groups: expected an array, got nothing'],
    [(s: Record<string, any>) => (s.roles[0].member_ids = [1]), 'body.roles[0].member_ids[0]: expected a string, got number 1'],
    [
      (s: Record<string, any>) => (s.mfa_registrations[0].is_mfa_registered = 'yes'),
      'body.mfa_registrations[0].is_mfa_registered: expected true or false, got "yes"',
    ],
    [(s: Record<string, any>) => (s.users[1].id = s.users[0].id), 'body.users[1].id: duplicate "ga1" (first at body.users[0])'],
    [(s: Record<string, any>) => (s.stale_days = 0), 'body.stale_days: expected a whole number of days, at least 1, got number 0'],
    [(s: Record<string, any>) => (s.schema = 'other/v1'), 'body.schema: expected "svc.directory-survey/v1", got "other/v1"'],
  ])('refuses a wrong field with its JSON path (%#)', (mutate, message) => {
    const posted = survey();
    mutate(posted);
    expect(() => readDirectorySurvey(posted)).toThrow(
      new InvalidInputError('invalid-survey', `${message}; post a survey as returned by POST /survey/run (docs/graph.md)`),
    );
  });

  it('refuses a body that is not an object', () => {
    expect(() => readDirectorySurvey([], 'body.survey')).toThrow(
      'body.survey: expected an object, got an array; post a survey as returned by POST /survey/run (docs/graph.md)',
    );
  });
});
