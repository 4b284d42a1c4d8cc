import { inject, injectable } from 'tsyringe';
import { assess, assessor, RunTally, type AssessedResult, type HashedResult, type RunCounts } from '../../domain/assessment/assessment';
import { EntryStore, type EntryResult } from '../../domain/assessment/entry-result';
import { serializeEvidenceEntry } from '../../domain/evidence/evidence-entry';
import { compareIds } from '../../domain/governance/governance-policy';
import { AppError } from '../../domain/errors';
import { EVIDENCE_BUNDLE_SCHEMA, readEvidenceBundle, type BundleFacts, type RecordedBundle } from '../../domain/artifacts/evidence-bundle';
import { verifyEvidenceEntries } from '../../domain/artifacts/bundle-verification';
import type { InputRef, RunContext } from '../../domain/artifacts/run-context';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import type { RunMeta } from '../../domain/drift/drift-detection';
import { merkleRoot } from '../../domain/evidence/merkle';
import { readNormalizedReport, readReportHeader, type KsiResult, type ReportShapeOptions, type ReportSource } from '../../domain/ksi/ksi-result';
import { isPlainObject } from '../../domain/encoding/json-values';
import type { EvidenceFile } from '../../domain/oscal/oscal-run';
import type { Detection } from '../../domain/vulnerabilities/detection';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { verifyBundleDirectory } from '../oscal/verify-bundle-directory';
import { chooseCatalog } from './load-report';
import { readAsReport } from './scanner-output';
import { entryHashes } from './run-inputs';

export interface RunRequest {
  /** A normalized report, an evidence-bundle.json, or an auditor bundle directory. */
  input: string;
  /** A FedRAMP FRMR release whose official KSI ids the report may use (`--catalog`). */
  catalog?: string;
  /**
   * Keep each result of a normalized report as its evidence entry (EntryResult), reading the report an item at a time:
   * for a command that must hold a run of any size in bounded memory (`conmon process`).
   */
  compact?: boolean;
  /** The run's time (`runAt`) instead of the clock's: `conmon process --now`. */
  at?: Date;
}

/** What an observer of a run is told before its results: the catalog they are assessed against and the report's facts. */
export interface ObservedRun {
  catalog: KsiCatalog;
  generatedAt?: string;
  source?: ReportSource;
}

/** A run as `scan` read it: what it was, and how many results it held. */
export interface ScannedRun {
  context: RunContext;
  results: number;
  catalog: KsiCatalog;
}

/** One run as every reader of `<input|bundle>` sees it: assessed results with their content hashes. */
export interface LoadedRun {
  context: RunContext;
  /** Report-level facts; undefined for a bundle, which does not keep them. */
  meta: RunMeta | undefined;
  /** In ksi_id order. */
  results: HashedResult[];
  counts: RunCounts;
  unmapped: string[];
  merkleRoot: string;
  catalog: KsiCatalog;
  /** Where the entries can be read (`evidence-bundle.json`, or the report for a report input). */
  entriesFile: string;
  files: EvidenceFile[];
  /** The report's or the bundle's `vulnerabilities[]` (docs/artifacts.md), checked; absent when it has none. */
  detections?: Detection[];
  /** A bundle's source and detections, as its evidence-bundle.json carries them (stored with it: RunDocuments.bundle). */
  bundleFacts?: BundleFacts;
}

/**
 * Reads `<input|bundle>`: a normalized report is checked and assessed; a bundle (directory or evidence-bundle.json)
 * is verified first, and the content hashes it records are the run's evidence hashes.
 */
@injectable()
export class RunLoader {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  /** A scanner's own output given as the report is refused naming the adapter to run (readAsReport); so in scan(). */
  async load(request: RunRequest): Promise<LoadedRun> {
    return readAsReport(this.scans, request.input, () => this.loadRun(request));
  }

