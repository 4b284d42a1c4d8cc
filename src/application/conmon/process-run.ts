import { inject, injectable } from 'tsyringe';
import { assessor, type AssessedResult } from '../../domain/assessment/assessment';
import { worstStatus } from '../../domain/ksi/status';
import { runAsOf } from '../../domain/artifacts/run-context';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { recordStep, type EventTally } from '../../domain/conmon/record-run';
import {
  checkSourceName,
  DETECTIONS_DOCUMENT,
  DETECTIONS_SCHEMA,
  latestOfEachSource,
  lostDetections,
  namedSource,
  sourceKey,
  stateDetections,
} from '../../domain/conmon/run-sources';
import type { DriftSide } from '../../domain/drift/drift-detection';
import { recordFrame, RUN_RECORD_SCHEMA, type DecidedRun, type RunRecord, type RunSummary, type StoredRun } from '../../domain/conmon/run-record';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import { InvalidInputError } from '../../domain/errors';
import type { DriftSeverity } from '../../domain/drift/drift-finding';
import { SVC_UUID_NAMESPACE } from '../../domain/oscal/oscal-run';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type AppendedRun, type AppendRequest, type RunStore, type RunView } from '../../ports/run-store';
import { prunePlan, type PruneRecord } from '../../domain/conmon/retention';
import { SECURITY_EVENT_SINKS, type DeliveryReport, type SecurityEventSinks } from '../../ports/security-event-sink';
import { SIGNER, type Signer, type SigningKey } from '../../ports/signer';
import { UUIDS, type Uuids } from '../../ports/uuids';
import { RunLoader, type LoadedRun } from '../shared/run-loader';
import { eachStoredResult, readStoredResults } from '../shared/stored-bundle';
import { RunDocuments } from './run-documents';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { jsonText } from '../../domain/encoding/json-chunks';
import { nextGroups, VULNERABILITIES_DOCUMENT, VULNERABILITIES_SCHEMA, type StoredGroup, type VulnerabilityGroups } from '../../domain/vulnerabilities/groups';
import { readStoredDetections, readStoredGroups } from '../shared/stored-groups';
import { historyBefore } from '../shared/stored-ksi-history';
import type { KsiHistory } from '../../domain/conmon/ksi-history';
import { PolicyEvaluator } from '../vulnerabilities/vulnerability-register';

export interface ProcessRunInput {
  input: string;
  /** Sink specs (`--sink`); without any, the sinks of svc.config.json's conmon.sinks. */
  sinks?: readonly string[];
  /** PEM private key that signs the run's SAR (`--key`); else SVC_SIGNING_KEY, else the development key. */
  key?: string;
  /**
   * `--source`: the name of the source this report is the latest part of (docs/conmon.md, "Sources"); checked by
   * checkSourceName. Default: the report's tool and tenant.
   */
  source?: string;
  /** The run's time instead of the clock's (`--now`): when it is recorded, and its as-of time when the report gives none. */
  now?: Date;
}

export interface ProcessRunResult {
  store: string;
  /** False when the same run was recorded before: its stored events were sent again. */
  recorded: boolean;
  run: RunSummary;
  events: number;
  drift: Record<DriftSeverity, number>;
  deliveries: DeliveryReport[];
  /** The key the run's SAR envelope was signed with (when it was recorded now). */
  key?: SigningKey['origin'] & { keyid: string };
  /** The source this run is the latest part of (docs/conmon.md, "Sources"). */
  source: string;
  /** The input names an svc adapter but carries no `vulnerabilities[]`: something on the way dropped them. */
  lostDetections?: true;
  /** A run with detections, or after one: its vulnerability groups and the policy evaluations recorded with it for new ones. */
  vulnerabilities?: { groups: number; open: number; policy_evaluations: number };
  /**
   * What the retention (conmon.retention) pruned after the call recorded its runs: on the last result, when it pruned
   * any run (domain/conmon/retention.ts).
   */
  pruned?: { runs: number; documents: number; bytes: number; keep_days: number; before: string; journal_seq: number };
}

