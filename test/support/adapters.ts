import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScanCheck, VendorScan } from '../../src/domain/scan/scan';
import type { VendorParser } from '../../src/infrastructure/scans/vendor-parser';
import { VendorScanReader } from '../../src/infrastructure/scans/vendor-scan-reader';
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

/** A temporary folder for the files a test file writes: made before its tests run, removed after. */
export function scratchFolder(prefix: string): { write(name: string, content: unknown): string; path(name: string): string } {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const path = (name: string) => join(dir, name);
  return {
    path,
    write: (name, content) => {
      writeFileSync(path(name), typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
      return path(name);
    },
  };
}

/** Provenance for reportFromScan in adapter tests. */
export const provenanceOf = (vendor: string) => ({ raw_file: 'x', raw_sha256: 'sha256:x', adapter: `svc-adapter-${vendor}`, adapter_version: '0.5.0' });
