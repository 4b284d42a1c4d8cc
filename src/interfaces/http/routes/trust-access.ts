import type { Response } from 'express';
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { BuildAccessReport } from '../../../application/trust/build-access-report';
import { ACCESS_RULES, accessScope, DEFAULT_ACCESS_MONTHS, MAX_ACCESS_DAYS } from '../../../domain/trust/access-report';
import { holdsRole } from '../app';
import { grantedNames } from '../auth/role-grants';
import type { Principal, Role } from '../auth/principal';
import type { ApiConfig } from '../config/api-config';
import { HttpProblem } from '../responses/problem-details';
import { sendRepresentation } from '../responses/representation';
import type { JsonSchema, RouteSpec } from './route';
import { READERS, validatorHeaders } from './trust';

/** Who may ask (DESIGN §9): an agency's principals and auditors, as for the documents, and the provider's operators. */
const ACCESS: readonly Role[] = [...READERS, 'operator'];

/** The roles that see every row: the provider's operators (CDS-TRC-AAI) and auditors. */
const SEES_ALL: readonly Role[] = ['operator', 'auditor'];

const DAY: JsonSchema = { type: 'string', format: 'date' };
const TIME: JsonSchema = { type: 'string', format: 'date-time' };
const NAME: JsonSchema = { type: 'string', minLength: 1 };
const COUNT: JsonSchema = { type: 'integer', minimum: 0 };
const NAMES: JsonSchema = { type: 'array', items: { type: 'string' } };

const QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: {
      ...DAY,
      description: `First day (YYYY-MM-DD, UTC), included. Default: the same day of the month ${DEFAULT_ACCESS_MONTHS} months before \`to\`, clamped to the month's length.`,
    },
    to: { ...DAY, description: `Last day (YYYY-MM-DD, UTC), included. Default: today. At most ${MAX_ACCESS_DAYS} days from \`from\`.` },
  },
};

const SUMMARY: JsonSchema = {
  type: 'object',
  description: 'Access of one principal to one document on one day (CDS-TRC-ACL).',
  additionalProperties: false,
  required: ['day', 'principal', 'document', 'served', 'denied', 'first', 'last'],
  properties: {
    day: DAY,
    principal: NAME,
    agency: { ...NAME, description: 'The agency of the profile the principal was recognized as, when it was.' },
    document: { ...NAME, description: '`cpo`, `sdr`, … `access`: the trust route asked for.' },
    served: { ...COUNT, description: 'Requests answered 2xx or 304.' },
    denied: { ...COUNT, description: 'Requests answered 403.' },
    first: TIME,
    last: TIME,
  },
};

const AGENCY: JsonSchema = {
  type: 'object',
  description: 'An agency of the profile (fedramp.agencies) and the patterns that recognize its users.',
  additionalProperties: false,
  required: ['name', 'realms', 'issuers', 'domains'],
  properties: { name: NAME, realms: NAMES, issuers: NAMES, domains: NAMES },
};

const OBSERVED: JsonSchema = {
  type: 'object',
  description: 'An agency principal seen in the range.',
  additionalProperties: false,
  required: ['principal', 'basis', 'first', 'last', 'documents', 'served', 'denied'],
  properties: {
    principal: NAME,
    agency: NAME,
    basis: {
      enum: ['recognized', 'named', 'federal'],
      description:
        '`recognized` by an agency pattern, `named` under roles.agency, or `federal`: unrecognized, but its domain or realm ends in .gov or .mil, or its name is O=U.S. Government.',
    },
    first: TIME,
    last: TIME,
    documents: { ...NAMES, description: 'The documents served to it, sorted.' },
    served: COUNT,
    denied: COUNT,
  },
};

const DENIAL: JsonSchema = {
  type: 'object',
  description: 'Denied requests of an agency principal for one document on one day (CDS-UTC-AAD).',
  additionalProperties: false,
  required: ['day', 'at', 'last', 'count', 'principal', 'document'],
  properties: {
    day: DAY,
    at: { ...TIME, description: 'The first denial of the day.' },
    last: TIME,
    count: { type: 'integer', minimum: 1 },
    principal: NAME,
    agency: NAME,
    document: NAME,
    notify_fedramp_by: {
      ...TIME,
      description:
        "The end of the last day FedRAMP may be told on: CDS-UTC-AAD's timeframe (`notify_fedramp.within`) after `day`, business days skipping weekends and US federal holidays; absent where the rules release in use does not hold CDS-UTC-AAD.",
    },
  },
};

