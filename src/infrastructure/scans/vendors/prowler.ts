import { controlFromReference } from '../../../domain/catalog/ksi-catalog';
import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/prowler-services.json';
import type { RawInput } from '../raw-input';
import { asText, clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'Prowler';
const SERVICES = table.services as Record<string, string[]>;

const STATUS_CODES: Record<string, CheckOutcome> = { PASS: 'pass', FAIL: 'fail', MANUAL: 'manual' };

/**
 * The `unmapped.compliance` frameworks whose requirement ids are NIST SP 800-53 controls, each in its own
 * spelling: `NIST-800-53-Revision-5` writes `ac_2_1`, `FedRamp-Moderate-Revision-4` `ac-2-1`, Revision 5
 * `AC-2 (2)`. The FedRAMP 20x frameworks (`FedRAMP-20x-KSI-Low-25.05C`) name KSI themes, not controls.
 */
const NIST_FRAMEWORK = /^(NIST-800-53|FedRAMP-(Low|Moderate|High))-/i;

/**
 * Prowler (CSPM for AWS, Azure, GCP, Kubernetes): the OCSF JSON output, an array of OCSF 1.x Detection
 * Findings, one per check and resource. Controls come from Prowler's own NIST 800-53 / FedRAMP compliance
 * ids when the finding has them, else from the check's service prefix (`data/prowler-services.json`).
 */
export const prowler: VendorParser = {
  info: {
    vendor: 'prowler',
    tool: TOOL,
    formats: 'OCSF JSON (*.ocsf.json, --output-formats json-ocsf)',
    mapping: 'Prowler NIST 800-53 / FedRAMP compliance ids, else check service prefix (data/prowler-services.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) => /^\s*\[/.test(head) && /"event_code"\s*:/.test(head) && /"(vendor_name|name)"\s*:\s*"Prowler"/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    if (!Array.isArray(document)) throw shapeError(input, TOOL, '$', 'expected a JSON array of OCSF Detection Findings');
    const checks: ScanCheck[] = [];
    const accounts = new Set<string>();
    let version: string | undefined;
    let latest: number | undefined;
    document.forEach((finding, i) => {
      if (!isPlainObject(finding)) throw shapeError(input, TOOL, `[${i}]`, 'expected an OCSF Detection Finding object');
      checks.push(findingCheck(input, finding, i));
      const account = field(finding, 'cloud', 'account', 'uid');
      if (typeof account === 'string' && account !== '') accounts.add(account);
      const product = field(finding, 'metadata', 'product', 'version');
      if (version === undefined && typeof product === 'string' && product !== '') version = product;
      const time = epochMs(finding.time);
      if (time !== undefined && (latest === undefined || time > latest)) latest = time;
    });
    const observedAt = latest === undefined ? undefined : isoTime(latest);
    return {
      vendor: 'prowler',
      tool: TOOL,
      ...(version ? { version } : {}),
      ...(accounts.size > 0 ? { tenant: [...accounts].join(', ') } : {}),
      ...(observedAt ? { observed_at: observedAt } : {}),
      mapping: prowler.info.mapping,
      checks,
    };
  },
};

function findingCheck(input: RawInput, finding: Record<string, unknown>, i: number): ScanCheck {
  const id = field(finding, 'metadata', 'event_code');
  if (typeof id !== 'string' || id === '') throw shapeError(input, TOOL, `[${i}].metadata.event_code`, 'missing (the Prowler check id)');
  const code = asText(finding.status_code);
  const status = entry(STATUS_CODES, code);
  if (!status) throw shapeError(input, TOOL, `[${i}].status_code`, `"${code.slice(0, 40)}" is not a Prowler status (PASS, FAIL, MANUAL)`);
  const severity = typeof finding.severity === 'string' ? finding.severity : undefined;
  const criticality = criticalityOf(severity);
  const controls = complianceControls(finding.unmapped);
  const resource = firstResource(finding.resources);
  const title = field(finding, 'finding_info', 'title');
  const details = [finding.status_detail, finding.message].find((x) => typeof x === 'string' && x.trim() !== '') as string | undefined;
  // OCSF's first_seen_time is when the finding was first seen; created_time is only when this run wrote it.
  const firstSeenMs = epochMs(field(finding, 'finding_info', 'first_seen_time'));
  const firstSeen = firstSeenMs === undefined ? undefined : isoTime(firstSeenMs);
  return {
    id,
    outcome: outcomeOf(finding, status, criticality),
    criticality: criticality ?? 'should',
    controls: controls.length > 0 ? controls : (entry(SERVICES, id.split('_')[0]) ?? table.default),
    ...(typeof title === 'string' && title !== '' ? { title } : {}),
    ...(severity ? { severity } : {}),
    ...(resource ? { resource } : {}),
    ...(details ? { details: clip(details) } : {}),
    ...(firstSeen ? { weakness: { detected_at: firstSeen } } : {}),
  };
}

/**
 * A muted finding (Prowler's mutelist) keeps its PASS/FAIL but is written with OCSF status `Suppressed`: it
 * is omitted. An Informational (or Unknown/Other) check decides nothing, whether it passed or failed.
 */
function outcomeOf(finding: Record<string, unknown>, status: CheckOutcome, criticality: Criticality | undefined): CheckOutcome {
  if (finding.status === 'Suppressed' || finding.status_id === 3) return 'omitted';
  if (status !== 'manual' && criticality === undefined) return 'not-applicable';
  return status;
}

/** OCSF severities: Critical, High and Fatal are must; Medium and Low should; the rest decide nothing. */
function criticalityOf(severity: string | undefined): Criticality | undefined {
  const label = severity?.toLowerCase();
  if (label === 'critical' || label === 'high' || label === 'fatal') return 'must';
  if (label === 'medium' || label === 'low') return 'should';
  return undefined;
}

/** The NIST SP 800-53 requirement ids (`ac_2_1`, `AC-2 (1)`) Prowler lists under its NIST and FedRAMP frameworks, as controls. */
function complianceControls(unmapped: unknown): string[] {
  const compliance = isPlainObject(unmapped) ? unmapped.compliance : undefined;
  if (!isPlainObject(compliance)) return [];
  const controls = new Set<string>();
  for (const [framework, ids] of Object.entries(compliance)) {
    if (!NIST_FRAMEWORK.test(framework) || !Array.isArray(ids)) continue;
    for (const raw of ids) {
      const control = typeof raw === 'string' ? controlFromReference(raw) : undefined;
      if (control) controls.add(control);
    }
  }
  return [...controls];
}

function firstResource(resources: unknown): string | undefined {
  const first: unknown = Array.isArray(resources) ? resources[0] : undefined;
  if (!isPlainObject(first)) return undefined;
  return [first.uid, first.name].find((x): x is string => typeof x === 'string' && x !== '');
}

/**
 * OCSF `time` is epoch milliseconds, but Prowler writes seconds; `time_dt` is the scanning machine's local
 * clock without a zone, so it is not used.
 */
function epochMs(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return value < 1e12 ? value * 1000 : value;
}

function field(object: Record<string, unknown>, ...path: string[]): unknown {
  let value: unknown = object;
  for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
  return value;
}
