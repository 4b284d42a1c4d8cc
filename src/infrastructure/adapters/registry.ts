import type { VendorParser } from './vendor-parser';
import { scubagear } from './vendors/scubagear';

/** Every scanner svc reads, in the order `svc adapter run --list` shows them. */
export const VENDOR_PARSERS: readonly VendorParser[] = [scubagear];