/**
 * `svc conmon process`: records a run in the run store, moves the POA&M lifecycle on from the latest recorded run,
 * classifies the drift between them, and sends one event per change to each sink. The run is recorded before any
 * sink is tried, so a failing SIEM never loses it; processing the same input again records nothing and sends its
 * stored events again (each keeps its event_id, so a SIEM can drop repeats).
 */
@injectable()
export class ProcessRun {
  constructor(
    private readonly runs: RunLoader,
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(SECURITY_EVENT_SINKS) private readonly sinks: SecurityEventSinks,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(UUIDS) private readonly uuids: Uuids,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(SIGNER) private readonly signer: Signer,
    private readonly documents: RunDocuments,
    private readonly policy: PolicyEvaluator,
  ) {}

  async execute({ input, ...rest }: ProcessRunInput): Promise<ProcessRunResult> {
    const [result] = await this.executeAll({ ...rest, inputs: [input] });
    return result;
  }

  /**
   * Records each input, in the order given, as the latest part of its source, all in one store transaction: each is
   * decided from the store as the ones before it left it, and all are committed, or none (an unreadable report, a
   * failing store). The first report is read and the signing key loaded before the store is locked; each later report
   * is read in its turn, so one run is in memory at a time. Events are sent once everything is committed.
   */
  async executeAll({ inputs, sinks, key: keyPath, source: name, now: at }: ProcessRunsInput): Promise<ProcessRunResult[]> {
    if (name !== undefined) {
      checkSourceName(name);
      if (inputs.length > 1) {
        throw new InvalidInputError(
          'invalid-source',
          `--source names one source, and ${inputs.length} reports were given; record each with its own --source, or leave it out to name each by its scanner and tenant`,
        );
      }
    }
    if (inputs.length === 0) return [];
    const destinations = this.sinks.open(sinks && sinks.length > 0 ? sinks : this.settings.conmon.sinks);
    const load = async (input: string) => named(await this.runs.load({ input, compact: true, ...(at === undefined ? {} : { at }) }), name);
    // Loaded before the store is locked: a key that cannot sign, or a first report that cannot be read, stops the
    // command before anything is recorded.
    const key = await this.signer.load(keyPath);
    const policy = new Lazy(() => this.policy.evaluator());
    let next: Recording | undefined = await this.recording(await load(inputs[0]), key, policy);
    const recordings: Recording['facts'][] = [];
    const record = async (input: string) => this.recording(await load(input), key, policy);
    async function* requests(): AsyncGenerator<AppendRequest> {
      for (const input of inputs) {
        const recording: Recording = next ?? (await record(input));
        next = undefined;
        recordings.push(recording.facts);
        yield recording.request;
      }
    }
    const appended = await this.store.appendAll(requests());
    const results: ProcessRunResult[] = [];
    for (const [k, { recorded, summary }] of appended.entries()) {
      const facts = recordings[k];
      // A run recorded before, or one whose events a sink needs: its events as stored.
      const stored = !recorded || destinations.length > 0 ? await this.store.get(summary.id) : undefined;
      // Counted as the run was decided (recordStep); a run recorded before: its stored events.
      const tally = (recorded ? facts.events : undefined) ?? tallyEvents(stored?.events ?? []);
      const events = stored?.events ?? [];
      // A sink is given the events at once (a run of a million results can have half a million: docs/conmon.md).
      const deliveries = await Promise.all(destinations.map((sink) => sink.deliver(events)));
      const groups = facts.groups;
      results.push({
        store: this.store.location,
        recorded,
        run: summary,
        events: tally.events,
        drift: tally.drift,
        deliveries,
        source: facts.source,
        ...(facts.lostDetections ? { lostDetections: true as const } : {}),
        ...(recorded ? { key: { ...key.origin, keyid: key.keyid } } : {}),
        ...(recorded && groups !== undefined ? { vulnerabilities: groups } : {}),
      });
    }
    const pruned = await this.prune(appended);
    if (pruned !== undefined) results[results.length - 1].pruned = pruned;
    return results;
  }

