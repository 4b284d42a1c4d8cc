import { inject, injectable } from 'tsyringe';
import { InvalidInputError } from '../../domain/errors';
import { orgPathProblem } from '../../domain/directory/org-path';
import { ORG_PATH_DIRECTORY, type OrgPathDirectory } from '../../ports/org-path-directory';

export interface ListOrgPathAssignmentsInput {
  /** Only users whose path is this path or below it (`/Contoso/Finance` takes `/Contoso/Finance/Payroll`). */
  path_prefix?: unknown;
  /** JSON path of the input in messages; default `query`. */
  at?: string;
}

export interface ListOrgPathAssignmentsResult {
  attribute: string;
  counts: { users: number; assigned: number; unassigned: number };
  assignments: { user_id: string; user_principal_name: string; path: string | null }[];
}

/**
 * The organizational path each user holds now (GET /orgpath/assignments), in directory order. Counts cover every
 * user; with path_prefix, the list only those at or below it. Throws InvalidInputError (invalid-orgpath-request)
 * for a bad prefix, and what listPaths throws.
 */
@injectable()
export class ListOrgPathAssignments {
  constructor(@inject(ORG_PATH_DIRECTORY) private readonly directory: OrgPathDirectory) {}

  async execute(input: ListOrgPathAssignmentsInput = {}): Promise<ListOrgPathAssignmentsResult> {
    const prefix = input.path_prefix;
    if (prefix !== undefined) {
      const problem = orgPathProblem(prefix);
      if (problem !== undefined)
        throw new InvalidInputError('invalid-orgpath-request', `${input.at ?? 'query'}.path_prefix: ${problem}; e.g. /Contoso/Finance`);
    }
    const holders = await this.directory.listPaths();
    const under = (path: string | null) => prefix === undefined || (path !== null && (path === prefix || path.startsWith(`${prefix as string}/`)));
    const assigned = holders.filter((h) => h.path !== null).length;
    return {
      attribute: this.directory.attribute,
      counts: { users: holders.length, assigned, unassigned: holders.length - assigned },
      assignments: holders.filter((h) => under(h.path)).map((h) => ({ user_id: h.user_id, user_principal_name: h.user_principal_name, path: h.path })),
    };
  }
}
