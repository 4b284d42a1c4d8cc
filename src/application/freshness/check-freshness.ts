import { inject, injectable } from 'tsyringe';
import { formatDigest } from '../../domain/evidence/content-digest';
import {
  assessFreshness,
  freshnessText,
  hasStaleEvidence,
  schedule as dueOrder,
  scheduleText,
  type FreshnessEntry,
  type FreshnessReport,
} from '../../domain/freshness/freshness';
import { scheduleCalendar } from '../../domain/freshness/ics-calendar';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RunLoader } from '../shared/run-loader';

export type ScheduleFormat = 'table' | 'ics' | 'json';

export interface CheckFreshnessInput {
  input: string;
  /** The time to measure ages at (default: the clock). */
  now?: Date;
  /** Render the schedule instead of the staleness check (`svc ir freshness-schedule`). */
  schedule?: ScheduleFormat;
}

/** `freshness-schedule --format json` and `--json`: the run's input, the time measured at, the entries in due order. */
export interface FreshnessSchedule {
  input: { name: string; sha256: string };
  now: string;
  entries: FreshnessEntry[];
}

export interface CheckFreshnessResult {
  input: string;
  report: FreshnessReport;
  schedule: FreshnessSchedule;
  /** Some evidence is stale or undated: `svc ir freshness` exits 1. */
  stale: boolean;
  /** The text to print: the check's summary, or the schedule in the chosen format. */
  text: string;
}

/** Age of each KSI's evidence against its validation frequency, and when it next falls due (`svc ir freshness`, `freshness-schedule`). */
@injectable()
export class CheckFreshness {
  constructor(
    private readonly runs: RunLoader,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, now, schedule }: CheckFreshnessInput): Promise<CheckFreshnessResult> {
    const run = await this.runs.load({ input });
    const report = assessFreshness(
      run.results.map((r) => r.item),
      run.context.generatedAt,
      now ?? this.clock.now(),
    );
    const scope = run.context.source?.tenant ?? run.context.input.name;
    const due: FreshnessSchedule = {
      input: { name: run.context.input.name, sha256: formatDigest(run.context.input.sha256) },
      now: report.now,
      entries: dueOrder(report),
    };
    const text =
      schedule === undefined
        ? freshnessText(report, input)
        : schedule === 'table'
          ? scheduleText(report, input)
          : schedule === 'ics'
            ? scheduleCalendar(report, { scope, scopeKey: this.hashing.sha256(`freshness-schedule/${scope}`).slice(0, 16), tool: this.settings.tool })
            : `${JSON.stringify(due, null, 2)}\n`;
    return { input, report, schedule: due, stale: hasStaleEvidence(report), text };
  }
}
