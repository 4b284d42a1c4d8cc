import { inject, injectable } from 'tsyringe';
import { addDays, isoSeconds } from '../../domain/encoding/iso-time';
import { ConfigError, InvalidInputError } from '../../domain/errors';
import { heldRules, holdsRule } from '../../domain/fedramp/relied-rules';
import {
  ACCESS_RULES,
  accessDayOf,
  accessDays,
  accessRange,
  accessReport,
  DENIAL_RULE,
  denialRule,
  MAX_ACCESS_DAYS,
  type AccessDay,
  type AccessReport,
  type AccessScope,
  type DenialRule,
} from '../../domain/trust/access-report';
import { ACCESS_STORE, type AccessStore } from '../../ports/access-store';
import { BUSINESS_CALENDAR, type BusinessCalendar } from '../../ports/business-calendar';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { AccessRecorder } from './access-recorder';

export interface BuildAccessReportInput {
  /** YYYY-MM-DD; default: the day DEFAULT_ACCESS_MONTHS months before `to`. */
  from?: string;
  /** YYYY-MM-DD; default: today (UTC, the clock's). */
  to?: string;
  scope: AccessScope;
  /** The principals the API config names under roles.agency. */
  named: readonly string[];
}

/** The report, and its RFC 8785 canonical JSON bytes with their SHA-256 (the ETag and Content-Digest). */
export interface BuildAccessReportResult {
  report: AccessReport;
  body: Uint8Array;
  /** Lowercase hex SHA-256 of `body`. */
  sha256: string;
}

/**
 * GET /fedramp/access (DESIGN §12.7; CDS-TRC-ACL, CDS-TRC-AAI, CDS-UTC-AAD): the access log of a range summarized per
 * day, principal, agency and document, the agency access inventory and the agency denials with the date FedRAMP must be
 * told by, for the caller's scope (domain/trust/access-report.ts decides who sees what).
 *
 * What is pending in the AccessRecorder is written first, so a request sees every request answered before it. The
 * report stands on the summaries alone (`accessTallies(day)`, kept by the store as events are appended), one day at a
 * time, never on the raw events, which may be pruned or bounded: its time and memory grow with the principals and
 * documents of the range, not with its requests. A day before yesterday no longer changes (an event is filed under the
 * day it was recorded on, and a batch recorded just before midnight is written within a second after), so its summary
 * is kept in memory, up to MAX_ACCESS_DAYS days, the oldest cached first dropped; today and yesterday are read on every
 * request (the store reads on from where it left off). Between days the event loop runs (`/health` stays quick).
 *
 * Throws InvalidInputError `invalid-range` for a bad range (400). A rules release without CDS-UTC-AAD's timeframe is the
 * server's configuration (ConfigError `no-timeframe`, 500), not the caller's.
 */
@injectable()
export class BuildAccessReport {
  private readonly settled = new Map<string, AccessDay>();

  constructor(
    @inject(ACCESS_STORE) private readonly store: AccessStore,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(BUSINESS_CALENDAR) private readonly calendar: BusinessCalendar,
    @inject(HASHING) private readonly hashing: Hashing,
    private readonly recorder: AccessRecorder,
  ) {}

  async execute(input: BuildAccessReportInput): Promise<BuildAccessReportResult> {
    const now = this.clock.now();
    const today = isoSeconds(now).slice(0, 10);
    const range = accessRange(input, today);
    const rules = this.rules.rules();
    const denial = holdsRule(rules, DENIAL_RULE) ? this.denialRule() : undefined;
    await this.recorder.flush();
    const yesterday = addDays(today, -1);
    const days: AccessDay[] = [];
    for (const day of accessDays(range)) {
      days.push(await this.day(day, yesterday));
      // A cached day is no I/O: yield anyway, so a 400-day range never holds the event loop.
      await turn();
    }
    const report = accessReport({
      range,
      scope: input.scope,
      days,
      agencies: this.profile.profile.agencies ?? [],
      named: input.named,
      rules: heldRules(rules, ACCESS_RULES),
      ...(denial === undefined ? {} : { denial }),
      holiday: (day) => this.calendar.isHoliday(day),
    });
    await turn();
    const body = new TextEncoder().encode(this.hashing.canonicalize(report));
    await turn();
    return { report, body, sha256: this.hashing.sha256(body) };
  }

  /** One day's summaries: kept ones for days before yesterday, else read and summarized now. */
  private async day(day: string, yesterday: string): Promise<AccessDay> {
    const kept = this.settled.get(day);
    if (kept !== undefined) return kept;
    const summarized = accessDayOf(await this.store.accessTallies(day));
    if (day < yesterday) {
      this.settled.set(day, summarized);
      if (this.settled.size > MAX_ACCESS_DAYS) this.settled.delete(this.settled.keys().next().value as string);
    }
    return summarized;
  }

  private denialRule(): DenialRule {
    try {
      return denialRule(this.rules.rules(), this.profile.profile.class);
    } catch (error) {
      if (error instanceof InvalidInputError) throw new ConfigError(error.code, error.message, { cause: error });
      throw error;
    }
  }
}

/** Lets the event loop run (other requests, /health) between the steps of a report. */
function turn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
