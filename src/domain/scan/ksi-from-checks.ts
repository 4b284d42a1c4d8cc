import { baseControl, ksiIdForControl, normalizeControlId } from '../catalog/ksi-catalog';
import { type Check, type KsiResult, type NormalizedReport } from '../ksi/ksi-result';
import { isIsoTime } from '../encoding/json-values';
import type { Status } from '../ksi/status';
import type { ContentDigest } from '../evidence/content-digest';
import { detectionId, type Detection } from '../vulnerabilities/detection';
import { CHECK_OUTCOMES, type CheckOutcome, type Criticality, type ScanCheck, type VendorScan } from './scan';

/** One check as it counts towards a KSI. */
export interface KsiCheck {
  id: string;
  outcome: CheckOutcome;
  criticality: Criticality;
  details?: string;
  resource?: string;
}

/**
 * The status a KSI's checks give it: FAIL when a must-check failed; WARN when a should-check failed or a
 * check errored; PASS when at least one check passed and none of that happened; none at all when no check
 * was assessed (only manual, not-applicable, omitted or incorrect ones) — the KSI is then reported as not
 * assessed rather than guessed.
 */
export function ksiStatus(checks: readonly Pick<KsiCheck, 'outcome' | 'criticality'>[]): Status | undefined {
  let status: Status | undefined;
  for (const { outcome, criticality } of checks) {
    if (outcome === 'fail' && criticality === 'must') return 'FAIL';
    if (outcome === 'fail' || outcome === 'error') status = 'WARN';
    else if (outcome === 'pass' && status === undefined) status = 'PASS';
  }
  return status;
}

/** How a check is written in a KSI result's `checks`: FAIL/WARN for failed must/should checks, else its outcome. */
export function checkStatus({ outcome, criticality }: Pick<KsiCheck, 'outcome' | 'criticality'>): string {
  if (outcome === 'fail') return criticality === 'must' ? 'FAIL' : 'WARN';
  return outcome.toUpperCase().replace('-', '_');
}

export interface ScanSummary {
  checks: number;
  outcomes: Record<CheckOutcome, number>;
  ksis: number;
  statuses: Record<Status, number>;
  /** Checks no control maps: counted, listed, and in no KSI. */
  unmapped_checks: string[];
  /** KSIs whose checks were all manual, not applicable, omitted or incorrect. */
  not_assessed: string[];
}

export interface ScanProvenance {
  raw_file: string;
  raw_sha256: string;
  adapter: string;
  adapter_version: string;
}

/**
 * A normalized report (DESIGN §3) from a scan: each check goes to the KSI of each control it evidences
 * (the control's base control gives the KSI: `ia-2.1` → KSI-IA-02), and each KSI takes the status its checks
 * give it. Every check is counted in the summary, whatever its outcome, and keeps its id in the KSI's checks.
 */
export function reportFromScan(
  scan: VendorScan,
  provenance: ScanProvenance,
  generatedAt: string,
): { report: NormalizedReport & { summary: ScanSummary }; summary: ScanSummary } {
  const byKsi = new Map<string, KsiCheck[]>();
  const outcomes = Object.fromEntries(CHECK_OUTCOMES.map((o) => [o, 0])) as Record<CheckOutcome, number>;
  const unmapped: string[] = [];
  for (const check of scan.checks) {
    outcomes[check.outcome] += 1;
    const ksis = ksisOf(check);
    if (ksis.length === 0) unmapped.push(check.id);
    for (const ksi of ksis) {
      const list = byKsi.get(ksi) ?? [];
      list.push(ksiCheck(check));
      byKsi.set(ksi, list);
    }
  }
  const source = [scan.tool, scan.version].filter(Boolean).join(' ');
  const observedAt = scan.observed_at !== undefined && isIsoTime(scan.observed_at) ? scan.observed_at : undefined;
  const results: KsiResult[] = [];
  const notAssessed: string[] = [];
  for (const ksiId of [...byKsi.keys()].sort()) {
    const checks = byKsi.get(ksiId) ?? [];
    const status = ksiStatus(checks);
    if (!status) notAssessed.push(ksiId);
    else results.push(ksiResult(ksiId, status, checks, source, observedAt));
  }
  const statuses: Record<Status, number> = { PASS: 0, WARN: 0, FAIL: 0 };
  for (const r of results) statuses[r.status] += 1;
  const summary: ScanSummary = {
    checks: scan.checks.length,
    outcomes,
    ksis: results.length,
    statuses,
    unmapped_checks: [...new Set(unmapped)].sort(),
    not_assessed: notAssessed,
  };
  const report = {
    schema_version: '1',
    generated_at: generatedAt,
    source: {
      tool: scan.tool,
      ...(scan.version ? { version: scan.version } : {}),
      ...(scan.tenant ? { tenant: scan.tenant } : {}),
      mapping: scan.mapping,
      ...provenance,
    },
    results,
    summary,
  };
  return { report, summary };
}

