import { inject, injectable } from 'tsyringe';
import { evidenceBundleChunks } from '../../domain/artifacts/evidence-bundle';
import type { HashedResult } from '../../domain/assessment/assessment';
import { entryText } from '../../domain/assessment/entry-result';
import { EVIDENCE_BUNDLE_DOCUMENT, type DecidedRun, type RunDocument } from '../../domain/conmon/run-record';
import { countKsis, KSI_COUNTS_DOCUMENT, ksiCountsChunks, type CountedResult, type KsiCounted } from '../../domain/conmon/ksi-counts';
import { KSI_HISTORY_DOCUMENT, ksiHistoryChunks, nextKsiHistory, type KsiHistory } from '../../domain/conmon/ksi-history';
import { formatDigest, type ContentDigest } from '../../domain/evidence/content-digest';
import { evidenceTrace } from '../../domain/evidence/evidence-trace';
import { merkleProofs, type ProofStep } from '../../domain/evidence/merkle';
import { jsonChunks, jsonText } from '../../domain/encoding/json-chunks';
import { buildSap } from '../../domain/oscal/assessment-plan';
import { hasOpenResults } from '../../domain/oscal/assessment-findings';
import { buildSar } from '../../domain/oscal/assessment-results';
import type { Json, OscalRun } from '../../domain/oscal/oscal-run';
import { buildOscalPoam } from '../../domain/oscal/plan-of-action-and-milestones';
import { buildSsp } from '../../domain/oscal/system-security-plan';
import { HASHING, type Hashing } from '../../ports/hashing';
import type { DocumentChunks, RunDocumentSource } from '../../ports/run-store';
import type { SigningKey } from '../../ports/signer';
import { runRef, type RunRef } from '../auditor/run-ref';
import { historyRun } from '../shared/stored-ksi-history';
import { evidenceIndexSources } from './evidence-index-sources';
import { runPageSources } from './run-pages';
import { sarEnvelopeChunks } from '../oscal/generate-sar';
import { OscalRunLoader } from '../oscal/oscal-run-loader';
import { BUNDLE_FILE_ROLES, type LoadedRun } from '../shared/run-loader';

const JSON_TYPE = 'application/json';
export const DSSE_TYPE = 'application/vnd.dsse.envelope.v1+json';

/** The documents svc-api serves for a run, by name: where, and as what. */
export const RUN_DOCUMENTS = {
  'ssp.json': { href: '/auditor/oscal/ssp', media_type: JSON_TYPE },
  'sar.json': { href: '/auditor/oscal/sar', media_type: JSON_TYPE },
  'sar.json.dsse.json': { href: '/auditor/oscal/sar?envelope=1', media_type: DSSE_TYPE },
  'sap.json': { href: '/auditor/oscal/sap', media_type: JSON_TYPE },
  'poam.json': { href: '/auditor/oscal/poam', media_type: JSON_TYPE },
} as const;
export type ServedDocumentName = keyof typeof RUN_DOCUMENTS;
export const MANIFEST_DOCUMENT = 'manifest.json';

export interface ManifestArtifact {
  name: string;
  /** The API path that serves it. */
  href: string;
  media_type: string;
  /** `sha256:<hex>` of the bytes that path serves. */
  sha256: string;
  bytes: number;
}

/** GET /auditor/manifest: the run and the digest of every document the auditor routes serve for it. */
export interface RunManifest {
  run: RunRef;
  recorded_at: string;
  input: { name: string; sha256: string };
  counts: Record<string, number>;
  /** The recorded evidence-bundle.json: its digest (as `svc ir auditor-bundle` wrote it) and entry count. */
  evidence_bundle: { sha256: string; entries: number; href: string };
  artifacts: ManifestArtifact[];
}

/**
 * The documents stored with a recorded run (docs/conmon.md, "Run documents"): its evidence bundle, the OSCAL SSP,
 * SAR, SAP and POA&M in RFC 8785 canonical form, the SAR's DSSE envelope signed with the recording process's key, a
 * graph per baseline control, the evidence, findings and POA&M lists as pages, the evidence list's index by content
 * hash (evidenceIndexSources), and a manifest of the OSCAL documents' digests. They are what svc-api serves for the run, byte for byte, so no request builds one. Each is written as the
 * store reaches it, from the run being recorded as it reads back from the store (its evidence is the stored bundle,
 * its time the recorded time).
 */
