import { inject, injectable } from 'tsyringe';
import { assess } from '../../domain/assessment/assessment';
import { governanceReportText } from '../../domain/artifacts/governance-report';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { sspNarrativeText } from '../../domain/artifacts/ssp-narrative';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { loadReport } from '../shared/load-report';
import { entryHashes } from '../shared/run-inputs';

export type MarkdownReport = 'governance-report' | 'ssp-narrative';

export interface WriteReportInput {
  report: MarkdownReport;
  input: string;
  /** Write the file here; without it the text is returned. */
  out?: string;
}

export type WriteReportResult = { input: string; report: MarkdownReport; out: string; file: WrittenFile } | { input: string; report: MarkdownReport; text: string };

/** One Markdown artifact of the auditor bundle on its own (`svc ir governance-report`, `svc ir ssp-report`). */
@injectable()
export class WriteReport {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ report, input, out }: WriteReportInput): Promise<WriteReportResult> {
    const { file, report: normalized } = await loadReport(this.reader, input);
    const catalog = this.catalogs.catalog();
    const assessment = assess(normalized.results, catalog, this.settings.governance);
    const ref = { name: file.name, sha256: file.sha256 };
    const text =
      report === 'governance-report' ? governanceReportText(assessment.items, ref) : sspNarrativeText(assessment.items, entryHashes(assessment, this.hashing), catalog, ref);
    if (out === undefined) return { input, report, text: [...text].join('') };
    return { input, report, out, file: await this.writer.writeFile(out, text) };
  }
}
