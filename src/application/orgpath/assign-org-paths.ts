import { inject, injectable } from 'tsyringe';
import { type OrgPathPlanEntry, planOrgPaths, readOrgPathRules } from '../../domain/directory/org-path';
import { AppError, InvalidInputError } from '../../domain/errors';
import { describe } from '../../domain/encoding/json-values';
import { ORG_PATH_DIRECTORY, type OrgPathDirectory } from '../../ports/org-path-directory';

export interface AssignOrgPathsInput {
  /** OrgPathRule[] as JSON (from the request or the config); validated here. */
  rules: unknown;
  /** Write the changes through the directory; default false (dry run). */
  apply?: unknown;
  /** JSON path of the input in messages; default `body`. */
  at?: string;
}

/** `dry-run`: a change not written (apply false); `skipped`: nothing to write (unchanged or no rule). */
export type AssignmentOutcome = 'dry-run' | 'written' | 'failed' | 'skipped';

export interface OrgPathAssignment extends OrgPathPlanEntry {
  outcome: AssignmentOutcome;
  /** Why the write failed: the error's code and message. */
  error?: { code: string; message: string };
}

export interface AssignOrgPathsResult {
  attribute: string;
  apply: boolean;
  counts: { users: number; set: number; unchanged: number; no_rule: number; written: number; failed: number };
  assignments: OrgPathAssignment[];
}

/**
 * Applies organizational path rules to the directory's users (POST /orgpath/assign): plans with the first matching
 * rule per user and, only when `apply` is true, writes each change through ORG_PATH_DIRECTORY one user at a time.
 * A failed write (an AppError) is reported on its user and the others go on; other errors are bugs and propagate.
 * Throws InvalidInputError (invalid-orgpath-request) for bad rules or apply, and what listPaths throws.
 */
@injectable()
export class AssignOrgPaths {
  constructor(@inject(ORG_PATH_DIRECTORY) private readonly directory: OrgPathDirectory) {}

  async execute(input: AssignOrgPathsInput): Promise<AssignOrgPathsResult> {
    const at = input.at ?? 'body';
    const fail = (path: string, problem: string): never => {
      throw new InvalidInputError('invalid-orgpath-request', `${path}: ${problem}; see the rule format in docs/graph.md`);
    };
    const rules = readOrgPathRules(input.rules, `${at}.rules`, fail);
    if (input.apply !== undefined && typeof input.apply !== 'boolean') fail(`${at}.apply`, `expected true or false, got ${describe(input.apply)}`);
    const apply = input.apply === true;
    const plan = planOrgPaths(await this.directory.listPaths(), rules);
    const assignments: OrgPathAssignment[] = [];
    for (const entry of plan) {
      if (entry.change !== 'set') {
        assignments.push({ ...entry, outcome: 'skipped' });
      } else if (!apply) {
        assignments.push({ ...entry, outcome: 'dry-run' });
      } else {
        try {
          await this.directory.writePath(entry.user_id, entry.proposed as string);
          assignments.push({ ...entry, outcome: 'written' });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          assignments.push({ ...entry, outcome: 'failed', error: { code: error.code, message: error.message } });
        }
      }
    }
    const count = (test: (a: OrgPathAssignment) => boolean) => assignments.filter(test).length;
    return {
      attribute: this.directory.attribute,
      apply,
      counts: {
        users: assignments.length,
        set: count((a) => a.change === 'set'),
        unchanged: count((a) => a.change === 'unchanged'),
        no_rule: count((a) => a.change === 'no-rule'),
        written: count((a) => a.outcome === 'written'),
        failed: count((a) => a.outcome === 'failed'),
      },
      assignments,
    };
  }
}
