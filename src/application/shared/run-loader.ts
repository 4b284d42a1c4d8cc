import { inject, injectable } from 'tsyringe';
import { assess, type HashedResult, type RunCounts } from '../../domain/assessment/assessment';
import { EVIDENCE_BUNDLE_SCHEMA, readEvidenceBundle } from '../../domain/artifacts/evidence-bundle';
import { verifyEvidenceEntries } from '../../domain/artifacts/bundle-verification';
import type { RunContext } from '../../domain/artifacts/run-context';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import type { RunMeta } from '../../domain/drift/drift-detection';
import { merkleRoot } from '../../domain/evidence/merkle';
import { isPlainObject, readNormalizedReport, type KsiResult } from '../../domain/ksi/ksi-result';
import type { EvidenceFile } from '../../domain/oscal/oscal-run';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { verifyBundleDirectory } from '../oscal/verify-bundle-directory';
import { chooseCatalog } from './load-report';
import { entryHashes } from './run-inputs';

export interface RunRequest {
  /** A normalized report, an evidence-bundle.json, or an auditor bundle directory. */
  input: string;
  /** A FedRAMP FRMR release whose official KSI ids the report may use (`--catalog`). */
  catalog?: string;
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
}

/**
 * Reads `<input|bundle>`: a normalized report is checked and assessed; a bundle (directory or evidence-bundle.json)
 * is verified first, and the content hashes it records are the run's evidence hashes.
 */
@injectable()
export class RunLoader {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async load(request: RunRequest): Promise<LoadedRun> {
    const { catalog, shape } = await chooseCatalog(this.reader, this.catalogs, request.catalog, this.settings.governance.unmapped_owner);
    const runAt = this.clock.now();
    let results: readonly KsiResult[];
    let hashes: string[] | undefined;
    let context: RunContext;
    let files: EvidenceFile[];
    let entriesFile: string;
    let meta: RunMeta | undefined;
    if ((await this.reader.kind(request.input)) === 'directory') {
      const bundle = await verifyBundleDirectory(this.reader, this.hashing, request.input);
      results = readEvidenceBundle(bundle.evidence, bundle.evidenceFile).results;
      hashes = bundle.entries.hashes;
      context = { input: bundle.entries.input, runAt };
      files = bundle.files.map((f) => ({ name: f.name, sha256: f.sha256, mediaType: f.name.endsWith('.md') ? 'text/markdown' : 'application/json', description: BUNDLE_FILE_ROLES[f.name] ?? 'File of the auditor bundle.' }));
      entriesFile = 'evidence-bundle.json';
    } else {
      const file = await this.reader.read(request.input);
      const ref = { name: file.name, sha256: file.sha256, mediaType: 'application/json' };
      entriesFile = file.name;
      if (isPlainObject(file.document) && file.document.schema === EVIDENCE_BUNDLE_SCHEMA) {
        const verified = verifyEvidenceEntries(file.document, file.path, this.hashing);
        results = readEvidenceBundle(file.document, file.path).results;
        hashes = verified.hashes;
        context = { input: verified.input, runAt };
        files = [{ ...ref, description: BUNDLE_FILE_ROLES['evidence-bundle.json'] }];
      } else {
        const report = readNormalizedReport(file.document, file.path, shape);
        results = report.results;
        context = { input: { name: file.name, sha256: file.sha256 }, source: report.source, generatedAt: report.generated_at, runAt };
        meta = { ...(report.schema_version !== undefined ? { schema_version: report.schema_version } : {}), ...(report.source ? { source: report.source } : {}) };
        files = [{ ...ref, description: 'The normalized report of KSI results the documents were generated from.' }];
      }
    }
    return this.assessed({ results, hashes, context, meta, catalog, entriesFile, files });
  }

  private assessed(run: { results: readonly KsiResult[]; hashes: string[] | undefined; context: RunContext; meta: RunMeta | undefined; catalog: KsiCatalog; entriesFile: string; files: EvidenceFile[] }): LoadedRun {
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

export const BUNDLE_FILE_ROLES: Record<string, string> = {
  'evidence-bundle.json': 'Canonical evidence entries with their content hashes and RFC 6962 Merkle root.',
  'governance-report.md': 'Governance actions per KSI, with severity, owner and SLA.',
  'lineage.json': 'KSI → control → evidence → action lineage.',
  'manifest.json': 'Digests of the other bundle files and their aggregate hash.',
  'poam.json': 'POA&M rows for FAIL and WARN results.',
  'ssp-narrative.md': 'SSP implementation narrative per control.',
};
