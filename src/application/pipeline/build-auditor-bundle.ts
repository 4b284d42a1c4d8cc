import { inject, injectable } from 'tsyringe';
import { assessEach, RunTally, type HashedResult } from '../../domain/assessment/assessment';
import { EVIDENCE_BUNDLE_HEAD, evidenceBundleTail } from '../../domain/artifacts/evidence-bundle';
import { governanceReportHead, type ActionTotals } from '../../domain/artifacts/governance-report';
import { controlLineage, lineageHead, LINEAGE_TAIL } from '../../domain/artifacts/lineage';
import { buildManifest, MANIFEST_FILE, type BundleCounts, type WrittenFile } from '../../domain/artifacts/manifest';
import { renderPartition, type Preceded } from '../../domain/artifacts/partition';
import { POAM_HEAD, POAM_TAIL } from '../../domain/artifacts/poam';
import type { RunContext } from '../../domain/artifacts/run-context';
import { writeSspNarrative } from '../../domain/artifacts/ssp-narrative';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { digestHexAt } from '../../domain/evidence/content-digest';
import { evidenceHash } from '../../domain/evidence/evidence-entry';
import { MerkleAccumulator } from '../../domain/evidence/merkle';
import { decideAction } from '../../domain/governance/governance-policy';
import { SEVERITIES } from '../../domain/governance/severity';
import { ARTIFACT_WRITER, type ArtifactTransaction, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { PARTITIONED_REPORT_READER, type PartitionedReportReader } from '../../ports/partitioned-report';
import { PROGRESS, type Progress } from '../../ports/progress';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { chooseCatalog } from '../shared/load-report';
import { readReportParts, type ReportParts } from '../shared/report-parts';
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
 * pass over the results. A large report arrives in parts: the first is rendered here straight into the
 * artifacts while the others render on their own threads into fragments, which are then appended in order.
 * The six files appear in the output directory together once all are complete; on any error none do.
 */
@injectable()
export class BuildAuditorBundle {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(PARTITIONED_REPORT_READER) private readonly parts: PartitionedReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(PROGRESS) private readonly progress: Progress,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, outDir, officialCatalog }: BuildAuditorBundleInput): Promise<BuildAuditorBundleResult> {
    const { catalog, shape } = await chooseCatalog(this.reader, this.catalogs, officialCatalog, this.settings.governance.unmapped_owner);
    const parts = await readReportParts(this.parts, this.reader, this.scans, input, catalog, shape);
    try {
      const { file, report } = parts;
      const context: RunContext = {
        input: { name: file.name, sha256: file.sha256 },
        source: report.source,
        generatedAt: report.generated_at,
        runAt: this.clock.now(),
      };
      const tx = await this.writer.begin(outDir);
      try {
        const result = await this.writeArtifacts(tx, parts, context, catalog);
        const dir = await tx.commit();
        return { input, outDir: dir, ...result };
      } catch (error) {
        await tx.abort();
        throw error;
      }
    } finally {
      this.progress.stop();
      await parts.close();
    }
  }

  private async writeArtifacts(tx: ArtifactTransaction, parts: ReportParts, context: RunContext, catalog: KsiCatalog) {
    const policy = this.settings.governance;
    const { local, remote } = parts;
    const total = local.length + remote.reduce((n, r) => n + r.check.count, 0);
    this.progress.start('Writing auditor bundle', total);
    // Only mapped results touch controls, and lineage.json lists controls first: take them up front.
    const mapped: HashedResult[] = [];
    for (const item of assessEach([...local.filter((r) => catalog.get(r.ksi_id)), ...remote.flatMap((r) => r.check.mapped)], catalog, policy)) {
      mapped.push({ item, hash: evidenceHash(item.result, item.definition, this.hashing) });
    }
    const sinks = { evidence: tx.open('evidence-bundle.json'), poam: tx.open('poam.json'), lineage: tx.open('lineage.json') };
    sinks.evidence.write(EVIDENCE_BUNDLE_HEAD);
    sinks.poam.write(POAM_HEAD);
    sinks.lineage.write(lineageHead(controlLineage(mapped, catalog), this.hashing));

    // Later parts render on their threads while this one renders the first part.
    const scratch = remote.length > 0 ? await tx.scratch() : '';
    const preceded: Preceded = { entries: local.length > 0, rows: local.some((r) => r.status !== 'PASS') };
    const rendering = remote.map(({ part, check }) => {
      const job = part.render({ policy, context, preceded: { ...preceded }, scratch });
      preceded.entries ||= check.count > 0;
      preceded.rows ||= check.statuses.FAIL + check.statuses.WARN > 0;
      return job;
    });
    const merkle = new MerkleAccumulator(this.hashing);
    const first = renderPartition({
      results: local,
      catalog,
      policy,
      context,
      digest: this.hashing,
      sinks,
      preceded: { entries: false, rows: false },
      onEntry: (hash, count) => {
        merkle.add(hash);
        if (count % PROGRESS_STEP === 0) this.progress.advance(count);
      },
    });
    const tally: RunTally = first.tally;
    const actions: ActionTotals = { ...first.governance.totals };
    let poamRows = first.poamRows;
    const rendered = await Promise.all(rendering);
    await parts.close(); // the workers' heaps hold their parts' results: let them go before the last artifacts
    for (const part of rendered) {
      sinks.evidence.append(part.fragments.evidence);
      sinks.poam.append(part.fragments.poam);
      sinks.lineage.append(part.fragments.lineage);
      for (let at = 0; at < part.leaves.length; at += 32) merkle.add(digestHexAt(part.leaves, at));
      tally.merge(part.counts, part.unmapped);
      actions.total += part.actions.total;
      actions.remediate += part.actions.remediate;
      poamRows += part.poamRows;
    }
    const merkleRoot = merkle.root();
    sinks.evidence.write(
      evidenceBundleTail(context.input, merkleRoot, {
        generated_at: context.generatedAt,
        schema_version: parts.report.schema_version,
        source: context.source,
        vulnerabilities: parts.report.vulnerabilities,
      }),
    );
    sinks.poam.write(POAM_TAIL);
    sinks.lineage.write(LINEAGE_TAIL);
    const files: WrittenFile[] = [await sinks.evidence.close(), await sinks.poam.close(), await sinks.lineage.close()];
    const actionAt = (i: number) => decideAction(local[i].ksi_id, local[i].status, catalog.get(local[i].ksi_id), policy);
    files.push(
      await writeAll(tx.open('governance-report.md'), (sink) => {
        sink.write(governanceReportHead(context.input, actions));
        for (const severity of SEVERITIES) {
          first.governance.write(sink, severity, actionAt);
          for (const part of rendered) sink.append(part.fragments.governance[severity]);
        }
      }),
    );
    files.push(await writeAll(tx.open('ssp-narrative.md'), (sink) => writeSspNarrative(sink, mapped, catalog, context.input)));
    this.progress.advance(total);
    const counts: BundleCounts = { ...tally.counts, evidence: tally.counts.results, actions: tally.counts.results, poam: poamRows };
    const manifest = buildManifest({
      tool: this.settings.tool,
      generatedAt: context.runAt,
      input: context.input,
      counts,
      merkleRoot,
      files,
      digest: this.hashing,
    });
    files.push(await writeAll(tx.open(MANIFEST_FILE), (sink) => sink.write(this.hashing.canonicalize(manifest))));
    return { counts, unmapped: tally.unmapped, files, merkleRoot: manifest.merkle_root, aggregateHash: manifest.aggregate_hash };
  }
}