@injectable()
export class RunDocuments {
  constructor(
    private readonly oscal: OscalRunLoader,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  /**
   * The run's canonical evidence-bundle.json, a piece at a time: the first document, and the record's `bundle`. A
   * bundle recorded is stored as the bytes it was (its source and detections too); a report's as its entries alone
   * (its source and detections are in the record), as svc always stored them, so a report keeps its run id.
   */
  bundle(loaded: LoadedRun): Iterable<string> {
    return {
      [Symbol.iterator]: () => evidenceBundleChunks(entriesOf(loaded.results, this.hashing), loaded.context.input, loaded.merkleRoot, loaded.bundleFacts),
    };
  }

  /** `history`: the KSI history of the run before it (stored-ksi-history.ts: historyBefore), this run's adds it. */
  sources(stored: DecidedRun, loaded: LoadedRun, key: SigningKey, history: KsiHistory | undefined): RunDocumentSource[] {
    const { report } = stored.record;
    let described: OscalRun | undefined;
    // The run as it reads back from the store, once its bundle is stored: that is its evidence file, and its time
    // is the recorded time.
    const oscal = (before: readonly RunDocument[]) =>
      (described ??= this.oscal.describe({
        ...loaded,
        context: {
          input: loaded.context.input,
          runAt: new Date(stored.summary.recorded_at),
          ...(report?.source ? { source: report.source } : {}),
          ...(report?.generated_at ? { generatedAt: report.generated_at } : {}),
        },
        entriesFile: EVIDENCE_BUNDLE_DOCUMENT,
        files: [
          {
            name: EVIDENCE_BUNDLE_DOCUMENT,
            sha256: digestOf(before, EVIDENCE_BUNDLE_DOCUMENT),
            mediaType: JSON_TYPE,
            description: BUNDLE_FILE_ROLES[EVIDENCE_BUNDLE_DOCUMENT],
          },
        ],
      }));
    let sarDocument: Json | undefined;
    const sar = (before: readonly RunDocument[]) => (sarDocument ??= buildSar(oscal(before)));
    // Canonical text in pieces: a document with one entry per result is never one string.
    const canonical =
      (build: (run: OscalRun) => Json) =>
      (before: readonly RunDocument[]): DocumentChunks => ({ [Symbol.iterator]: () => jsonChunks(build(oscal(before)), 'canonical') });
    const sources: Partial<Record<ServedDocumentName, (before: readonly RunDocument[]) => DocumentChunks>> = {
      'ssp.json': canonical(buildSsp),
      'sar.json': (before) => ({ [Symbol.iterator]: () => jsonChunks(sar(before), 'canonical') }),
      // The store has hashed sar.json by now: the envelope signs that digest.
      'sar.json.dsse.json': (before) => ({
        [Symbol.iterator]: () => sarEnvelopeChunks(oscal(before), sar(before), { name: 'sar.json', sha256Hex: digestOf(before, 'sar.json') }, key),
      }),
      'sap.json': canonical(buildSap),
      'poam.json': canonical(buildOscalPoam),
    };
    // The run's KSI counts, made once for the counts and the history (one pass over the results).
    let counted: KsiCounted | undefined;
    const counts = () => (counted ??= countKsis(ksiStatuses(loaded.results)));
    // An OSCAL POA&M needs an item: a run whose every result passed has none.
    if (!hasOpenResults(loaded)) delete sources['poam.json'];
    return [
      { name: EVIDENCE_BUNDLE_DOCUMENT, media_type: JSON_TYPE, chunks: this.bundle(loaded) },
      ...Object.entries(sources).map(([name, chunks]) => ({ name, media_type: RUN_DOCUMENTS[name as ServedDocumentName].media_type, chunks })),
      ...this.graphs(stored, loaded),
      ...runPageSources(stored, loaded.results, this.hashing),
      ...evidenceIndexSources({ length: loaded.results.length, hashAt: (position) => loaded.results[position].hash }),
      { name: KSI_COUNTS_DOCUMENT, media_type: JSON_TYPE, chunks: ksiCountsChunks(counts) },
      {
        name: KSI_HISTORY_DOCUMENT,
        media_type: JSON_TYPE,
        chunks: () => ksiHistoryChunks(nextKsiHistory(history, [{ run: historyRun(stored.summary), rows: counts().rows }])),
      },
      {
        name: MANIFEST_DOCUMENT,
        media_type: JSON_TYPE,
        chunks: (before: readonly RunDocument[]) => [jsonText(this.manifest(stored, loaded, before), 'canonical')],
      },
    ];
  }

  /**
   * `graph.<control>.json` for every control of the baseline: GET /auditor/graph/{control_id}, each evidence node with
   * its inclusion proof. The entries are grouped by control and the audit paths of those a graph shows computed once,
   * so a large run's graphs cost about one pass over it, not one per control.
   */
  private graphs(stored: DecidedRun, run: LoadedRun): RunDocumentSource[] {
    const { results, merkleRoot, catalog } = run;
    let prepared: { proofs: Map<number, ProofStep[]>; byControl: Map<string, number[]> } | undefined;
    // Made when the first graph is written, and kept for the rest of them: the audit paths of the results a graph
    // shows (those mapped to a control), not a tree of every result.
    const prepare = () => {
      if (prepared) return prepared;
      const byControl = new Map<string, number[]>();
      results.forEach(({ item }, i) => {
        for (const control of item.definition?.controls ?? []) {
          const list = byControl.get(control);
          if (list) list.push(i);
          else byControl.set(control, [i]);
        }
      });
      const shown = new Set([...byControl.values()].flat());
      return (prepared = {
        proofs: merkleProofs(
          results.map((r) => r.hash),
          shown,
          this.hashing,
        ),
        byControl,
      });
    };
    return catalog.data.baseline_controls.map(({ id: control }) => ({
      name: graphDocument(control),
      media_type: JSON_TYPE,
      chunks: {
        [Symbol.iterator]: () => {
          const { proofs, byControl } = prepare();
          const positions = byControl.get(control) ?? [];
          const trace = evidenceTrace({
            items: positions.map((i) => results[i].item),
            hashes: positions.map((i) => results[i].hash),
            merkleRoot,
            catalog,
            control,
            positions,
            proofOf: (j) => proofs.get(positions[j]) as ProofStep[],
          });
          return jsonChunks({ run: runRef(stored.summary), ...trace }, 'canonical');
        },
      },
    }));
  }

  private manifest(stored: DecidedRun, run: LoadedRun, before: readonly RunDocument[]): RunManifest {
    const { summary } = stored;
    const artifacts = before
      .filter((document) => document.name in RUN_DOCUMENTS)
      .map((document) => ({
        name: document.name,
        href: RUN_DOCUMENTS[document.name as ServedDocumentName].href,
        media_type: document.media_type,
        sha256: formatDigest(document.sha256),
        bytes: document.bytes,
      }));
    return {
      run: runRef(summary),
      recorded_at: summary.recorded_at,
      input: { name: summary.input.name, sha256: formatDigest(summary.input.sha256) },
      counts: { ...summary.counts },
      evidence_bundle: { sha256: formatDigest(digestOf(before, EVIDENCE_BUNDLE_DOCUMENT)), entries: run.results.length, href: '/auditor/evidence' },
      artifacts,
    };
  }
}

/** The stored document of one control's graph (`ac-2.1` → `graph.ac-2.1.json`). */
export function graphDocument(control: string): string {
  return `graph.${control}.json`;
}

function* entriesOf(results: readonly HashedResult[], digest: ContentDigest): Generator<string> {
  for (const result of results) yield entryText(result, digest);
}

/** Each result's ksi_id and status, and whether the run's catalog maps it, in the run's order. */
function* ksiStatuses(results: readonly HashedResult[]): Generator<CountedResult> {
  for (const { item } of results) yield { ksi_id: item.result.ksi_id, status: item.result.status, mapped: item.definition !== undefined };
}

function digestOf(documents: readonly RunDocument[], name: string): string {
  const found = documents.find((d) => d.name === name);
  if (!found) throw new Error(`${name} must be stored before the documents that sign or list it`);
  return found.sha256;
}
