import type { InjectionToken } from 'tsyringe';
import type { ToolEvidenceType } from '../domain/fedramp/evidence-type';
import type { VendorScan } from '../domain/scan/scan';
import type { DetectionKind } from '../domain/vulnerabilities/detection';
import type { LoadedDocument } from './report-reader';

/** One scanner svc reads. */
export interface VendorInfo {
  /** The key users type: `svc adapter run <vendor> <raw>`. */
  vendor: string;
  tool: string;
  /** The output formats read, as the tool names them. */
  formats: string;
  /** Where NIST SP 800-53 controls come from. */
  mapping: string;
  /** What the SDR calls the tool's evidence (its `evidenceType`): `Configuration` or `Report`. */
  evidence: ToolEvidenceType;
  /** What its failed checks are as detections (VendorScan.detections). */
  detections: DetectionKind;
}

export interface ReadScan {
  file: Omit<LoadedDocument, 'document'>;
  scan: VendorScan;
}

/**
 * Reads scanners' native output files into scans (one parser per vendor). read() throws InvalidInputError for
 * an unknown vendor, an empty, truncated or malformed file, and a file of another format (naming the vendor it
 * looks like); NotFoundError for a missing file.
 */
export interface ScanReader {
  vendors(): VendorInfo[];
  read(vendor: string, path: string): Promise<ReadScan>;
  /**
   * The one vendor whose format the file's head looks like (`svc adapter run auto`). InvalidInputError
   * `vendor-not-detected` when none does, `vendor-ambiguous` when several do, each naming the candidates and the fix.
   */
  detect(path: string): Promise<VendorInfo>;
}

export const SCAN_READER: InjectionToken<ScanReader> = Symbol('ScanReader');
