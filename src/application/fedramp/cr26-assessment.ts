import { inject, injectable } from 'tsyringe';
import { assessor } from '../../domain/assessment/assessment';
import { normalizeControlId, type KsiCatalog } from '../../domain/catalog/ksi-catalog';
import type { RunSummary } from '../../domain/conmon/run-record';
import type { InputRef } from '../../domain/artifacts/run-context';
import { latestOfEachSource, sourceKey } from '../../domain/conmon/run-sources';
import { HASHING, type Hashing } from '../../ports/hashing';
import { combinedInput } from '../shared/run-inputs';
import { applicability, type Applicability, type ApplicabilityProfile } from '../../domain/fedramp/applicability';
import type { Cr26Class, Cr26Ksi, Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { heldCadence, type EvidenceCadence } from '../../domain/fedramp/evidence-cadence';
import { holdsRule, reliedRule } from '../../domain/fedramp/relied-rules';
import { historyCheck, ksiMetrics, Cr26Tally, tallyStatus, type DailyKsiStatus, type HistoryCheck, type KsiTally } from '../../domain/fedramp/ksi-evaluation';

import { requireProfileKeys, type FedrampProfile, type FedrampProfileKey, type FedrampType } from '../../domain/fedramp/profile';
import type { JudgmentFacts, VulnerabilityFacts } from '../../domain/fedramp/rule-judgments';
import { declaredEvidence } from '../../domain/fedramp/evidence-type';
import { Cr26RunFacts } from '../../domain/fedramp/run-facts';
import type { SdrKsiMetrics } from '../../domain/fedramp/sdr';
import { noStatements, readProviderStatements, type ProviderStatements } from '../../domain/fedramp/statements';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore, type RunView } from '../../ports/run-store';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { RunLoader, type ScannedRun } from '../shared/run-loader';
import { eachStoredResult } from '../shared/stored-bundle';
import { storedCountRows } from '../shared/stored-ksi-counts';
import { countsFromHistory, historyTampered, storedKsiHistory } from '../shared/stored-ksi-history';
import type { KsiCounts as CountRow } from '../../domain/conmon/ksi-counts';
import { profileWith } from './fedramp-documents';
import type { OcrRecord } from '../../domain/fedramp/ongoing-records';
import { DAY_MS, isoSeconds } from '../../domain/encoding/iso-time';
import { nextReportDate } from '../../domain/fedramp/ocr';

/** A KSI's results of one run, by outcome (what tallyStatus judges). */
type KsiCounts = Pick<KsiTally, 'pass' | 'fail' | 'other'>;

/** How many runs' KSI count rows an instance keeps, and the most rows of one run it keeps (a run of FedRAMP-shaped ids has a few hundred). */
const COUNTS_KEPT = 4096;
const COUNT_ROWS_KEPT = 10_000;

/** The path and status assumed when the profile gives none (docs/fedramp.md): a program application. */
export const PROFILE_DEFAULTS = { path: 'program', status: 'applying' } as const;

/** What a command asks of the profile, with the flags that may give `type` and `class`. */
export interface ProfileRequest {
  type?: FedrampType;
  class?: Cr26Class;
  now?: Date;
}

/** The profile, the rules in use and what applies, at a time. */
export interface Cr26Scope<K extends FedrampProfileKey> {
  profile: FedrampProfile & Required<Pick<FedrampProfile, K>> & Required<Pick<FedrampProfile, 'type' | 'class'>>;
  rules: Cr26Rules;
  found: Applicability;
  now: Date;
  /** Each kind's cadence; absent where the release does not hold its cadence rule (that kind is not judged for freshness). */
  cadences: { machine?: EvidenceCadence; nonMachine?: EvidenceCadence };
}

