import type { DependencyContainer } from 'tsyringe';
import { RunSurvey } from '../../../application/survey/run-survey';
import { SurveyFindings } from '../../../application/survey/survey-findings';
import type { RouteSpec } from './route';

const OPERATOR = ['operator'] as const;
const STALE_DAYS = { type: 'integer', minimum: 1, maximum: 3650, description: 'Days without a sign-in after which an enabled account is stale (default 90).' };

const SURVEY = {
  type: 'object',
  description:
    'A directory survey (svc.directory-survey/v1): users, groups, directory roles with members, MFA registration, and what svc derives from them. docs/graph.md describes every field.',
  required: [
    'schema',
    'tenant_id',
    'cloud',
    'surveyed_at',
    'source',
    'users',
    'groups',
    'roles',
    'mfa_registrations',
    'guests',
    'stale_accounts',
    'privileged_role_holders',
    'counts',
  ],
  properties: {
    schema: { const: 'svc.directory-survey/v1' },
    tenant_id: { type: 'string' },
    cloud: { enum: ['Public', 'USGov', 'USGovDoD'] },
    surveyed_at: { type: 'string', format: 'date-time' },
    source: { enum: ['graph', 'export'] },
    stale_days: { type: 'integer' },
    users: { type: 'array', items: { type: 'object' } },
    groups: { type: 'array', items: { type: 'object' } },
    roles: { type: 'array', items: { type: 'object' } },
    mfa_registrations: { type: 'array', items: { type: 'object' } },
    guests: { type: 'array' },
    stale_accounts: { type: 'array' },
    privileged_role_holders: { type: 'array' },
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
  },
};

const REPORT = {
  type: 'object',
  description:
    'A normalized report (docs/report-format.md) of KSI results from the survey: feed it to `svc ir auditor-bundle` or `svc conmon process` unchanged.',
  required: ['schema_version', 'generated_at', 'source', 'results'],
  properties: {
    schema_version: { const: '1' },
    generated_at: { type: 'string', format: 'date-time' },
    source: { type: 'object', required: ['tool'], properties: { tool: { type: 'string' }, version: { type: 'string' }, tenant: { type: 'string' } } },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['ksi_id', 'status'],
        properties: {
          ksi_id: { type: 'string' },
          status: { enum: ['PASS', 'WARN', 'FAIL'] },
          title: { type: 'string' },
          checks: { type: 'array' },
          evidence: { type: 'object' },
        },
      },
    },
  },
};

/** POST /survey/run and POST /survey/findings: the directory through Microsoft Graph (role `operator`). */
export function surveyRoutes(container: DependencyContainer): RouteSpec[] {
  const survey = container.resolve(RunSurvey);
  const findings = container.resolve(SurveyFindings);
  const base = { module: 'survey', method: 'post', access: OPERATOR } as const;
  return [
    {
      ...base,
      path: '/survey/run',
      operationId: 'runSurvey',
      summary: 'Survey the directory through Microsoft Graph',
      description:
        'Reads users, groups, directory roles and their members, and MFA registration details through Graph (or the configured export file), and derives guests, stale accounts and privileged role holders.',
      body: { type: 'object', additionalProperties: false, properties: { stale_days: STALE_DAYS } },
      responses: { 200: { description: 'The survey.', schema: SURVEY } },
      async handle({ body }, res) {
        res.json(await survey.execute({ stale_days: body.stale_days }));
      },
    },
    {
      ...base,
      path: '/survey/findings',
      operationId: 'surveyFindings',
      summary: 'Turn a survey into KSI findings',
      description:
        'Maps a survey to KSI results (KSI-IA-02 MFA, KSI-AC-02 stale accounts and guests, KSI-AC-06 privileged roles, …) as a normalized report. With no survey in the body, a fresh one is taken first.',
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          survey: SURVEY,
          stale_days: STALE_DAYS,
          policy: {
            type: 'object',
            additionalProperties: false,
            description: 'Thresholds of the KSI-AC-06 checks (docs/graph.md); each defaults as shown.',
            properties: {
              global_admin_min: { type: 'integer', minimum: 0, default: 2 },
              global_admin_max: { type: 'integer', minimum: 0, default: 4 },
              max_privileged_holders: { type: 'integer', minimum: 0, default: 10 },
            },
          },
        },
      },
      responses: { 200: { description: 'A normalized report of KSI results.', schema: REPORT } },
      async handle({ body }, res) {
        res.json(await findings.execute({ survey: body.survey, at: 'body.survey', stale_days: body.stale_days, policy: body.policy }));
      },
    },
  ];
}
