import { inject, injectable } from 'tsyringe';
import { assessEach, mergeResults, sortedById } from '../../domain/assessment/assessment';
import { EVIDENCE_BUNDLE_HEAD, evidenceBundleTail, EvidenceEntries } from '../../domain/artifacts/evidence-bundle';
import { MerkleAccumulator } from '../../domain/evidence/merkle';
import { mergedBundleFacts } from '../../domain/conmon/run-sources';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { formatDigest } from '../../domain/evidence/content-digest';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { loadReport } from '../shared/load-report';
import { combinedInput } from '../shared/run-inputs';
import { writeAll } from '../shared/write-all';

export interface BuildEvidenceBundleInput {
  inputs: string[];
  out: string;
}

export interface BuildEvidenceBundleResult {
  inputs: string[];
  out: string;
  entries: number;
  /** The detections the bundle carries (every input's, one per id). */
  detections: number;
  merkleRoot: string;
  file: WrittenFile;
}

/**
 * `evidence-bundle.json` alone, from one normalized report (`svc ir evidence-bundle`) or several merged
 * with the worst status winning per KSI (`svc evidence build`).
 */
@injectable()
export class BuildEvidenceBundle {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ inputs, out }: BuildEvidenceBundleInput): Promise<BuildEvidenceBundleResult> {
    const loaded = [];
    for (const path of inputs) loaded.push(await loadReport(this.reader, this.scans, path));
    const results = sortedById(loaded.length === 1 ? loaded[0].report.results : mergeResults(loaded.map((l) => l.report)));
    const input = combinedInput(
      loaded.map((l) => ({ name: l.file.name, sha256: l.file.sha256 })),
      this.hashing,
    );
    let root = '';
    const facts = mergedBundleFacts(loaded.map((l) => l.report));
    const file = await writeAll(await this.writer.open(out), (sink) => {
      sink.write(EVIDENCE_BUNDLE_HEAD);
      const entries = new EvidenceEntries(sink, this.hashing);
      const merkle = new MerkleAccumulator(this.hashing);
      for (const item of assessEach(results, this.catalogs.catalog(), this.settings.governance)) merkle.add(entries.add(item));
      root = merkle.root();
      sink.write(evidenceBundleTail(input, root, facts));
    });
    return { inputs, out, entries: results.length, detections: facts.vulnerabilities?.length ?? 0, merkleRoot: formatDigest(root), file };
  }
}