const REPORT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'scope', 'rules', 'summaries', 'inventory', 'denials'],
  properties: {
    from: DAY,
    to: DAY,
    scope: {
      description: "`all` (operator, auditor), `{agency}` (a principal recognized as that agency's) or `{principal}` (a principal named under roles.agency).",
      oneOf: [
        { const: 'all' },
        { type: 'object', additionalProperties: false, required: ['agency'], properties: { agency: NAME } },
        { type: 'object', additionalProperties: false, required: ['principal'], properties: { principal: NAME } },
      ],
    },
    rules: { type: 'array', description: 'The rules the report answers that the rules release in use holds.', items: { enum: [...ACCESS_RULES] } },
    summaries: { type: 'array', description: 'Per day, principal, agency and document, in that order.', items: SUMMARY },
    inventory: {
      type: 'object',
      description: 'CDS-TRC-AAI: the configured agency access and the agency principals seen in the range.',
      additionalProperties: false,
      required: ['agencies', 'named', 'observed'],
      properties: {
        agencies: { type: 'array', items: AGENCY },
        named: { ...NAMES, description: 'The principals roles.agency names (`*`: every authenticated principal).' },
        observed: { type: 'array', items: OBSERVED },
      },
    },
    denials: { type: 'array', items: DENIAL },
    notify_fedramp: {
      type: 'object',
      description:
        "CDS-UTC-AAD as the rules data gives it: within what FedRAMP must be told, and its channel (party, method, target: FedRAMP's form) where the data names one; absent where the rules release in use does not hold the rule.",
      additionalProperties: false,
      required: ['rule', 'within'],
      properties: {
        rule: { const: 'CDS-UTC-AAD' },
        within: {
          type: 'object',
          additionalProperties: false,
          required: ['unit', 'num'],
          properties: { unit: { enum: ['hours', 'days', 'bizdays', 'weeks', 'months', 'years'] }, num: { type: 'number' } },
        },
        party: NAME,
        method: NAME,
        target: NAME,
        name: NAME,
      },
    },
  },
};

const HEADERS = validatorHeaders("The body changes with every request logged in the range (this route's own included).");

/**
 * GET /fedramp/access (DESIGN §9 `trust`, §12.7): the trust center's access log (CDS-TRC-ACL), agency access inventory
 * (CDS-TRC-AAI) and agency access denials (CDS-UTC-AAD), to `agency`, `auditor` and `operator` principals. An
 * operator or auditor sees every row; a principal recognized as an agency's sees that agency's; a principal holding
 * `agency` by name alone sees its own (domain/trust/access-report.ts `accessScope`). JSON only (RFC 8785 canonical),
 * with ETag, Content-Digest and 304, `Cache-Control: private, no-cache`: the body depends on who asks.
 */
export function trustAccessRoutes(container: DependencyContainer, config: ApiConfig, _logger: Logger): RouteSpec[] {
  const build = container.resolve(BuildAccessReport);
  return [
    {
      module: 'trust',
      method: 'get',
      path: '/fedramp/access',
      operationId: 'getFedrampAccess',
      listed: { title: 'Access to the Certification Data', rules: ['CDS-TRC-ACL', 'CDS-TRC-AAI'] },
      summary: 'Access to the certification data: summaries, the agency access inventory and denials (CDS-TRC-ACL, CDS-TRC-AAI, CDS-UTC-AAD)',
      description: `Every request for certification data (the protected /fedramp/* routes, this one included) summarized per day, principal, agency and document, from \`from\` to \`to\` (default: the ${DEFAULT_ACCESS_MONTHS} months up to today, UTC; at most ${MAX_ACCESS_DAYS} days); the inventory of agency access (the profile's agencies with the realms, certificate issuers and domains that recognize their users, the principals roles.agency names, and the agency principals seen in the range with their first and last access, the documents served, served and denied counts); and every denied request of an agency principal (recognized, or unrecognized with a .gov or .mil domain or realm, or O=U.S. Government) with the date FedRAMP must be told by (CDS-UTC-AAD's timeframe from the rules data, in business days skipping US federal holidays). An operator or auditor sees everything; an agency's principal sees its agency's rows; a principal named under roles.agency sees its own. A request logged before this one is in the answer. Answered from the summaries the access log keeps as requests are logged (limits.access_summary_days, 400 by default), never from the raw events (kept limits.access_log_days, 90 by default): a day of a million requests costs what a day of a few does. As JSON (RFC 8785 canonical).`,
      access: ACCESS,
      query: QUERY,
      responses: {
        200: { description: "The access report for the caller's scope.", content: { 'application/json': REPORT }, headers: HEADERS },
        304: { description: 'If-None-Match matched the ETag.', contentType: 'application/json' },
        406: {
          description: 'Accept does not allow application/json.',
          contentType: 'application/problem+json',
          schema: { $ref: '#/components/schemas/Problem' },
        },
      },
      async handle({ query, principal }, res) {
        acceptJson(res);
        // authorize() lets no request through without a principal.
        const caller = principal as Principal;
        const scope = accessScope(caller, holdsRole(caller, SEES_ALL, config.roles));
        const built = await build.execute({
          from: query.from as string | undefined,
          to: query.to as string | undefined,
          scope,
          named: grantedNames(config.roles.agency),
        });
        sendRepresentation(res.req, res, { body: built.body, sha256: built.sha256, contentType: 'application/json', cacheControl: 'private, no-cache' });
      },
    },
  ];
}

/** 406 when Accept allows no JSON, as the document routes answer when it allows neither of theirs. */
function acceptJson(res: Response): void {
  if (res.req.accepts(['application/json']) === false) {
    throw new HttpProblem(406, 'not-acceptable', `Accept ${JSON.stringify(String(res.req.headers.accept).slice(0, 100))}: this route answers application/json`);
  }
}