  private async loadRun(request: RunRequest): Promise<LoadedRun> {
    const { catalog, shape } = await chooseCatalog(this.reader, this.catalogs, request.catalog, this.settings.governance.unmapped_owner);
    const runAt = request.at ?? this.clock.now();
    let results: readonly KsiResult[];
    let hashes: string[] | undefined;
    let context: RunContext;
    let files: EvidenceFile[];
    let entriesFile: string;
    let meta: RunMeta | undefined;
    let detections: Detection[] | undefined;
    let facts: BundleFacts | undefined;
    if ((await this.reader.kind(request.input)) === 'directory') {
      const bundle = await verifyBundleDirectory(this.reader, this.hashing, request.input);
      const recorded = readEvidenceBundle(bundle.evidence, bundle.evidenceFile);
      results = recorded.results;
      hashes = bundle.entries.hashes;
      ({ context, meta, detections, facts } = bundleRun(recorded, bundle.entries.input, runAt));
      files = bundle.files.map((f) => ({
        name: f.name,
        sha256: f.sha256,
        mediaType: f.name.endsWith('.md') ? 'text/markdown' : 'application/json',
        description: BUNDLE_FILE_ROLES[f.name] ?? 'File of the auditor bundle.',
      }));
      entriesFile = 'evidence-bundle.json';
    } else {
      const compact = request.compact ? await this.loadEntries(request.input, catalog, shape, runAt) : undefined;
      if (compact) return compact;
      const file = await this.reader.read(request.input);
      const ref = { name: file.name, sha256: file.sha256, mediaType: 'application/json' };
      entriesFile = file.name;
      if (isPlainObject(file.document) && file.document.schema === EVIDENCE_BUNDLE_SCHEMA) {
        const verified = verifyEvidenceEntries(file.document, file.path, this.hashing);
        const recorded = readEvidenceBundle(file.document, file.path);
        results = recorded.results;
        hashes = verified.hashes;
        ({ context, meta, detections, facts } = bundleRun(recorded, verified.input, runAt));
        files = [{ ...ref, description: BUNDLE_FILE_ROLES['evidence-bundle.json'] }];
      } else {
        const report = readNormalizedReport(file.document, file.path, shape);
        results = report.results;
        context = { input: { name: file.name, sha256: file.sha256 }, source: report.source, generatedAt: report.generated_at, runAt };
        meta = {
          ...(report.schema_version !== undefined ? { schema_version: report.schema_version } : {}),
          ...(report.source ? { source: report.source } : {}),
        };
        files = [{ ...ref, description: REPORT_ROLE }];
        detections = report.vulnerabilities;
      }
    }
    return {
      ...this.assessed({ results, hashes, context, meta, catalog, entriesFile, files }),
      ...(detections === undefined ? {} : { detections }),
      ...(facts === undefined ? {} : { bundleFacts: facts }),
    };
  }

  /**
   * One pass over `<input|bundle>` that keeps nothing: `observer` is started with what the run is, then called for
   * every result with its assessed item and its content hash, computed only when asked for. A normalized report laid out
   * as one is read an item at a time, in its own order (never a million entries in memory); anything else is loaded
   * as `load` does and passed on in ksi_id order.
   */
  async scan(request: Omit<RunRequest, 'compact'>, observer: (run: ObservedRun) => (item: AssessedResult, hash: () => string) => void): Promise<ScannedRun> {
    return readAsReport(this.scans, request.input, () => this.scanRun(request, observer));
  }

  private async scanRun(
    request: Omit<RunRequest, 'compact'>,
    observer: (run: ObservedRun) => (item: AssessedResult, hash: () => string) => void,
  ): Promise<ScannedRun> {
    const { catalog, shape } = await chooseCatalog(this.reader, this.catalogs, request.catalog, this.settings.governance.unmapped_owner);
    const runAt = this.clock.now();
    if ((await this.reader.kind(request.input)) !== 'directory') {
      const itemized = await this.reader.readItems(request.input);
      if (itemized && !(isPlainObject(itemized.header) && itemized.header.schema === EVIDENCE_BUNDLE_SCHEMA)) {
        const { report, checker } = readReportHeader(itemized.header, request.input, shape);
        const assess = assessor(catalog, this.settings.governance);
        const observe = observer({ catalog, generatedAt: report.generated_at, source: report.source });
        let results = 0;
        try {
          for await (const text of itemized.items) {
            const item = assess(checker.check(JSON.parse(text)));
            results += 1;
            observe(item, () => serializeEvidenceEntry(item.result, item.definition, this.hashing).hash);
          }
          const file = itemized.file();
          return {
            context: { input: { name: file.name, sha256: file.sha256 }, source: report.source, generatedAt: report.generated_at, runAt },
            results,
            catalog,
          };
        } catch (error) {
          if (error instanceof AppError) throw error;
          // An item that does not parse: the report is read whole below, which reports the problem properly.
        }
      }
    }
    const run = await this.loadRun(request);
    const observe = observer({ catalog: run.catalog, generatedAt: run.context.generatedAt, source: run.context.source });
    for (const r of run.results) observe(r.item, () => r.hash);
    return { context: run.context, results: run.results.length, catalog: run.catalog };
  }

