import type { KsiResult, NormalizedReport } from '../ksi/ksi-result';
import { type Status, worstStatus } from '../ksi/status';
import type { DirectorySurvey } from './directory-survey';

/**
 * Thresholds of the survey rules. Microsoft's guidance for Global Administrators: at least two (emergency access,
 * no single point of failure) and fewer than five (Entra ID "Best practices for Microsoft Entra roles").
 */
export interface SurveyPolicy {
  global_admin_min: number;
  global_admin_max: number;
  /** Distinct users holding any privileged role above which least privilege is in doubt. */
  max_privileged_holders: number;
}

export const DEFAULT_SURVEY_POLICY: SurveyPolicy = { global_admin_min: 2, global_admin_max: 4, max_privileged_holders: 10 };

export const SURVEY_SOURCE = 'svc survey';

/** Methods that phish or intercept easily: registered alone, MFA rests on the phone network or a mailbox. */
const WEAK_METHODS: ReadonlySet<string> = new Set(['mobilePhone', 'alternateMobilePhone', 'officePhone', 'email', 'securityQuestion']);

/** At most this many names are listed in a check's details and evidence; the counts stay exact. */
const LISTED = 50;

interface Check {
  id: string;
  status: Status;
  details: string;
  [field: string]: unknown;
}

interface KsiRule {
  ksi_id: string;
  title: string;
  checks: (s: DirectorySurvey, p: SurveyPolicy) => Check[];
  evidence: (s: DirectorySurvey, p: SurveyPolicy) => Record<string, unknown>;
}

/**
 * The survey rules, one per KSI, each made of checks with stable ids `SVC.DIR.<n>` (numbers are never reused;
 * docs/graph.md lists them). A KSI's status is the worst of its checks.
 */
const RULES: readonly KsiRule[] = [
  {
    ksi_id: 'KSI-AC-02',
    title: 'Account Management',
    checks: (s) => {
      const stale = (type: 'Member' | 'Guest') => s.stale_accounts.filter((a) => a.user_type === type);
      const members = stale('Member');
      const guests = stale('Guest');
      return [
        check(
          'SVC.DIR.3',
          members.length === 0 ? 'PASS' : 'FAIL',
          members.length === 0
            ? `no enabled member account inactive for ${s.stale_days} days or more`
            : `${members.length} enabled member account(s) inactive for ${s.stale_days} days or more: ${names(members.map((a) => a.user_principal_name))}`,
        ),
        check(
          'SVC.DIR.4',
          guests.length === 0 ? 'PASS' : 'FAIL',
          guests.length === 0
            ? `no enabled guest account inactive for ${s.stale_days} days or more`
            : `${guests.length} enabled guest account(s) inactive for ${s.stale_days} days or more: ${names(guests.map((a) => a.user_principal_name))}`,
        ),
      ];
    },
    evidence: (s) => ({
      stale_days: s.stale_days,
      enabled_users: s.counts.enabled_users,
      guests: s.counts.guests,
      stale_accounts: s.stale_accounts.slice(0, LISTED),
      stale_account_count: s.counts.stale_accounts,
    }),
  },
  {
    ksi_id: 'KSI-AC-06',
    title: 'Least Privilege',
    checks: (s, p) => {
      const ga = s.counts.global_administrators;
      const gaStatus: Status = ga > p.global_admin_max ? 'FAIL' : ga < p.global_admin_min ? 'WARN' : 'PASS';
      const holders = s.counts.privileged_role_holders;
      const guests = s.privileged_role_holders.filter((h) => h.user_type === 'Guest');
      return [
        check('SVC.DIR.6', gaStatus, `${ga} Global Administrator(s); Microsoft's guidance is ${p.global_admin_min} to ${p.global_admin_max}`),
        check(
          'SVC.DIR.7',
          holders > p.max_privileged_holders ? 'WARN' : 'PASS',
          `${holders} user(s) hold privileged roles (threshold ${p.max_privileged_holders})`,
        ),
        check(
          'SVC.DIR.8',
          guests.length === 0 ? 'PASS' : 'FAIL',
          guests.length === 0
            ? 'no guest holds a privileged role'
            : `${guests.length} guest(s) hold privileged roles: ${names(guests.map((h) => h.user_principal_name))}`,
        ),
      ];
    },
    evidence: (s, p) => ({
      global_administrators: s.counts.global_administrators,
      privileged_role_holder_count: s.counts.privileged_role_holders,
      policy: p,
      privileged_role_holders: s.privileged_role_holders
        .slice(0, LISTED)
        .map((h) => ({ user_principal_name: h.user_principal_name, user_type: h.user_type, roles: h.roles.map((r) => r.display_name) })),
    }),
  },
  {
    ksi_id: 'KSI-IA-02',
    title: 'Identification and Authentication (Organizational Users)',
    checks: (s) => {
      const missing = withoutMfa(s);
      const admins = s.privileged_role_holders.filter((h) => h.account_enabled && !h.mfa_registered);
      return [
        check(
          'SVC.DIR.1',
          missing.length === 0 ? 'PASS' : 'FAIL',
          missing.length === 0
            ? `all ${enabledMembers(s).length} enabled member(s) are registered for MFA`
            : `${missing.length} of ${enabledMembers(s).length} enabled member(s) are not registered for MFA: ${names(missing)}`,
        ),
        check(
          'SVC.DIR.2',
          admins.length === 0 ? 'PASS' : 'FAIL',
          admins.length === 0
            ? `all ${s.privileged_role_holders.filter((h) => h.account_enabled).length} enabled privileged role holder(s) are registered for MFA`
            : `${admins.length} privileged role holder(s) are not registered for MFA: ${names(admins.map((h) => h.user_principal_name))}`,
        ),
      ];
    },
    evidence: (s) => ({
      enabled_members: enabledMembers(s).length,
      registered: s.counts.enabled_members_mfa_registered,
      not_registered: withoutMfa(s).slice(0, LISTED),
      privileged_not_registered: s.privileged_role_holders
        .filter((h) => h.account_enabled && !h.mfa_registered)
        .map((h) => h.user_principal_name)
        .slice(0, LISTED),
    }),
  },
  {
    ksi_id: 'KSI-IA-05',
    title: 'Authenticator Management',
    checks: (s) => {
      const weak = weakOnly(s);
      return [
        check(
          'SVC.DIR.5',
          weak.length === 0 ? 'PASS' : 'WARN',
          weak.length === 0
            ? 'no enabled member relies only on phone, e-mail or security-question methods'
            : `${weak.length} enabled member(s) registered only phone, e-mail or security-question methods: ${names(weak)}`,
        ),
      ];
    },
    evidence: (s) => ({ weak_methods: [...WEAK_METHODS], weak_only: weakOnly(s).slice(0, LISTED) }),
  },
  {
    ksi_id: 'KSI-IA-08',
    title: 'Identification and Authentication (Non-organizational Users)',
    checks: (s) => {
      const external = mistypedExternal(s);
      return [
        check(
          'SVC.DIR.9',
          external.length === 0 ? 'PASS' : 'WARN',
          external.length === 0
            ? `all external (#EXT#) accounts are typed Guest; ${s.counts.guests} guest(s) in the directory`
            : `${external.length} external (#EXT#) account(s) are typed Member, not Guest: ${names(external)}`,
        ),
      ];
    },
    evidence: (s) => ({
      guests: s.counts.guests,
      enabled_guests: s.guests.filter((g) => g.account_enabled).length,
      external_typed_member: mistypedExternal(s).slice(0, LISTED),
    }),
  },
];

