import { inject, injectable } from 'tsyringe';
import { checkCatalogConsistency, compareRelease, type ConsistencyReport, type ReleaseComparison } from '../../domain/catalog/catalog-consistency';
import { readFrmrRelease } from '../../domain/catalog/frmr-release';
import { checkCr26Consistency, type Cr26Consistency } from '../../domain/fedramp/cr26-consistency';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';

export interface CheckCanonInput {
  /** A FedRAMP FRMR file to compare with the crosswalk. */
  release?: string;
}

export interface CheckCanonResult {
  catalog: { baseline: string; version: string; ksis: number; families: number };
  crosswalk: { current_release: string; official: number };
  consistency: ConsistencyReport;
  /** The CR26 rules in use (bundled, or SVC_FEDRAMP_RULES), proved consistent (DESIGN §12.1). */
  cr26: { version: string; date: string; consistency: Cr26Consistency };
  release?: ReleaseComparison;
}

/** Proves the built-in catalog and the CR26 rules consistent and compares a FedRAMP release with the catalog (`svc canon check`). */
@injectable()
export class CheckCanon {
  constructor(
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(FEDRAMP_RULES_SOURCE) private readonly fedramp: FedrampRulesSource,
  ) {}

  async execute({ release }: CheckCanonInput): Promise<CheckCanonResult> {
    const { data } = this.catalogs.catalog();
    const crosswalk = this.catalogs.crosswalk();
    const result: CheckCanonResult = {
      catalog: { baseline: data.source.baseline, version: data.source.version, ksis: data.ksis.length, families: data.families.length },
      crosswalk: { current_release: crosswalk.current_release, official: crosswalk.official.length },
      consistency: checkCatalogConsistency(data, crosswalk),
      cr26: this.cr26(),
    };
    if (release !== undefined) {
      const file = await this.reader.read(release);
      result.release = compareRelease(readFrmrRelease(file.document, file.path), crosswalk, data);
    }
    return result;
  }

  private cr26(): CheckCanonResult['cr26'] {
    const rules = this.fedramp.rules();
    return { version: rules.info.version, date: rules.info.date, consistency: checkCr26Consistency(rules) };
  }
}
