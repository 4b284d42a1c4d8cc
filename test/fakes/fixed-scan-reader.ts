import { InvalidInputError } from '../../src/domain/errors';
import type { ReadScan, ScanReader, VendorInfo } from '../../src/ports/scan-reader';

/**
 * SCAN_READER whose detect() answers from a fixed map of path → scanner (`detected`, public: tests add to it) and
 * finds no scanner for any other path; read() reads nothing (use the VendorScanReader over real files for that).
 */
export class FixedScanReader implements ScanReader {
  constructor(readonly detected: Record<string, VendorInfo> = {}) {}

  vendors(): VendorInfo[] {
    return Object.values(this.detected);
  }

  async read(vendor: string, path: string): Promise<ReadScan> {
    throw new InvalidInputError('unknown-vendor', `${path}: the fixed scan reader reads no ${vendor} output`);
  }

  async detect(path: string): Promise<VendorInfo> {
    const found = this.detected[path];
    if (found === undefined) throw new InvalidInputError('vendor-not-detected', `${path}: looks like the output of none of the scanners svc reads`);
    return found;
  }
}
