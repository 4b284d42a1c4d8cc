import { inject, injectable } from 'tsyringe';
import { assessor, type AssessedResult } from '../../domain/assessment/assessment';
import { worstStatus } from '../../domain/ksi/status';
import { runAsOf } from '../../domain/artifacts/run-context';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { recordStep } from '../../domain/conmon/record-run';
import { checkSourceName, DETECTIONS_DOCUMENT, DETECTIONS_SCHEMA, latestOfEachSource, lostDetections, namedSource, sourceKey, stateDetections } from '../../domain/conmon/run-sources';
import type { DriftSide } from '../../domain/drift/drift-detection';
import { recordFrame, RUN_RECORD_SCHEMA, type RunRecord, type RunSummary, type StoredRun } from '../../domain/conmon/run-record';
import type { DriftSeverity } from '../../domain/drift/drift-finding';
import { SVC_UUID_NAMESPACE } from '../../domain/oscal/oscal-run';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
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

  async execute({ input, sinks, key: keyPath, source: name, now: at }: ProcessRunInput): Promise<ProcessRunResult> {
    if (name !== undefined) checkSourceName(name);
    const destinations = this.sinks.open(sinks && sinks.length > 0 ? sinks : this.settings.conmon.sinks);
    const run = named(await this.runs.load({ input, compact: true, ...(at === undefined ? {} : { at }) }), name);
    // Loaded before the store is locked: a key that cannot sign stops the command before anything is recorded.
    const key = await this.signer.load(keyPath);
    const record = this.recordOf(run);
    // The id is the SHA-256 of the record with its bundle, hashed as the bundle is written out: never one string.
    const frame = recordFrame(record);
    const id = this.hashing.sha256Pieces(concat([frame.prefix], this.documents.bundle(run), [frame.suffix]));
    const now = isoSeconds(run.context.runAt);
    const asOf = runAsOf(run.context);
    const uuid = (key: string) => this.uuids.v5(SVC_UUID_NAMESPACE, key);
    // The policy (and the KEV catalog it reads) is ready before the store is locked.
    const evaluate = (run.detections ?? []).length > 0 ? await this.policy.evaluator() : undefined;
    const part = sourceKey(run.context.source);
    let groupsBefore: StoredGroup[] = [];
    let groupsAfter: StoredGroup[] | undefined;
    const outcome = await this.store.append(
      id,
      async (latest, seq) => {
        // The state before this run: every source's latest run. This run replaces its own source's part.
        const state = latest === undefined ? [] : latestOfEachSource(await this.store.list());
        const same = state.find((s) => sourceKey(s.source) === part);
        const otherParts = state.filter((s) => s !== same);
        groupsBefore = latest === undefined ? [] : await readStoredGroups(this.store, latest.summary);
        const detections = run.detections ?? [];
        if (detections.length > 0 || groupsBefore.length > 0) {
          const carried = stateDetections(await Promise.all(otherParts.map(async (s) => ({ source: s.source, detections: await readStoredDetections(this.store, s) }))));
          groupsAfter = nextGroups(groupsBefore, [...detections, ...carried.detections], asOf, this.hashing, evaluate, { carried: new Set(carried.detections), unknownTools: carried.unknownTools });
        }
        const sameRun = same === undefined ? undefined : same.id === latest?.summary.id ? latest : await this.store.get(same.id);
        const others = await this.othersWorst(otherParts, run);
        return recordStep(
          { id, record, context: run.context, asOf, recordedAt: now, merkleRoot: run.merkleRoot, counts: run.counts, side: run, others },
          latest && { poam: latest.poam, ...(sameRun === undefined ? {} : { side: await this.previous(sameRun, run.catalog) }) },
          seq,
          uuid,
        );
      },
      (stored) => {
        const detections = run.detections ?? [];
        const sources = this.documents.sources(stored, run, key);
        const found = detections.length === 0 ? [] : [{ name: DETECTIONS_DOCUMENT, media_type: 'application/json', chunks: [jsonText({ schema: DETECTIONS_SCHEMA, detections }, 'canonical')] }];
        if (groupsAfter === undefined) return [...sources, ...found];
        const groups: VulnerabilityGroups = { schema: VULNERABILITIES_SCHEMA, as_of: asOf, groups: groupsAfter };
        return [...sources, ...found, { name: VULNERABILITIES_DOCUMENT, media_type: 'application/json', chunks: [jsonText(groups, 'canonical')] }];
      },
    );
    const { summary } = outcome.run;
    const known = new Set(groupsBefore.map((g) => g.finding_id));
    const evaluated = groupsAfter === undefined ? 0 : groupsAfter.filter((g) => !known.has(g.finding_id) && g.policy !== undefined).length;
    const drift = { P1: 0, P2: 0, P3: 0, P4: 0 };
    let count = 0;
    for (const event of outcome.run.events) {
      count += 1;
      if (event.kind === 'drift.detected') drift[event.data.severity as DriftSeverity] += 1;
    }
    // A sink is given the events at once (a run of a million results can have half a million: docs/conmon.md).
    const events = destinations.length > 0 ? [...outcome.run.events] : [];
    const deliveries = await Promise.all(destinations.map((sink) => sink.deliver(events)));
    return {
      store: this.store.location,
      recorded: outcome.recorded,
      run: summary,
      events: count,
      drift,
      deliveries,
      source: part,
      ...(lostDetections(run.context.source, run.detections) ? { lostDetections: true as const } : {}),
      ...(outcome.recorded ? { key: { ...key.origin, keyid: key.keyid } } : {}),
      ...(groupsAfter === undefined ? {} : { vulnerabilities: { groups: groupsAfter.length, open: groupsAfter.filter((g) => g.remediated_at === undefined).length, policy_evaluations: evaluated } }),
    };
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
    const vulnerabilities = detections.length === 0 ? undefined : { detections: detections.length, sha256: this.hashing.sha256(this.hashing.canonicalize(detections)) };
    return { schema: RUN_RECORD_SCHEMA, ...(report ? { report } : {}), ...(vulnerabilities ? { vulnerabilities } : {}) };
  }

  /**
   * The other sources' worst result of each KSI this run reports, from their latest runs (read one result at a time,
   * only those KSIs kept): what the POA&M lifecycle judges this run's results against.
   */
  private async othersWorst(others: readonly RunSummary[], run: LoadedRun): Promise<Map<string, AssessedResult>> {
    const worst = new Map<string, AssessedResult>();
    if (others.length === 0) return worst;
    const reported = new Set(run.results.map((r) => r.item.result.ksi_id));
    const assess = assessor(run.catalog, this.settings.governance);
    for (const summary of others) {
      await eachStoredResult(this.store, summary, assess, ({ item }) => {
        if (!reported.has(item.result.ksi_id)) return;
        const kept = worst.get(item.result.ksi_id);
        if (kept === undefined || worstStatus(kept.result.status, item.result.status) !== kept.result.status) worst.set(item.result.ksi_id, item);
      });
    }
    return worst;
  }

  /** A source's latest recorded run, read from its stored bundle and assessed again with today's catalog, for the drift comparison. */
  private async previous(stored: StoredRun, catalog: KsiCatalog): Promise<DriftSide> {
    const results = await readStoredResults(this.store, stored.summary, assessor(catalog, this.settings.governance));
    const report = stored.record.report;
    return { meta: report && { schema_version: report.schema_version, source: report.source }, results };
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
