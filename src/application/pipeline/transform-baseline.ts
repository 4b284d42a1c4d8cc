import { inject, injectable } from 'tsyringe';
import { assess, type RunCounts } from '../../domain/assessment/assessment';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { chooseCatalog, loadReport } from '../shared/load-report';

export interface TransformBaselineInput {
  input: string;
  /** A FedRAMP FRMR release whose official KSI ids the report may use. */
  officialCatalog?: string;
}

export interface TransformBaselineResult {
  input: string;
  counts: RunCounts;
  unmapped: string[];
}

/** Maps a normalized report to controls and policies and counts the outcome (`svc ir baseline-transform`). */
@injectable()
export class TransformBaseline {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, officialCatalog }: TransformBaselineInput): Promise<TransformBaselineResult> {
    const { catalog, shape } = await chooseCatalog(this.reader, this.catalogs, officialCatalog, this.settings.governance.unmapped_owner);
    const { report } = await loadReport(this.reader, this.scans, input, shape);
    const { counts, unmapped } = assess(report.results, catalog, this.settings.governance);
    return { input, counts, unmapped };
  }
}
