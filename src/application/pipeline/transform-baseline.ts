import { inject, injectable } from 'tsyringe';
import { assess, type RunCounts } from '../../domain/assessment/assessment';
import { cr26Definitions } from '../../domain/catalog/cr26-definitions';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
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

/**
 * Maps a normalized report to controls and policies and counts the outcome (`svc ir baseline-transform`). A result keyed
 * by a KSI of the CR26 rules in use (`KSI-IAM-APM`, as the fedramp commands read them) maps to the controls CR26 lists,
 * unless the `--catalog` release defines the id itself.
 */
@injectable()
export class TransformBaseline {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, officialCatalog }: TransformBaselineInput): Promise<TransformBaselineResult> {
    const owner = this.settings.governance.unmapped_owner;
    const { catalog: chosen, shape } = await chooseCatalog(this.reader, this.catalogs, officialCatalog, owner);
    const official = chosen.extraDefinitions();
    const ids = new Set(official.map((d) => d.id));
    const catalog = chosen.withDefinitions([...official, ...cr26Definitions(this.rules.rules(), chosen, owner).filter((d) => !ids.has(d.id))]);
    const { report } = await loadReport(this.reader, this.scans, input, shape);
    const { counts, unmapped } = assess(report.results, catalog, this.settings.governance);
    return { input, counts, unmapped };
  }
}
