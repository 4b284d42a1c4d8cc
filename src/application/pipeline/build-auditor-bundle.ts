import { inject, injectable } from 'tsyringe';
import { assess, type Assessment } from '../../domain/assessment/assessment';
import { evidenceBundleText, type EntryDigests } from '../../domain/artifacts/evidence-bundle';
import { governanceReportText } from '../../domain/artifacts/governance-report';
import { lineageText } from '../../domain/artifacts/lineage';
import { buildManifest, MANIFEST_FILE, type BundleCounts, type Manifest, type WrittenFile } from '../../domain/artifacts/manifest';
import { needsPoam, poamText } from '../../domain/artifacts/poam';
import type { RunContext } from '../../domain/artifacts/run-context';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { sspNarrativeText } from '../../domain/artifacts/ssp-narrative';
import { ARTIFACT_WRITER, type ArtifactTransaction, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { PROGRESS, type Progress } from '../../ports/progress';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { chooseCatalog, loadReport } from '../shared/load-report';

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

/**
 * Transform, evidence bundle, governance actions, POA&M and SSP narrative in one pass (`svc ir auditor-bundle`).
 * The six files appear in the output directory together once all are complete; on any error none do.
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
    const assessment = assess(report.results, catalog, this.settings.governance);
    const context: RunContext = { input: { name: file.name, sha256: file.sha256 }, source: report.source, generatedAt: report.generated_at, runAt: this.clock.now() };
    const tx = await this.writer.begin(outDir);
    try {
      const { manifest, files } = await this.writeArtifacts(tx, assessment, context, catalog);
      const dir = await tx.commit();
      return { input, outDir: dir, counts: manifest.counts, unmapped: assessment.unmapped, files, merkleRoot: manifest.merkle_root, aggregateHash: manifest.aggregate_hash };
    } catch (error) {
      await tx.abort();
      throw error;
    } finally {
      this.progress.stop();
    }
  }

  private async writeArtifacts(tx: ArtifactTransaction, assessment: Assessment, context: RunContext, catalog: KsiCatalog): Promise<{ manifest: Manifest; files: WrittenFile[] }> {
    const { items } = assessment;
    const digests: EntryDigests = { hashes: [], merkleRoot: '' };
    const steps: [string, () => Iterable<string>][] = [
      ['evidence-bundle.json', () => evidenceBundleText(items, context.input, this.hashing, digests)],
      ['poam.json', () => poamText(items, context)],
      ['lineage.json', () => lineageText(items, digests.hashes, catalog, this.hashing)],
      ['governance-report.md', () => governanceReportText(items, context.input)],
      ['ssp-narrative.md', () => sspNarrativeText(items, digests.hashes, catalog, context.input)],
    ];
    this.progress.start('Writing auditor bundle', steps.length + 1);
    const files: WrittenFile[] = [];
    for (const [name, text] of steps) {
      files.push(await tx.write(name, text()));
      this.progress.advance(files.length);
    }
    const counts: BundleCounts = { ...assessment.counts, evidence: items.length, actions: items.length, poam: items.filter(needsPoam).length };
    const manifest = buildManifest({ tool: this.settings.tool, generatedAt: context.runAt, input: context.input, counts, merkleRoot: digests.merkleRoot, files, digest: this.hashing });
    files.push(await tx.write(MANIFEST_FILE, [this.hashing.canonicalize(manifest)]));
    this.progress.advance(files.length);
    return { manifest, files };
  }
}
