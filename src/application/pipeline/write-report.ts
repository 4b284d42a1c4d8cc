import { inject, injectable } from 'tsyringe';
import { assess } from '../../domain/assessment/assessment';
import { GovernanceLines, governanceReportHead } from '../../domain/artifacts/governance-report';
import { SEVERITIES } from '../../domain/governance/severity';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { writeSspNarrative } from '../../domain/artifacts/ssp-narrative';
import { StringSink, type TextSink } from '../../domain/artifacts/text-sink';
import { evidenceHash } from '../../domain/evidence/evidence-entry';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { loadReport } from '../shared/load-report';
import { writeAll } from '../shared/write-all';

export type MarkdownReport = 'governance-report' | 'ssp-narrative';

export interface WriteReportInput {
  report: MarkdownReport;
  input: string;
  /** Write the file here; without it the text is returned. */
  out?: string;
}

export type WriteReportResult =
  { input: string; report: MarkdownReport; out: string; file: WrittenFile } | { input: string; report: MarkdownReport; text: string };

/** One Markdown artifact of the auditor bundle on its own (`svc ir governance-report`, `svc ir ssp-report`). */
@injectable()
export class WriteReport {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ report, input, out }: WriteReportInput): Promise<WriteReportResult> {
    const { file, report: normalized } = await loadReport(this.reader, this.scans, input);
    const catalog = this.catalogs.catalog();
    const { items } = assess(normalized.results, catalog, this.settings.governance);
    const ref = { name: file.name, sha256: file.sha256 };
    const render = (sink: TextSink) => {
      if (report === 'governance-report') {
        const governance = new GovernanceLines();
        for (const item of items) governance.add(item.action);
        sink.write(governanceReportHead(ref, governance.totals));
        for (const severity of SEVERITIES) governance.write(sink, severity, (i) => items[i].action);
      } else {
        const mapped = items.filter((i) => i.definition).map((item) => ({ item, hash: evidenceHash(item.result, item.definition, this.hashing) }));
        writeSspNarrative(sink, mapped, catalog, ref);
      }
    };
    if (out === undefined) {
      const sink = new StringSink();
      render(sink);
      return { input, report, text: sink.text() };
    }
    return { input, report, out, file: await writeAll(await this.writer.open(out), render) };
  }
}