/** One run's CR26 picture: its facts, and per applicable KSI its daily history and metrics from the run store. */
/** The store's state as the CR26 documents judge it (Cr26Assessment.state). */
export interface StoreState {
  /** The latest run of every source, in seq order. */
  runs: RunSummary[];
  /** The newest of them by as_of (a source's older report may be recorded after another's newer one): what the documents are as of. */
  newest: RunSummary;
  /** The last of them recorded (the highest seq): where a snapshot of the store stops. */
  latest: RunSummary;
  /** What the documents name as their input: the runs' inputs, as one. */
  input: InputRef;
}

export interface Cr26RunPicture {
  facts: Cr26RunFacts;
  /** Per applicable KSI (20x only): the status of each recorded day, this run's day included. */
  daily: Map<string, DailyKsiStatus[]>;
  metrics?: Map<string, SdrKsiMetrics>;
  history: Map<string, HistoryCheck>;
  /** Distinct days of recorded history within the last year. */
  metricDays: number;
  /** Rev5: the class's control list. */
  controls?: readonly string[];
}

/**
 * The CR26 reading of the offering shared by `fedramp sdr`, `readiness` and `package` (DESIGN §12.1–12.3): the
 * profile with the keys a command needs (a one-line error before anything is written), the rules that apply at
 * `now`, the provider's statements, one pass over a run's results, and its KSIs' history from the run store.
 */
@injectable()
export class Cr26Assessment {
  /** Each run's stored KSI count rows once read (null: recorded without them), by run id: storedCounts. */
  private readonly counts = new Map<string, readonly CountRow[] | null>();

  constructor(
    @inject(FEDRAMP_RULES_SOURCE) private readonly source: FedrampRulesSource,
    @inject(FEDRAMP_PROFILE) private readonly settings: FedrampProfileSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(RUN_SETTINGS) private readonly settingsOfRun: RunSettings,
    @inject(HASHING) private readonly hashing: Hashing,
    private readonly runs: RunLoader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
  ) {}

  /** The profile with `keys` (and type and class), the rules in use and what applies to it at `now`. */
  scope<K extends FedrampProfileKey>(request: ProfileRequest, keys: readonly K[], command: string): Cr26Scope<K> {
    const profile = requireProfileKeys(profileWith(this.settings, request), ['type', 'class', ...keys] as (K | 'type' | 'class')[], command, {
      type: '--type',
      class: '--class',
    } as Partial<Record<K | 'type' | 'class', string>>) as Cr26Scope<K>['profile'];
    const rules = this.source.rules();
    const now = request.now ?? this.clock.now();
    const found = applicability(rules, applicabilityProfile(profile), now);
    const machine = heldCadence(rules, profile.type, profile.class, 'machine');
    const nonMachine = heldCadence(rules, profile.type, profile.class, 'non-machine');
    const cadences = { ...(machine === undefined ? {} : { machine }), ...(nonMachine === undefined ? {} : { nonMachine }) };
    return { profile, rules, found, now, cadences };
  }

  /** The provider's statements file the profile names; none when it names none. */
  async statements(scope: Cr26Scope<never>): Promise<ProviderStatements> {
    const file = scope.profile.statements;
    if (file === undefined) return noStatements();
    return readProviderStatements((await this.reader.readText(file)).text, file, scope.rules);
  }

  /** Loads `input` a result at a time, gathering its facts as it is read (no entry is parsed twice). */
  async load(scope: Cr26Scope<never>, request: { input: string; catalog?: string }): Promise<{ run: ScannedRun; facts: Cr26RunFacts }> {
    let facts: Cr26RunFacts | undefined;
    const run = await this.runs.scan(request, (observed) => {
      const current = this.factsOf(scope, observed.catalog, observed.generatedAt, toolOf(observed.source));
      facts = current;
      return (item, hash) => current.add(item, hash);
    });
    return { run, facts: facts! };
  }

  /** The KSIs' history from the run store with a run read by `load` as the status of its day. */
  async picture(scope: Cr26Scope<never>, run: ScannedRun, facts: Cr26RunFacts): Promise<Cr26RunPicture> {
    return this.pictureOf(scope, { catalog: run.catalog, asOf: run.context.generatedAt ?? run.context.runAt.toISOString(), facts });
  }

