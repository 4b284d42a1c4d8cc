import { inject, injectable } from 'tsyringe';
import { buildDirectorySurvey, type DirectorySurvey } from '../../domain/directory/directory-survey';
import { InvalidInputError } from '../../domain/errors';
import { describe } from '../../domain/encoding/json-values';
import { CLOCK, type Clock } from '../../ports/clock';
import { DIRECTORY_SERVICE, type DirectoryService } from '../../ports/directory-service';

export interface RunSurveyInput {
  /** Inactivity, in whole days, after which an enabled account is stale; default 90. */
  stale_days?: unknown;
  /** JSON path of the input in messages; default `body`. */
  at?: string;
}

/**
 * Surveys the directory (POST /survey/run): users, groups, directory roles with their members and the MFA
 * registration report, then derives guests, stale accounts and privileged role holders. Reads one list after the
 * other, so Graph throttling applies to one request at a time. Throws InvalidInputError for a bad stale_days and
 * whatever DIRECTORY_SERVICE throws.
 */
@injectable()
export class RunSurvey {
  constructor(
    @inject(DIRECTORY_SERVICE) private readonly directory: DirectoryService,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(input: RunSurveyInput = {}): Promise<DirectorySurvey> {
    const staleDays = readStaleDays(input.stale_days, `${input.at ?? 'body'}.stale_days`);
    const identity = await this.directory.identity();
    const users = await this.directory.listUsers();
    const groups = await this.directory.listGroups();
    const roles = await this.directory.listRoles();
    const registrations = await this.directory.listMfaRegistrations();
    return buildDirectorySurvey({
      ...identity,
      surveyed_at: this.clock.now().toISOString(),
      stale_days: staleDays,
      users,
      groups,
      roles,
      mfa_registrations: registrations,
    });
  }
}

export function readStaleDays(value: unknown, at: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 3650) {
    throw new InvalidInputError('invalid-survey', `${at}: expected a whole number of days from 1 to 3650, got ${describe(value)}; e.g. 90`);
  }
  return value as number;
}
