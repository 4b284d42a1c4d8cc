import type { DetectionKind } from '../vulnerabilities/detection';

/**
 * What a scanner's raw output says, once an adapter has read it: the checks it ran, each with its outcome,
 * how much it matters, and the NIST SP 800-53 controls it evidences.
 */
export const CHECK_OUTCOMES = ['pass', 'fail', 'error', 'manual', 'not-applicable', 'omitted', 'incorrect'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/** `must` (a SHALL, a high-severity finding): failing it fails the KSI; `should`: failing it warns. */
export type Criticality = 'must' | 'should';

export interface ScanCheck {
  /** The tool's rule id (`MS.AAD.1.1v1`, `iam_root_mfa_enabled`, plugin 19506). */
  id: string;
  outcome: CheckOutcome;
  criticality: Criticality;
  /** OSCAL control ids (`ac-2`, `ia-2.1`) the check evidences; empty when nothing maps it. */
  controls: string[];
  title?: string;
  /** The tool's own severity label, kept as written. */
  severity?: string;
  /** What was checked (a host, a resource id, a file and line). */
  resource?: string;
  details?: string;
  /** What a failed check says as a weakness beyond the check itself (DESIGN §12.4), where the scanner gives it. */
  weakness?: ScanWeakness;
}

/** A failed check as a detection: its kind, when the vendor's default is not right for it, and what the scanner adds. */
export interface ScanWeakness {
  kind?: DetectionKind;
  /** The finding id when it is not the check's id (a Nessus audit item: every one is plugin 21157). */
  finding_id?: string;
  /** CVSS base score, 0–10. */
  cvss?: number;
  fix_available?: boolean;
  /** When the scanner first saw it (ISO-8601), if it says. */
  detected_at?: string;
  /**
   * A finding the scanner reported whose check decides nothing for its KSI (a match of Unknown severity): a detection
   * all the same. CR26 rates a detection by its PAIN, not by the scanner's severity, which stays as evidence.
   */
  detected?: boolean;
  /** Other ids the scanner gave for the same finding: the advisory (GHSA, ALAS) reported under the CVE it names. */
  aliases?: string[];
}

export interface VendorScan {
  /** The adapter key (`scubagear`, `nessus`). */
  vendor: string;
  tool: string;
  version?: string;
  /** Tenant, account or subscription the scan covered. */
  tenant?: string;
  /** When the scan ran (ISO-8601), if the file says. */
  observed_at?: string;
  /** Where the checks' controls come from: the tool's own references, or a named svc table. */
  mapping: string;
  /**
   * What the vendor's failed checks are as detections (DESIGN §12.4): `vulnerability` for weakness scanners (CVEs,
   * plugins, code and web findings), `configuration` for configuration scanners; a check's `weakness.kind` overrides it.
   */
  detections: DetectionKind;
  checks: ScanCheck[];
}

/** A scan as a vendor's parser reads it: its detection kind is the parser's own (VendorInfo.detections). */
export type ParsedScan = Omit<VendorScan, 'detections'>;