/** The survey as KSI results, sorted by ksi_id, observed at the survey's time. */
export function surveyFindings(survey: DirectorySurvey, policy: SurveyPolicy = DEFAULT_SURVEY_POLICY): KsiResult[] {
  return RULES.map((rule) => {
    const checks = rule.checks(survey, policy);
    const status = checks.reduce<Status>((worst, c) => worstStatus(worst, c.status), 'PASS');
    const failing = checks.filter((c) => c.status !== 'PASS');
    return {
      ksi_id: rule.ksi_id,
      status,
      title: rule.title,
      details: failing.length === 0 ? `All ${checks.length} directory check(s) passed` : failing.map((c) => `${c.id} ${c.status}: ${c.details}`).join('; '),
      observed_at: survey.surveyed_at,
      source: SURVEY_SOURCE,
      checks,
      evidence: { tenant_id: survey.tenant_id, cloud: survey.cloud, survey_source: survey.source, ...rule.evidence(survey, policy) },
    };
  });
}

/** A normalized report (DESIGN §3) of the survey's findings, ready for `svc ir auditor-bundle`. */
export function surveyReport(
  survey: DirectorySurvey,
  tool: { version: string },
  generatedAt: string,
  policy: SurveyPolicy = DEFAULT_SURVEY_POLICY,
): NormalizedReport & { schema_version: '1'; generated_at: string } {
  return {
    schema_version: '1',
    generated_at: generatedAt,
    source: { tool: SURVEY_SOURCE, version: tool.version, tenant: survey.tenant_id },
    results: surveyFindings(survey, policy),
  };
}

function check(id: string, status: Status, details: string): Check {
  return { id, status, details };
}

function names(list: string[]): string {
  return list.length <= LISTED ? list.join(', ') : `${list.slice(0, LISTED).join(', ')} and ${list.length - LISTED} more`;
}

function enabledMembers(s: DirectorySurvey) {
  return s.users.filter((u) => u.account_enabled && u.user_type === 'Member');
}

function withoutMfa(s: DirectorySurvey): string[] {
  const registered = new Set(s.mfa_registrations.filter((r) => r.is_mfa_registered).map((r) => r.user_id));
  return enabledMembers(s)
    .filter((u) => !registered.has(u.id))
    .map((u) => u.user_principal_name)
    .sort();
}

function weakOnly(s: DirectorySurvey): string[] {
  const members = new Map(enabledMembers(s).map((u) => [u.id, u.user_principal_name]));
  return s.mfa_registrations
    .filter((r) => members.has(r.user_id) && r.methods_registered.length > 0 && r.methods_registered.every((m) => WEAK_METHODS.has(m)))
    .map((r) => members.get(r.user_id) as string)
    .sort();
}

function mistypedExternal(s: DirectorySurvey): string[] {
  return s.users
    .filter((u) => u.user_principal_name.includes('#EXT#') && u.user_type !== 'Guest')
    .map((u) => u.user_principal_name)
    .sort();
}
