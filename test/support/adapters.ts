import { join } from 'node:path';
import type { ScanCheck, VendorScan } from '../../src/domain/scan/scan';
import type { VendorParser } from '../../src/infrastructure/adapters/vendor-parser';
import { VendorScanReader } from '../../src/infrastructure/adapters/vendor-scan-reader';
import { REFERENCE } from './run-svc';

/** A real scanner output file from ../shared/reference/raw-samples/<vendor>/. */
export const rawSample = (vendor: string, file: string) => join(REFERENCE, 'raw-samples', vendor, file);

/** Reads a file through one parser the way `svc adapter run` does (size, kind and format checks included). */
export async function readWith(parser: VendorParser, path: string): Promise<VendorScan & { sha256: string }> {
  const { scan, file } = await new VendorScanReader([parser]).read(parser.info.vendor, path);
  return { ...scan, sha256: file.sha256 };
}

/** How many checks have each outcome. */
export function outcomes(checks: readonly ScanCheck[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of checks) counts[c.outcome] = (counts[c.outcome] ?? 0) + 1;
  return counts;
}