  /**
   * The picture of the store's state (`stateRuns()`: the latest run of every source), as `picture` makes it of a
   * loaded run, and its number of results: each run's results read one at a time, each kept only as its facts, with
   * its run's tool and as_of (the report's generated_at, else when it was recorded), which dates a result without
   * observed_at. A KSI several sources reach is judged on all their results. No run: the picture of no results.
   */
  async storedPicture(scope: Cr26Scope<never>, runs: readonly RunSummary[], since?: string): Promise<{ picture: Cr26RunPicture; results: number }> {
    const catalog = this.catalogs.catalog();
    const single = runs.length === 1 ? runs[0] : undefined;
    const newest = newestOf(runs);
    const facts = this.factsOf(scope, catalog, single?.as_of, toolOf(single?.source));
    const assess = assessor(catalog, this.settingsOfRun.governance);
    let results = 0;
    for (const summary of runs) {
      const origin = { generatedAt: summary.as_of, tool: toolOf(summary.source) };
      results += await eachStoredResult(this.store, summary, assess, (r) => facts.add(r.item, () => r.hash, origin));
    }
    return { picture: await this.pictureOf(scope, { catalog, asOf: newest?.as_of ?? scope.now.toISOString(), facts }, since), results };
  }

  /** `since` (YYYY-MM-DD): the daily history reaches back to that day when it is more than a year before now (an OCR's period). */
  private async pictureOf(scope: Cr26Scope<never>, run: { catalog: KsiCatalog; asOf: string; facts: Cr26RunFacts }, since?: string): Promise<Cr26RunPicture> {
    const { facts } = run;
    const asOf = run.asOf;
    const ksis = scope.found.ksis.map((k) => k.ksi);
    const daily = ksis.length === 0 ? new Map<string, DailyKsiStatus[]>() : await this.daily(scope, ksis, run.catalog, since);
    const today = dayOf(asOf);
    const evaluation = facts.tally.evaluation();
    for (const k of evaluation.ksis) {
      const status: DailyKsiStatus = { date: today, ...(k.status === undefined ? {} : { status: k.status }) };
      const stored = daily.get(k.id) ?? [];
      // The stored days are in date order: today's status is their last day, or replaces it (a report of an earlier day
      // takes its place among them).
      const last = stored.at(-1)?.date;
      if (last === undefined || last < today) daily.set(k.id, [...stored, status]);
      else if (last === today) daily.set(k.id, [...stored.slice(0, -1), status]);
      else
        daily.set(
          k.id,
          [...stored.filter((d) => d.date !== today), status].sort((a, b) => (a.date < b.date ? -1 : 1)),
        );
    }
    const history = new Map([...daily].map(([id, days]) => [id, historyCheck(days, scope.profile.class, scope.rules, scope.now)]));
    const withDaily = scope.profile.class === 'C';
    // The KSI metrics are what SDR-CSX-KMT asks: a release without it asks none, and the SDR carries none.
    const metrics =
      scope.profile.type === '20x' && holdsRule(scope.rules, METRICS_RULE)
        ? new Map([...daily].map(([id, days]) => [id, { ...ksiMetrics(days, scope.now), ...(withDaily ? { daily: days } : {}) }]))
        : undefined;
    const [yearStart, yearEnd] = [dayOf(new Date(scope.now.getTime() - 364 * DAY_MS).toISOString()), dayOf(scope.now.toISOString())];
    const yearDays = new Set<string>();
    for (const days of daily.values()) for (const { date } of days) if (date >= yearStart && date <= yearEnd) yearDays.add(date);
    const metricDays = yearDays.size;
    const controls = scope.profile.type === 'rev5' ? rev5Controls(scope.rules, scope.profile.class) : undefined;
    return { facts, daily, ...(metrics === undefined ? {} : { metrics }), history, metricDays, ...(controls === undefined ? {} : { controls }) };
  }

