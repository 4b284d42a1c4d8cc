import { inject, injectable } from 'tsyringe';
import { assessEach, RunTally, sortedById, type HashedResult } from '../../domain/assessment/assessment';
import { EvidenceBundleWriter } from '../../domain/artifacts/evidence-bundle';
import { GovernanceReportWriter } from '../../domain/artifacts/governance-report';
import { controlLineage, LineageWriter } from '../../domain/artifacts/lineage';
import { buildManifest, MANIFEST_FILE, type BundleCounts, type Manifest, type WrittenFile } from '../../domain/artifacts/manifest';
import { PoamWriter } from '../../domain/artifacts/poam';
import type { RunContext } from '../../domain/artifacts/run-context';
import { writeSspNarrative } from '../../domain/artifacts/ssp-narrative';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { decideAction } from '../../domain/governance/governance-policy';
import { evidenceHash } from '../../domain/evidence/evidence-entry';
import type { KsiResult } from '../../domain/ksi/ksi-result';
import { ARTIFACT_WRITER, type ArtifactTransaction, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { PROGRESS, type Progress } from '../../ports/progress';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { chooseCatalog, loadReport } from '../shared/load-report';
import { writeAll } from '../shared/write-all';

export interface BuildAuditorBundleInput {
  input: string;
  outDir: string;
  officialCatalog?: string;
}

export interface BuildAuditorBundleResult {
  input: string;
  outDir: string;
  counts: BundleCounts;
  unmapped: string[];
  files: WrittenFile[];
  merkleRoot: string;
  aggregateHash: string;
}

/** Progress is reported every this many results. */
const PROGRESS_STEP = 65_536;

/**
 * Transform, evidence bundle, governance actions, POA&M and SSP narrative (`svc ir auditor-bundle`), in one
 * pass over the results so a million-result run holds no second copy of them. The six files appear in the
 * output directory together once all are complete; on any error none do.
 */
@injectable()
export class BuildAuditorBundle {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(PROGRESS) private readonly progress: Progress,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, outDir, officialCatalog }: BuildAuditorBundleInput): Promise<BuildAuditorBundleResult> {
    const { catalog, shape } = await chooseCatalog(this.reader, this.catalogs, officialCatalog, this.settings.governance.unmapped_owner);
    const { file, report } = await loadReport(this.reader, input, shape);
    const context: RunContext = { input: { name: file.name, sha256: file.sha256 }, source: report.source, generatedAt: report.generated_at, runAt: this.clock.now() };
    const tx = await this.writer.begin(outDir);
    try {
      const { manifest, files, unmapped } = await this.writeArtifacts(tx, sortedById(report.results), context, catalog);
      const dir = await tx.commit();
      return { input, outDir: dir, counts: manifest.counts, unmapped, files, merkleRoot: manifest.merkle_root, aggregateHash: manifest.aggregate_hash };
    } catch (error) {
      await tx.abort();
      throw error;
    } finally {
      this.progress.stop();
    }
  }

  private async writeArtifacts(tx: ArtifactTransaction, results: readonly KsiResult[], context: RunContext, catalog: KsiCatalog) {
    const policy = this.settings.governance;
    // Only mapped results touch controls, and lineage.json lists controls first: take them up front.
    const mapped: HashedResult[] = [];
    for (const item of assessEach(results, catalog, policy)) {
      if (item.definition) mapped.push({ item, hash: evidenceHash(item.result, item.definition, this.hashing) });
    }
    const evidenceSink = tx.open('evidence-bundle.json');
    const poamSink = tx.open('poam.json');
    const lineageSink = tx.open('lineage.json');
    const evidence = new EvidenceBundleWriter(evidenceSink, this.hashing);
    const poam = new PoamWriter(poamSink, context);
    const lineage = new LineageWriter(lineageSink, controlLineage(mapped, catalog), this.hashing);
    const governance = new GovernanceReportWriter();
    const tally = new RunTally();
    this.progress.start('Writing auditor bundle', results.length);
    for (const item of assessEach(results, catalog, policy)) {
      tally.add(item);
      lineage.add(item, evidence.add(item));
      poam.add(item);
      governance.add(item.action);
      if (tally.counts.results % PROGRESS_STEP === 0) this.progress.advance(tally.counts.results);
    }
    const merkleRoot = evidence.finish(context.input);
    poam.finish();
    lineage.finish();
    const files: WrittenFile[] = [await evidenceSink.close(), await poamSink.close(), await lineageSink.close()];
    const actionAt = (i: number) => decideAction(results[i].ksi_id, results[i].status, catalog.get(results[i].ksi_id), policy);
    files.push(await writeAll(tx.open('governance-report.md'), (sink) => governance.finish(sink, context.input, actionAt)));
    files.push(await writeAll(tx.open('ssp-narrative.md'), (sink) => writeSspNarrative(sink, mapped, catalog, context.input)));
    this.progress.advance(results.length);
    const counts: BundleCounts = { ...tally.counts, evidence: tally.counts.results, actions: tally.counts.results, poam: poam.count };
    const manifest: Manifest = buildManifest({ tool: this.settings.tool, generatedAt: context.runAt, input: context.input, counts, merkleRoot, files, digest: this.hashing });
    files.push(await writeAll(tx.open(MANIFEST_FILE), (sink) => sink.write(this.hashing.canonicalize(manifest))));
    return { manifest, files, unmapped: tally.unmapped };
  }
}