  /**
   * With a retention setting, once runs were recorded: prunes the documents of the runs older than keep_days before
   * the newest run's as_of (the store's own time, so a store nobody records in keeps everything), but the latest run
   * of each source and those of OCR snapshots. Recorded at the last recorded run's time.
   */
  private async prune(appended: readonly AppendedRun[]): Promise<ProcessRunResult['pruned']> {
    const { retention } = this.settings.conmon;
    const last = appended.filter((a) => a.recorded).at(-1);
    if (retention === undefined || last === undefined) return undefined;
    const newest = (runs: readonly RunSummary[]) => new Date(runs.reduce((at, r) => Math.max(at, Date.parse(r.as_of)), 0));
    const outcome = await this.store.prune((runs, journal) => prunePlan(runs, journal, retention, newest(runs)), last.summary.recorded_at);
    if (outcome.entry === undefined) return undefined;
    const record = outcome.entry.record as unknown as PruneRecord;
    return {
      runs: record.runs.length,
      documents: outcome.documents,
      bytes: outcome.bytes,
      keep_days: record.keep_days,
      before: record.before,
      journal_seq: outcome.entry.seq,
    };
  }

  /**
   * What recording `run` asks of the store (its id, its decision, its documents), and what the recording learns of it
   * as the store decides it.
   */
  private async recording(run: LoadedRun, key: SigningKey, policy: Lazy<Evaluate>): Promise<Recording> {
    const record = this.recordOf(run);
    // The id is the SHA-256 of the record with its bundle, hashed as the bundle is written out: never one string.
    const frame = recordFrame(record);
    const id = this.hashing.sha256Pieces(concat([frame.prefix], this.documents.bundle(run), [frame.suffix]));
    const now = isoSeconds(run.context.runAt);
    const asOf = runAsOf(run.context);
    const uuid = (key: string) => this.uuids.v5(SVC_UUID_NAMESPACE, key);
    const detections = run.detections ?? [];
    const evaluate = detections.length > 0 ? await policy.get() : undefined;
    const part = sourceKey(run.context.source);
    const facts: Recording['facts'] = { source: part, lostDetections: lostDetections(run.context.source, run.detections) };
    let groupsAfter: StoredGroup[] | undefined;
    let history: KsiHistory | undefined;
    const decide = async (latest: StoredRun | undefined, seq: number, view: RunView) => {
      history = await historyBefore(view, latest?.summary);
      // The state before this run: every source's latest run. This run replaces its own source's part.
      const state = latest === undefined ? [] : latestOfEachSource(await view.list());
      const same = state.find((s) => sourceKey(s.source) === part);
      const otherParts = state.filter((s) => s !== same);
      const groupsBefore = latest === undefined ? [] : await readStoredGroups(view, latest.summary);
      if (detections.length > 0 || groupsBefore.length > 0) {
        const carried = stateDetections(
          await Promise.all(otherParts.map(async (s) => ({ source: s.source, detections: await readStoredDetections(view, s) }))),
        );
        groupsAfter = nextGroups(groupsBefore, [...detections, ...carried.detections], asOf, this.hashing, evaluate, {
          carried: new Set(carried.detections),
          unknownTools: carried.unknownTools,
        });
        const known = new Set(groupsBefore.map((g) => g.finding_id));
        facts.groups = {
          groups: groupsAfter.length,
          open: groupsAfter.filter((g) => g.remediated_at === undefined).length,
          policy_evaluations: groupsAfter.filter((g) => !known.has(g.finding_id) && g.policy !== undefined).length,
        };
      }
      const sameRun = same === undefined ? undefined : same.id === latest?.summary.id ? latest : await view.get(same.id);
      const others = await this.othersWorst(view, otherParts, run);
      const step = recordStep(
        { id, record, context: run.context, asOf, recordedAt: now, merkleRoot: run.merkleRoot, counts: run.counts, side: run, others },
        latest && { poam: latest.poam, ...(sameRun === undefined ? {} : { side: await this.previous(view, sameRun, run.catalog) }) },
        seq,
        uuid,
      );
      facts.events = step.tally;
      return step;
    };
    const produce = (stored: DecidedRun) => {
      const sources = this.documents.sources(stored, run, key, history);
      const found =
        detections.length === 0
          ? []
          : [{ name: DETECTIONS_DOCUMENT, media_type: 'application/json', chunks: [jsonText({ schema: DETECTIONS_SCHEMA, detections }, 'canonical')] }];
      if (groupsAfter === undefined) return [...sources, ...found];
      const groups: VulnerabilityGroups = { schema: VULNERABILITIES_SCHEMA, as_of: asOf, groups: groupsAfter };
      return [...sources, ...found, { name: VULNERABILITIES_DOCUMENT, media_type: 'application/json', chunks: [jsonText(groups, 'canonical')] }];
    };
    return { request: { id, decide, produce }, facts };
  }