  /**
   * The store's state: the latest run of every source, in seq order (docs/conmon.md, "Sources"), and what the
   * documents say it is: the newest run's seq, id and as_of, and the inputs of all (one input's own name and digest;
   * several, named together and digested as one, as `evidence build` names merged reports). Undefined for an empty store.
   */
  async state(): Promise<StoreState | undefined> {
    const runs = latestOfEachSource(await this.store.list());
    const latest = runs.at(-1);
    if (latest === undefined) return undefined;
    return {
      runs,
      newest: newestOf(runs)!,
      latest,
      input: combinedInput(
        runs.map((r) => r.input),
        this.hashing,
      ),
    };
  }

  /** Where the run store is, for messages. */
  get storeLocation(): string {
    return this.store.location;
  }

  factsOf(scope: Cr26Scope<never>, catalog: KsiCatalog, generatedAt: string | undefined, reportTool: string | undefined): Cr26RunFacts {
    return new Cr26RunFacts(
      { rules: scope.rules, ksis: scope.found.ksis.map((k) => k.ksi), class: scope.profile.class, catalog },
      { ...scope.cadences, now: scope.now },
      generatedAt,
      reportTool,
      declaredEvidence(this.scans.vendors()),
    );
  }

  /**
   * The stored KSI count rows of each run of `summaries` (undefined for a run recorded without them), kept for the life
   * of this instance: runs never change, so svc-api's trust center, rebuilding its SDR after each recorded run of a
   * store without a KSI history, reads only the new run's.
   */
  private async storedCounts(store: RunView, summaries: readonly RunSummary[]): Promise<Map<string, readonly CountRow[] | undefined>> {
    const found = new Map<string, readonly CountRow[] | undefined>();
    const missing: RunSummary[] = [];
    for (const summary of summaries) {
      const kept = this.counts.get(summary.id);
      if (kept === undefined) missing.push(summary);
      else found.set(summary.id, kept ?? undefined);
    }
    const read = await storedCountRows(store, missing, (summary, rows) => {
      if (this.counts.size >= COUNTS_KEPT) this.counts.delete(this.counts.keys().next().value as string);
      if (rows === undefined || rows.length <= COUNT_ROWS_KEPT) this.counts.set(summary.id, rows ?? null);
    });
    for (const [id, rows] of read) found.set(id, rows);
    return found;
  }