/** The KSIs of the controls a check evidences, each once. */
function ksisOf(check: ScanCheck): string[] {
  const ksis = new Set<string>();
  for (const raw of check.controls) {
    const control = normalizeControlId(raw);
    if (control) ksis.add(ksiIdForControl(baseControl(control)));
  }
  return [...ksis];
}

function ksiCheck(check: ScanCheck): KsiCheck {
  return {
    id: check.id,
    outcome: check.outcome,
    criticality: check.criticality,
    ...(check.resource ? { resource: check.resource } : {}),
    ...(check.details ? { details: check.details } : {}),
  };
}

export function ksiResult(ksiId: string, status: Status, checks: readonly KsiCheck[], source: string, observedAt?: string): KsiResult {
  const count = (o: CheckOutcome) => checks.filter((c) => c.outcome === o).length;
  const failed = checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
  const parts = [`${count('pass')} of ${checks.length} checks passed`];
  if (failed.length > 0)
    parts.push(`${failed.length} failed or errored (${[...new Set(failed.map((c) => c.id))].slice(0, 10).join(', ')}${failed.length > 10 ? ', ...' : ''})`);
  const notAssessed = checks.length - count('pass') - failed.length;
  if (notAssessed > 0) parts.push(`${notAssessed} not assessed`);
  const sorted = [...checks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    ksi_id: ksiId,
    status,
    details: `${parts.join('; ')}.`,
    ...(observedAt ? { observed_at: observedAt } : {}),
    ...(source ? { source } : {}),
    checks: sorted.map((c): Check => ({
      id: c.id,
      status: checkStatus(c),
      ...(c.resource ? { resource: c.resource } : {}),
      ...(c.details ? { details: c.details } : {}),
    })),
  };
}

/**
 * Every failed check of a scan as a detection (DESIGN §12.4): a weakness scanner's findings and a configuration
 * scanner's failed checks alike (VER counts both), and a finding whose check decides nothing for its KSI but which the
 * scanner did report (`weakness.detected`: a match of Unknown severity), detected when the scanner says, else when the scan ran, else at
 * `generatedAt`; the normalized report's `vulnerabilities[]`. The finding is the check's rule id; the resource is what the check
 * names, else the scanned tenant, else the scan as a whole. A check failed on the same resource twice (two rows of a
 * tool's output) is one detection. In the order the scanner listed them.
 */
export function detectionsOf(scan: VendorScan, generatedAt: string, digest: Pick<ContentDigest, 'sha256'>): Detection[] {
  const detectedAt = scan.observed_at !== undefined && isIsoTime(scan.observed_at) ? scan.observed_at : generatedAt;
  const found = new Map<string, Detection>();
  for (const check of scan.checks) {
    if (check.outcome !== 'fail' && check.weakness?.detected !== true) continue;
    const resource = text(check.resource) ?? text(scan.tenant) ?? `${scan.tool} scan`;
    const w = check.weakness ?? {};
    const findingId = text(w.finding_id) ?? check.id;
    const aliases = [...new Set((w.aliases ?? []).filter((a) => text(a) !== undefined && a !== findingId))];
    const id = detectionId(scan.tool, findingId, resource, digest);
    if (found.has(id)) continue;
    const kind = w.kind ?? scan.detections;
    found.set(id, {
      id,
      source: scan.tool,
      finding_id: findingId,
      ...(aliases.length === 0 ? {} : { aliases }),
      resource,
      title: text(check.title) ?? check.id,
      scanner_severity: text(check.severity) ?? check.criticality,
      ...(w.cvss === undefined ? {} : { cvss: w.cvss }),
      detected_at: w.detected_at !== undefined && isIsoTime(w.detected_at) ? w.detected_at : detectedAt,
      ...(w.fix_available === undefined ? {} : { fix_available: w.fix_available }),
      ...(kind === 'configuration' ? { kind } : {}),
    });
  }
  return [...found.values()];
}

/** Text that says something, else undefined (a tool's empty field). */
function text(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
