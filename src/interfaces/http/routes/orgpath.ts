import type { DependencyContainer } from 'tsyringe';
import { AssignOrgPaths } from '../../../application/orgpath/assign-org-paths';
import { ListOrgPathAssignments } from '../../../application/orgpath/list-org-path-assignments';
import type { ApiConfig } from '../config/api-config';
import type { RouteSpec } from './route';
import { query } from './schemas';

const OPERATOR = ['operator'] as const;
const VALUES = { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }] };
const RULE = {
  type: 'object',
  additionalProperties: false,
  required: ['match', 'path'],
  properties: {
    match: { type: 'object', additionalProperties: false, properties: { department: VALUES, office: VALUES, user_type: { enum: ['Member', 'Guest'] } } },
    path: { type: 'string', pattern: '^/', maxLength: 256, description: '`/Segment/Segment`, segments of letters, digits, space, dot, underscore and hyphen.' },
  },
};
const ASSIGNMENT = {
  type: 'object',
  required: ['user_id', 'user_principal_name', 'current', 'proposed', 'rule', 'change', 'outcome'],
  properties: {
    user_id: { type: 'string' },
    user_principal_name: { type: 'string' },
    current: { type: ['string', 'null'] },
    proposed: { type: ['string', 'null'] },
    rule: { type: ['integer', 'null'] },
    change: { enum: ['set', 'unchanged', 'no-rule'] },
    outcome: { enum: ['dry-run', 'written', 'failed', 'skipped'] },
    error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
  },
};

/** POST /orgpath/assign and GET /orgpath/assignments: organizational paths of directory users (role `operator`). */
export function orgpathRoutes(container: DependencyContainer, config: ApiConfig): RouteSpec[] {
  const assign = container.resolve(AssignOrgPaths);
  const list = container.resolve(ListOrgPathAssignments);
  return [
    {
      module: 'orgpath',
      method: 'post',
      path: '/orgpath/assign',
      operationId: 'assignOrgPaths',
      summary: 'Assign organizational paths by rules (dry run unless apply is true)',
      description:
        'Applies rules (department, office, user type → path; the first match wins) to every user and reports the change per user. Nothing is written unless apply is true; then each change is written through Graph, and a failed write does not stop the others. Without rules in the body, orgpath.rules of the config apply.',
      access: OPERATOR,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { rules: { type: 'array', items: RULE, maxItems: 500 }, apply: { type: 'boolean', default: false } },
      },
      responses: {
        200: {
          description: 'The plan, and with apply the outcome of each write.',
          schema: {
            type: 'object',
            required: ['attribute', 'apply', 'counts', 'assignments'],
            properties: {
              attribute: { type: 'string' },
              apply: { type: 'boolean' },
              counts: { type: 'object', additionalProperties: { type: 'integer' } },
              assignments: { type: 'array', items: ASSIGNMENT },
            },
          },
        },
      },
      async handle({ body }, res) {
        res.json(await assign.execute({ rules: body.rules ?? config.orgpath.rules, apply: body.apply ?? false, at: body.rules ? 'body' : 'orgpath' }));
      },
    },
    {
      module: 'orgpath',
      method: 'get',
      path: '/orgpath/assignments',
      operationId: 'listOrgPathAssignments',
      summary: 'The organizational path each user holds now',
      description: 'Reads the configured path attribute of every user from the directory, optionally only paths under a prefix.',
      access: OPERATOR,
      query: query({ path_prefix: { type: 'string', pattern: '^/', maxLength: 256, description: 'Only users whose path starts with this.' } }),
      responses: {
        200: {
          description: 'Users and their paths.',
          schema: {
            type: 'object',
            required: ['attribute', 'counts', 'assignments'],
            properties: {
              attribute: { type: 'string' },
              counts: { type: 'object', additionalProperties: { type: 'integer' } },
              assignments: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['user_id', 'user_principal_name', 'path'],
                  properties: { user_id: { type: 'string' }, user_principal_name: { type: 'string' }, path: { type: ['string', 'null'] } },
                },
              },
            },
          },
        },
      },
      async handle({ query: q }, res) {
        res.json(await list.execute({ path_prefix: q.path_prefix }));
      },
    },
  ];
}