  /**
   * Per KSI, the status of each day of the last year from the run store (from `since` when that is earlier, and the last
   * day with a run before it): the day's last recorded run (by as_of), its results evaluated as DESIGN §12.2 says. A store that cannot be read is the
   * store's error.
   */
  private async daily(scope: Cr26Scope<never>, ksis: Cr26Ksi[], catalog: KsiCatalog, since?: string): Promise<Map<string, DailyKsiStatus[]>> {
    const now = scope.now.getTime();
    const from = Math.min(now - 365 * DAY_MS, since === undefined ? Infinity : Date.parse(`${since}T00:00:00Z`));
    // Every run up to now (runs before the year too: a source's last run before it is its part on the year's first days).
    // One reading of the store for every run of the year: its chain walked once, not once a run.
    const store = await this.store.reader();
    const listed = await store.list();
    const runs = listed.filter((r) => Date.parse(r.as_of) <= now).sort((a, b) => Date.parse(a.as_of) - Date.parse(b.as_of) || a.seq - b.seq);
    const days = [...new Set(runs.filter((r) => Date.parse(r.as_of) >= from).map((r) => dayOf(r.as_of)))].sort();
    // With `since`, the last day before it too: a change on the period's first day is a change from that day's status.
    const before = since === undefined ? undefined : runs.filter((r) => Date.parse(r.as_of) < from).at(-1);
    if (before !== undefined && !days.includes(dayOf(before.as_of))) days.unshift(dayOf(before.as_of));
    const daily = new Map<string, DailyKsiStatus[]>(ksis.map((k) => [k.id, []]));
    const assess = assessor(catalog, this.settingsOfRun.governance);
    // Per run read, its results' counts per KSI (read once, whatever the days it stands for).
    const counted = new Map<string, Map<string, KsiCounts>>();
    // Where each result id leads, worked out once for every run.
    const router = new Cr26Tally({ rules: scope.rules, ksis, class: scope.profile.class, catalog });
    const countsOf = async (summary: RunSummary, rows: readonly CountRow[] | undefined): Promise<void> => {
      const counts = new Map(ksis.map((k) => [k.id, { pass: 0, fail: 0, other: 0 }]));
      // The run's counts stored when it was recorded; a run recorded before svc stored them is read whole.
      for (const row of rows ?? []) {
        for (const id of router.reach(row.ksi_id)) {
          const c = counts.get(id)!;
          c.pass += row.pass;
          c.fail += row.fail;
          c.other += row.other;
        }
      }
      if (rows === undefined) {
        const tally = new Cr26Tally({ rules: scope.rules, ksis, class: scope.profile.class, catalog });
        const tool = toolOf(summary.source);
        let index = 0;
        await eachStoredResult(store, summary, assess, ({ item: { result } }) => {
          tally.add(
            { ksi_id: result.ksi_id, status: result.status, tool: tool ?? (typeof result.source === 'string' ? result.source : 'unknown'), checks: [] },
            index++,
          );
        });
        for (const k of ksis) {
          const t = tally.ksi(k.id)!;
          counts.set(k.id, { pass: t.pass, fail: t.fail, other: t.other });
        }
      }
      counted.set(summary.id, counts);
    };
    // Each day stands for the state at its end: the last run of every source by then (docs/conmon.md, "Sources").
    const state = new Map<string, RunSummary>();
    let next = 0;
    const partsOfDay = days.map((day) => {
      const end = Date.parse(`${day}T23:59:59.999Z`);
      for (; next < runs.length && Date.parse(runs[next].as_of) <= end; next += 1) state.set(sourceKey(runs[next].source), runs[next]);
      return [...state.values()];
    });
    // The runs the days stand on, each read once: a year of daily runs is hundreds of small documents, read together.
    const needed = [...new Map(partsOfDay.flat().map((r) => [r.id, r])).values()];
    // The newest run's KSI history holds every run's counts: one document for the year, when it reaches back far enough.
    const newest = listed.reduce<RunSummary | undefined>((a, r) => (a === undefined || r.seq > a.seq ? r : a), undefined);
    const history = newest && (await storedKsiHistory(store, newest));
    if (history !== undefined && (history.from === undefined || Date.parse(history.from) <= from)) {
      for (const [id, counts] of countsFromHistory(history, needed, ksis, router, (problem) => historyTampered(store, newest!, problem)))
        counted.set(id, counts);
      // A run recorded before svc stored counts (`uncounted` in the history) is read whole.
      for (const run of needed) if (!counted.has(run.id)) await countsOf(run, undefined);
    } else {
      const stored = await this.storedCounts(store, needed);
      for (const run of needed) await countsOf(run, stored.get(run.id));
    }
    for (const [d, day] of days.entries()) {
      const parts = partsOfDay[d].map((r) => counted.get(r.id)!);
      for (const k of ksis) {
        const total = { pass: 0, fail: 0, other: 0 };
        for (const part of parts) {
          const c = part.get(k.id)!;
          total.pass += c.pass;
          total.fail += c.fail;
          total.other += c.other;
        }
        const status = tallyStatus(total);
        daily.get(k.id)!.push({ date: day, ...(status === undefined ? {} : { status }) });
      }
    }
    return daily;
  }
}

/** The rule whose class variants list each class's Rev5 controls (`rev5_controls_list` in the rules file). */
export const REV5_CONTROLS_RULE = reliedRule('FRC-CSF-BSL');

/** The rule that asks the SDR to carry the KSI metrics. */
export const METRICS_RULE = reliedRule('SDR-CSX-KMT');

/**
 * The Rev5 controls of a class (SDR-CSF-CTF's "each applicable Rev5 Control"), read from FRC-CSF-BSL's class variant
 * in the rules data, normalized (`AC-02 (01)` → `ac-2.1`) in the file's order; none when the release lists none for
 * the class (Class A in 2026.07.14.01).
 */
