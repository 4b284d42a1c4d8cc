import { inject, injectable } from 'tsyringe';
import { readDirectorySurvey } from '../../domain/directory/directory-survey';
import { DEFAULT_SURVEY_POLICY, surveyReport, type SurveyPolicy } from '../../domain/directory/survey-findings';
import { InvalidInputError } from '../../domain/errors';
import type { NormalizedReport } from '../../domain/ksi/ksi-result';
import { describe, isPlainObject } from '../../domain/encoding/json-values';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RunSurvey } from './run-survey';

export interface SurveyFindingsInput {
  /** A survey as POST /survey/run returns it; when absent a fresh survey is run. */
  survey?: unknown;
  /** JSON path of `survey` in messages; default `body`. */
  at?: string;
  /** For a fresh survey: stale threshold in days (default 90). */
  stale_days?: unknown;
  /** Overrides of the thresholds (global_admin_min, global_admin_max, max_privileged_holders). */
  policy?: unknown;
}

export type SurveyFindingsResult = NormalizedReport & { schema_version: '1'; generated_at: string };

/**
 * Survey → KSI findings (POST /survey/findings): a full normalized report (DESIGN §3) that `svc ir auditor-bundle`
 * takes unchanged. A posted survey is validated strictly (InvalidInputError code invalid-survey with the JSON
 * path); without one, the directory is surveyed now (RunSurvey).
 */
@injectable()
export class SurveyFindings {
  constructor(
    private readonly runSurvey: RunSurvey,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute(input: SurveyFindingsInput = {}): Promise<SurveyFindingsResult> {
    const policy = readPolicy(input.policy, 'body.policy');
    const survey =
      input.survey === undefined ? await this.runSurvey.execute({ stale_days: input.stale_days }) : readDirectorySurvey(input.survey, input.at ?? 'body');
    return surveyReport(survey, this.settings.tool, this.clock.now().toISOString(), policy);
  }
}

function readPolicy(value: unknown, at: string): SurveyPolicy {
  if (value === undefined) return DEFAULT_SURVEY_POLICY;
  if (!isPlainObject(value))
    throw new InvalidInputError('invalid-survey', `${at}: expected an object, got ${describe(value)}; e.g. {"max_privileged_holders": 10}`);
  const policy = { ...DEFAULT_SURVEY_POLICY };
  for (const [key, v] of Object.entries(value)) {
    if (!(key in policy)) throw new InvalidInputError('invalid-survey', `${at}.${key}: unknown setting; known: ${Object.keys(policy).join(', ')}`);
    if (!Number.isInteger(v) || (v as number) < 0)
      throw new InvalidInputError('invalid-survey', `${at}.${key}: expected a whole number, 0 or more, got ${describe(v)}`);
    policy[key as keyof SurveyPolicy] = v as number;
  }
  if (policy.global_admin_min > policy.global_admin_max)
    throw new InvalidInputError(
      'invalid-survey',
      `${at}: global_admin_min ${policy.global_admin_min} is above global_admin_max ${policy.global_admin_max}; swap them`,
    );
  return policy;
}
