import { inject, injectable } from 'tsyringe';
import { checkCatalogConsistency, compareRelease, type ConsistencyReport, type ReleaseComparison } from '../../domain/catalog/catalog-consistency';
import { readFrmrRelease } from '../../domain/catalog/frmr-release';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';

export interface CheckCanonInput {
  /** A FedRAMP FRMR file to compare with the crosswalk. */
  release?: string;
}

export interface CheckCanonResult {
  catalog: { baseline: string; version: string; ksis: number; families: number };
  crosswalk: { current_release: string; official: number };
  consistency: ConsistencyReport;
  release?: ReleaseComparison;
}

/** Proves the built-in catalog consistent and compares a FedRAMP release with it (`svc canon check`). */
@injectable()
export class CheckCanon {
  constructor(
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(REPORT_READER) private readonly reader: ReportReader,
  ) {}

  async execute({ release }: CheckCanonInput): Promise<CheckCanonResult> {
    const { data } = this.catalogs.catalog();
    const crosswalk = this.catalogs.crosswalk();
    const result: CheckCanonResult = {
      catalog: { baseline: data.source.baseline, version: data.source.version, ksis: data.ksis.length, families: data.families.length },
      crosswalk: { current_release: crosswalk.current_release, official: crosswalk.official.length },
      consistency: checkCatalogConsistency(data, crosswalk),
    };
    if (release !== undefined) {
      const file = await this.reader.read(release);
      result.release = compareRelease(readFrmrRelease(file.document, file.path), crosswalk, data);
    }
    return result;
  }
}