  /**
   * A normalized report read an item at a time, each result kept as its evidence entry: the report is never one
   * parsed document, and its results never a million object graphs. Undefined when the file is not a normalized report
   * laid out as one, or an item does not parse: then it is read whole, which reports any error properly.
   */
  private async loadEntries(path: string, catalog: KsiCatalog, shape: ReportShapeOptions, runAt: Date): Promise<LoadedRun | undefined> {
    const itemized = await this.reader.readItems(path);
    if (!itemized || (isPlainObject(itemized.header) && itemized.header.schema === EVIDENCE_BUNDLE_SCHEMA)) return undefined;
    const { report, checker } = readReportHeader(itemized.header, path, shape);
    const assess = assessor(catalog, this.settings.governance);
    const store = new EntryStore(assess);
    let entries: EntryResult[] = [];
    const tally = new RunTally();
    try {
      for await (const text of itemized.items) {
        const item = assess(checker.check(JSON.parse(text)));
        tally.add(item);
        const { text: entry, hash } = serializeEvidenceEntry(item.result, item.definition, this.hashing);
        entries.push(store.add(entry, hash));
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      return undefined;
    }
    const file = itemized.file();
    if (!checker.sorted) {
      entries = sortedEntries(entries, checker.ids);
      tally.unmapped.sort(compareIds);
    }
    const source = report.source;
    return {
      context: { input: { name: file.name, sha256: file.sha256 }, source, generatedAt: report.generated_at, runAt },
      meta: { ...(report.schema_version !== undefined ? { schema_version: report.schema_version } : {}), ...(source ? { source } : {}) },
      results: entries,
      counts: tally.counts,
      unmapped: tally.unmapped,
      merkleRoot: merkleRoot(
        entries.map((e) => e.hash),
        this.hashing,
      ),
      catalog,
      entriesFile: file.name,
      files: [{ name: file.name, sha256: file.sha256, mediaType: 'application/json', description: REPORT_ROLE }],
      ...(report.vulnerabilities === undefined ? {} : { detections: report.vulnerabilities }),
    };
  }

  private assessed(run: {
    results: readonly KsiResult[];
    hashes: string[] | undefined;
    context: RunContext;
    meta: RunMeta | undefined;
    catalog: KsiCatalog;
    entriesFile: string;
    files: EvidenceFile[];
  }): LoadedRun {
    const assessment = assess(run.results, run.catalog, this.settings.governance);
    const contentHashes = run.hashes ?? entryHashes(assessment, this.hashing);
    return {
      context: run.context,
      meta: run.meta,
      results: assessment.items.map((item, i) => ({ item, hash: contentHashes[i] })),
      counts: assessment.counts,
      unmapped: assessment.unmapped,
      merkleRoot: merkleRoot(contentHashes, this.hashing),
      catalog: run.catalog,
      entriesFile: run.entriesFile,
      files: run.files,
    };
  }
}

const REPORT_ROLE = 'The normalized report of KSI results the documents were generated from.';

/** Entries in ksi_id order, as `assess` orders results; `ids` are their ksi_ids in the same order as `entries`. */
function sortedEntries(entries: EntryResult[], ids: readonly string[]): EntryResult[] {
  const order = entries.map((_, i) => i).sort((a, b) => compareIds(ids[a], ids[b]));
  return order.map((i) => entries[i]);
}

export const BUNDLE_FILE_ROLES: Record<string, string> = {
  'evidence-bundle.json': 'Canonical evidence entries with their content hashes and RFC 6962 Merkle root.',
  'governance-report.md': 'Governance actions per KSI, with severity, owner and SLA.',
  'lineage.json': 'KSI → control → evidence → action lineage.',
  'manifest.json': 'Digests of the other bundle files and their aggregate hash.',
  'poam.json': 'POA&M rows for FAIL and WARN results.',
  'ssp-narrative.md': 'SSP implementation narrative per control.',
};

/**
 * What a recorded bundle says of its run besides the results (docs/artifacts.md): its report's time, schema version,
 * source and detections, kept as the run's context and report facts, and stored with it as they were (RunDocuments).
 */
function bundleRun(
  recorded: RecordedBundle,
  input: InputRef,
  runAt: Date,
): { context: RunContext; meta: RunMeta | undefined; detections: Detection[] | undefined; facts: BundleFacts } {
  const { generated_at, schema_version, source, vulnerabilities } = recorded;
  const meta =
    schema_version === undefined && source === undefined
      ? undefined
      : { ...(schema_version === undefined ? {} : { schema_version }), ...(source === undefined ? {} : { source }) };
  return {
    context: { input, ...(source === undefined ? {} : { source }), ...(generated_at === undefined ? {} : { generatedAt: generated_at }), runAt },
    meta,
    detections: vulnerabilities,
    facts: { generated_at, schema_version, source, vulnerabilities },
  };
}
