import { inject, injectable } from 'tsyringe';
import { assessor } from '../../domain/assessment/assessment';
import { runAsOf } from '../../domain/artifacts/run-context';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { recordStep, type PreviousRun } from '../../domain/conmon/record-run';
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
import { readStoredResults } from '../shared/stored-bundle';
import { RunDocuments } from './run-documents';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { jsonText } from '../../domain/encoding/json-chunks';
import { nextGroups, VULNERABILITIES_DOCUMENT, VULNERABILITIES_SCHEMA, type StoredGroup, type VulnerabilityGroups } from '../../domain/vulnerabilities/groups';
import { readStoredGroups } from '../shared/stored-groups';
import { PolicyEvaluator } from '../vulnerabilities/vulnerability-register';

export interface ProcessRunInput {
  input: string;
  /** Sink specs (`--sink`); without any, the sinks of svc.config.json's conmon.sinks. */
  sinks?: readonly string[];
  /** PEM private key that signs the run's SAR (`--key`); else SVC_SIGNING_KEY, else the development key. */
  key?: string;
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

  async execute({ input, sinks, key: keyPath, now: at }: ProcessRunInput): Promise<ProcessRunResult> {
    const destinations = this.sinks.open(sinks && sinks.length > 0 ? sinks : this.settings.conmon.sinks);
    const run = await this.runs.load({ input, compact: true, ...(at === undefined ? {} : { at }) });
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
    let groupsBefore: StoredGroup[] = [];
    let groupsAfter: StoredGroup[] | undefined;
    const outcome = await this.store.append(
      id,
      async (latest, seq) => {
        groupsBefore = latest === undefined ? [] : await readStoredGroups(this.store, latest.summary);
        return recordStep(
          { id, record, context: run.context, asOf, recordedAt: now, merkleRoot: run.merkleRoot, counts: run.counts, side: run },
          latest && (await this.previous(latest, run.catalog)),
          seq,
          uuid,
        );
      },
      (stored) => {
        const detections = run.detections ?? [];
        const sources = this.documents.sources(stored, run, key);
        if (detections.length === 0 && groupsBefore.length === 0) return sources;
        groupsAfter = nextGroups(groupsBefore, detections, asOf, this.hashing, evaluate);
        const groups: VulnerabilityGroups = { schema: VULNERABILITIES_SCHEMA, as_of: asOf, groups: groupsAfter };
        return [...sources, { name: VULNERABILITIES_DOCUMENT, media_type: 'application/json', chunks: [jsonText(groups, 'canonical')] }];
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
      ...(outcome.recorded ? { key: { ...key.origin, keyid: key.keyid } } : {}),
      ...(groupsAfter === undefined ? {} : { vulnerabilities: { groups: groupsAfter.length, open: groupsAfter.filter((g) => g.remediated_at === undefined).length, policy_evaluations: evaluated } }),
    };
  }

  /** The run's record: the report's own facts (its evidence bundle is stored beside it, as a document). */
  private recordOf(run: LoadedRun): RunRecord {
    const { source, generatedAt } = run.context;
    const report = run.meta && {
      ...(run.meta.schema_version !== undefined ? { schema_version: run.meta.schema_version } : {}),
      ...(generatedAt !== undefined ? { generated_at: generatedAt } : {}),
      ...(source ? { source } : {}),
    };
    const detections = run.detections ?? [];
    const vulnerabilities = detections.length === 0 ? undefined : { detections: detections.length, sha256: this.hashing.sha256(this.hashing.canonicalize(detections)) };
    return { schema: RUN_RECORD_SCHEMA, ...(report ? { report } : {}), ...(vulnerabilities ? { vulnerabilities } : {}) };
  }

  /** The latest recorded run, read from its stored bundle and assessed again with today's catalog, for the drift comparison. */
  private async previous(stored: StoredRun, catalog: KsiCatalog): Promise<PreviousRun> {
    const results = await readStoredResults(this.store, stored.summary, assessor(catalog, this.settings.governance));
    const report = stored.record.report;
    return { stored, side: { meta: report && { schema_version: report.schema_version, source: report.source }, results } };
  }
}

function* concat<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}