export function rev5Controls(rules: Cr26Rules, cls: Cr26Class): string[] {
  const listed = rules.rules.find((r) => r.id === REV5_CONTROLS_RULE)?.varies_by_class?.[cls]?.rev5_controls ?? [];
  return listed.map((id) => normalizeControlId(id) ?? id.toLowerCase());
}

/** What applicability needs of a profile, with PROFILE_DEFAULTS where it gives no path or status. */
export function applicabilityProfile(profile: FedrampProfile & Required<Pick<FedrampProfile, 'type' | 'class'>>): ApplicabilityProfile {
  return {
    type: profile.type,
    class: profile.class,
    path: profile.path ?? PROFILE_DEFAULTS.path,
    status: profile.status ?? PROFILE_DEFAULTS.status,
    ...(profile.next_assessment === undefined ? {} : { next_assessment: profile.next_assessment }),
  };
}

/**
 * What judgeRules reads of a run's picture (DESIGN §12.3): the run's results and time, freshness, each KSI's methods
 * and history, the metric days, and the Rev5 controls with a status (from a result or the provider's `### Status`).
 * `validatedBy`: the schema the documents are validated by (FRC-CSO-JSN), when they are; `vulnerabilities`: the
 * register's facts for the VER and VDR timeframes, when a run is recorded.
 */
export function judgmentFacts(
  scope: Cr26Scope<never>,
  picture: Cr26RunPicture,
  run: { results: number; asOf: string },
  statements: ProviderStatements,
  more: { validatedBy?: string; vulnerabilities?: VulnerabilityFacts; ocrs?: readonly OcrRecord[] } = {},
): JudgmentFacts {
  const evaluation = picture.facts.tally.evaluation();
  return {
    rules: scope.rules,
    type: scope.profile.type,
    class: scope.profile.class,
    run,
    freshness: picture.facts.freshness,
    cadences: scope.cadences,
    ksis: evaluation.ksis.map((k) => ({
      id: k.id,
      methods: k.methods,
      ...(k.methodsRequired ? { methodsRequired: k.methodsRequired } : {}),
      ...(k.methodsMet === undefined ? {} : { methodsMet: k.methodsMet }),
      history: picture.history.get(k.id),
    })),
    ...(picture.metrics === undefined ? {} : { metricDays: picture.metricDays }),
    ...(picture.controls === undefined
      ? {}
      : {
          controls: {
            total: picture.controls.length,
            withStatus: picture.controls.filter((c) => picture.facts.controls.has(c) || statements.byControl.get(c)?.status?.value).length,
          },
        }),
    ...(more.validatedBy === undefined ? {} : { validatedBy: more.validatedBy }),
    ...(more.vulnerabilities === undefined ? {} : { vulnerabilities: more.vulnerabilities }),
    ...(more.ocrs === undefined ? {} : { ocr: ocrFacts(more.ocrs, scope.now) }),
  };
}

/** What CCM-OCR-AVL and CCM-OCR-NRD are judged by: the last recorded OCR, and the next report date the CPO carries. */
function ocrFacts(ocrs: readonly OcrRecord[], now: Date): NonNullable<JudgmentFacts['ocr']> {
  const today = isoSeconds(now).slice(0, 10);
  const last = ocrs.at(-1);
  return last === undefined
    ? { next: nextReportDate(today), today }
    : { last: { ...last.period, next: last.next_report_date }, next: last.next_report_date, today };
}

function toolOf(source: { tool?: unknown } | undefined): string | undefined {
  return typeof source?.tool === 'string' && source.tool !== '' ? source.tool : undefined;
}

function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/** The run of `runs` with the latest as_of (of two as of the same time, the one recorded last); undefined for none. */
function newestOf(runs: readonly RunSummary[]): RunSummary | undefined {
  return runs.reduce<RunSummary | undefined>(
    (newest, run) => (newest === undefined || Date.parse(run.as_of) >= Date.parse(newest.as_of) ? run : newest),
    undefined,
  );
}
