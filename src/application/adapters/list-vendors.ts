import { inject, injectable } from 'tsyringe';
import { SCAN_READER, type ScanReader, type VendorInfo } from '../../ports/scan-reader';

/** The scanners svc reads (`svc adapter run --list`). */
@injectable()
export class ListVendors {
  constructor(@inject(SCAN_READER) private readonly scans: ScanReader) {}

  async execute(): Promise<{ vendors: VendorInfo[] }> {
    return { vendors: this.scans.vendors() };
  }
}
