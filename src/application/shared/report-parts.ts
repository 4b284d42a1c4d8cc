import { sortedById } from '../../domain/assessment/assessment';
import type { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import { readNormalizedReport, type KsiResult, type NormalizedReport, type ReportShapeOptions } from '../../domain/ksi/ksi-result';
import type { PartCheck } from '../../domain/artifacts/partition';
import type { PartitionedReportReader, RemotePart } from '../../ports/partitioned-report';
import type { LoadedDocument, ReportReader } from '../../ports/report-reader';
import type { ScanReader } from '../../ports/scan-reader';
import { loadReport } from './load-report';
import { readAsReport } from './scanner-output';

export interface CheckedPart {
  part: RemotePart;
  check: Extract<PartCheck, { ok: true }>;
}

export interface ReportParts {
  file: Omit<LoadedDocument, 'document'>;
  /** Report-level fields; `results` holds the first part only. */
  report: NormalizedReport;
  /** First part's results, in ksi_id order. */
  local: readonly KsiResult[];
  /** Later parts, checked, each following the one before in ksi_id order. */
  remote: CheckedPart[];
  close(): Promise<void>;
}

/**
 * Reads a normalized report, in parts when `parts` can (ports/partitioned-report.ts), and checks it as a whole
 * report is checked. Parts must each be valid and sorted, and follow one another in ksi_id order (so no
 * id repeats across them); when they do not, or any part cannot vouch for itself, the report is read whole,
 * which sorts it and reports its first error exactly as a one-piece read does. A scanner's own output is refused
 * naming the adapter to run (readAsReport).
 */
export async function readReportParts(
  parts: PartitionedReportReader,
  reader: ReportReader,
  scans: ScanReader,
  path: string,
  catalog: KsiCatalog,
  shape: ReportShapeOptions & { acceptIds: string[] },
): Promise<ReportParts> {
  return readAsReport(scans, path, () => readParts(parts, reader, scans, path, catalog, shape));
}

async function readParts(
  parts: PartitionedReportReader,
  reader: ReportReader,
  scans: ScanReader,
  path: string,
  catalog: KsiCatalog,
  shape: ReportShapeOptions & { acceptIds: string[] },
): Promise<ReportParts> {
  const parted = await parts.readInParts(path);
  const close = () => Promise.all(parted.remote.map((p) => p.close())).then(() => undefined);
  try {
    const report = readNormalizedReport(parted.header, parted.file.path, shape);
    const arrayPath = Array.isArray(parted.header) ? '' : 'results';
    const local = readNormalizedReport(parted.local, parted.file.path, { ...shape, arrayPath }).results;
    const sorted = sortedById(local);
    if (parted.remote.length === 0) return { file: parted.file, report: { ...report, results: local }, local: sorted, remote: [], close };
    const rules = { arrayPath, acceptIds: shape.acceptIds, catalog: catalog.data, extra: catalog.extraDefinitions() };
    // A part that cannot even answer (its thread died) cannot vouch for itself either.
    const checks = await Promise.all(parted.remote.map((p) => p.check(rules).catch((error: Error): PartCheck => ({ ok: false, reason: error.message }))));
    const remote: CheckedPart[] = [];
    let last = local.at(-1)?.ksi_id ?? '';
    let inOrder = sorted === local;
    checks.forEach((check, i) => {
      if (!check.ok || !check.sorted || (check.first !== undefined && !(last < check.first))) inOrder = false;
      else {
        remote.push({ part: parted.remote[i], check });
        last = check.last ?? last;
      }
    });
    if (inOrder) return { file: parted.file, report: { ...report, results: local }, local, remote, close };
  } catch (error) {
    await close();
    throw error;
  }
  await close();
  const { file, report } = await loadReport(reader, scans, path, shape);
  const { document: _parsed, ...rest } = file;
  return { file: rest, report, local: sortedById(report.results), remote: [], close: async () => undefined };
}