  /** The run's record: the report's own facts (its evidence bundle is stored beside it, as a document). */
  private recordOf(run: LoadedRun): RunRecord {
    const { source, generatedAt } = run.context;
    const report = (run.meta || source) && {
      ...(run.meta?.schema_version !== undefined ? { schema_version: run.meta.schema_version } : {}),
      ...(generatedAt !== undefined ? { generated_at: generatedAt } : {}),
      ...(source ? { source } : {}),
    };
    const detections = run.detections ?? [];
    const vulnerabilities =
      detections.length === 0 ? undefined : { detections: detections.length, sha256: this.hashing.sha256(this.hashing.canonicalize(detections)) };
    return { schema: RUN_RECORD_SCHEMA, ...(report ? { report } : {}), ...(vulnerabilities ? { vulnerabilities } : {}) };
  }

  /**
   * The other sources' worst result of each KSI this run reports, from their latest runs (read one result at a time,
   * only those KSIs kept): what the POA&M lifecycle judges this run's results against.
   */
  private async othersWorst(store: RunView, others: readonly RunSummary[], run: LoadedRun): Promise<Map<string, AssessedResult>> {
    const worst = new Map<string, AssessedResult>();
    if (others.length === 0) return worst;
    const reported = new Set(run.results.map((r) => r.item.result.ksi_id));
    const assess = assessor(run.catalog, this.settings.governance);
    for (const summary of others) {
      await eachStoredResult(store, summary, assess, ({ item }) => {
        if (!reported.has(item.result.ksi_id)) return;
        const kept = worst.get(item.result.ksi_id);
        if (kept === undefined || worstStatus(kept.result.status, item.result.status) !== kept.result.status) worst.set(item.result.ksi_id, item);
      });
    }
    return worst;
  }

  /** A source's latest recorded run, read from its stored bundle and assessed again with today's catalog, for the drift comparison. */
  private async previous(store: RunView, stored: StoredRun, catalog: KsiCatalog): Promise<DriftSide> {
    const results = await readStoredResults(store, stored.summary, assessor(catalog, this.settings.governance));
    const report = stored.record.report;
    return { meta: report && { schema_version: report.schema_version, source: report.source }, results };
  }
}

export interface ProcessRunsInput extends Omit<ProcessRunInput, 'input'> {
  /** The reports, each the latest part of its source; `source` names the source of one report only. */
  inputs: readonly string[];
}

type Evaluate = Awaited<ReturnType<PolicyEvaluator['evaluator']>>;

/** One report's recording: the request for the store, and what is learnt of the run as it is decided. */
interface Recording {
  request: AppendRequest;
  facts: {
    source: string;
    lostDetections: boolean;
    events?: EventTally;
    groups?: NonNullable<ProcessRunResult['vulnerabilities']>;
  };
}

/** The number of events and of drift findings by severity. */
function tallyEvents(events: Iterable<ConmonEvent>): EventTally {
  const drift = { P1: 0, P2: 0, P3: 0, P4: 0 };
  let count = 0;
  for (const event of events) {
    count += 1;
    if (event.kind === 'drift.detected') drift[event.data.severity as DriftSeverity] += 1;
  }
  return { events: count, drift };
}

/** A value made once, when first asked for. */
class Lazy<T> {
  private made: Promise<T> | undefined;
  constructor(private readonly make: () => Promise<T>) {}
  get(): Promise<T> {
    this.made ??= this.make();
    return this.made;
  }
}

/** The run recorded as the source `name` (`--source`), when one is given. */
function named(run: LoadedRun, name: string | undefined): LoadedRun {
  if (name === undefined) return run;
  const source = namedSource(run.context.source, name);
  return { ...run, context: { ...run.context, source }, ...(run.meta === undefined ? {} : { meta: { ...run.meta, source } }) };
}

function* concat<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}
