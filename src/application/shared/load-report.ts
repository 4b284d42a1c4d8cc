import { officialDefinitions } from '../../domain/catalog/official-definitions';
import { readFrmrRelease } from '../../domain/catalog/frmr-release';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { readNormalizedReport, type NormalizedReport, type ReportShapeOptions } from '../../domain/ksi/ksi-result';
import type { CatalogSource } from '../../ports/catalog-source';
import type { LoadedDocument, ReportReader } from '../../ports/report-reader';
import type { ScanReader } from '../../ports/scan-reader';
import { readAsReport } from './scanner-output';

export interface LoadedReport {
  file: LoadedDocument;
  report: NormalizedReport;
}

/** Reads and checks one normalized report (DESIGN §3); a scanner's own output is refused naming the adapter to run (readAsReport). */
export async function loadReport(reader: ReportReader, scans: ScanReader, path: string, options: ReportShapeOptions = {}): Promise<LoadedReport> {
  return readAsReport(scans, path, async () => {
    const file = await reader.read(path);
    const report = readNormalizedReport(file.document, file.path, options);
    file.document = undefined; // the report holds the parsed results; drop the second reference early
    return { file, report };
  });
}

export interface CatalogChoice {
  catalog: KsiCatalog;
  /** How results are checked: which ids besides KSI_ID_PATTERN's are accepted (as a test and as a list). */
  shape: ReportShapeOptions & { acceptIds: string[] };
}

/** The built-in catalog, extended with the official KSIs of a FedRAMP release when `--catalog` names one. */
export async function chooseCatalog(
  reader: ReportReader,
  source: CatalogSource,
  releasePath: string | undefined,
  fallbackOwner: string,
): Promise<CatalogChoice> {
  const builtIn = source.catalog();
  if (releasePath === undefined) return { catalog: builtIn, shape: { acceptIds: [] } };
  const file = await reader.read(releasePath);
  const release = readFrmrRelease(file.document, file.path);
  const catalog = builtIn.withDefinitions(officialDefinitions(release, builtIn, fallbackOwner));
  const acceptIds = release.ksis.map((k) => k.id);
  const ids = new Set(acceptIds);
  return { catalog, shape: { acceptsId: (id) => ids.has(id), acceptIds } };
}
