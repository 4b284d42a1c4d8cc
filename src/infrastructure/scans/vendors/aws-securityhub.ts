import { controlsFromReferences } from '../../../domain/catalog/ksi-catalog';
import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ScanWeakness, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/aws-securityhub-controls.json';
import type { RawInput } from '../raw-input';
import { asText, clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'AWS Security Hub';
const PREFIXES = new Map(Object.entries(table.controlPrefixes as Record<string, string[]>).map(([prefix, controls]) => [prefix.toLowerCase(), controls]));
const PRODUCTS = table.products as Record<string, string[]>;

/**
 * `Compliance.Status` of a control finding. WARNING means Security Hub could not fully evaluate the control
 * (information missing, check unsupported): an error, so the KSI warns. NOT_AVAILABLE is mostly AWS Config's
 * NOT_APPLICABLE (such findings are archived after 3 days).
 */
const COMPLIANCE: Record<string, CheckOutcome> = { PASSED: 'pass', FAILED: 'fail', WARNING: 'error', NOT_AVAILABLE: 'not-applicable' };

/**
 * ASFF `Vulnerabilities[].FixAvailable`. PARTIAL (a fix for some of the affected packages) counts as a fix: the
 * remediation can start, and the finding stays until every package is fixed.
 */
const FIX_AVAILABLE: Record<string, boolean> = { YES: true, PARTIAL: true, NO: false };

/** `Severity.Normalized` bands, for findings from products that write no label. */
const NORMALIZED: [number, string][] = [
  [90, 'CRITICAL'],
  [70, 'HIGH'],
  [40, 'MEDIUM'],
  [1, 'LOW'],
  [0, 'INFORMATIONAL'],
];

type Finding = Record<string, unknown>;

/**
 * AWS Security Hub findings in the AWS Security Finding Format (ASFF): `aws securityhub get-findings` output
 * (`{"Findings": [...]}`), the same under `findings`, a bare array, or an EventBridge event (`detail.findings`).
 * Control findings (FSBP, CIS, NIST, consolidated controls) carry `Compliance.Status`; findings of other
 * products (GuardDuty, Inspector, Macie) carry none and list only problems.
 */
export const awsSecurityhub: VendorParser = {
  info: {
    vendor: 'aws-securityhub',
    tool: TOOL,
    formats: 'ASFF JSON (aws securityhub get-findings)',
    mapping: 'Security Hub NIST.800-53.r5 related requirements, else control prefix / product table (data/aws-securityhub-controls.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) => /"SchemaVersion"\s*:\s*"2018-10-08"/.test(head) && /"(ProductArn|GeneratorId)"\s*:/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const { findings, path } = findingsOf(input, await input.json());
    const checks: ScanCheck[] = [];
    const accounts = new Set<string>();
    // Accounts whose finding-only products (GuardDuty, Inspector...) reported, and the controls they cover.
    const scanned = new Map<string, { controls: Set<string>; products: Set<string> }>();
    let latest: string | undefined;
    findings.forEach((finding, i) => {
      const at = `${path}[${i}]`;
      if (!isPlainObject(finding) || typeof finding.GeneratorId !== 'string')
        throw shapeError(input, TOOL, `${at}.GeneratorId`, 'missing; every ASFF finding has one');
      const account = accountOf(finding);
      if (account) accounts.add(account);
      const updated = isoTime(finding.UpdatedAt);
      if (updated && (latest === undefined || Date.parse(updated) > Date.parse(latest))) latest = updated;
      const compliance = isPlainObject(finding.Compliance) ? finding.Compliance : undefined;
      if (compliance && compliance.Status !== undefined) {
        checks.push(controlCheck(input, finding, compliance, at));
        return;
      }
      const check = findingCheck(finding);
      checks.push(check);
      if (!account) return;
      const target = scanned.get(account) ?? { controls: new Set<string>(), products: new Set<string>() };
      check.controls.forEach((c) => target.controls.add(c));
      target.products.add(productOf(finding));
      scanned.set(account, target);
    });
    // Finding-only products list problems only: one passing check per account they covered, so a clean
    // account shows as PASS and any finding outranks it.
    for (const [account, { controls, products }] of scanned) {
      checks.push({
        id: `scan:${account}`,
        outcome: 'pass',
        criticality: 'should',
        controls: [...controls],
        title: `Account covered by ${[...products].join(', ')}`,
        resource: account,
      });
    }
    return {
      vendor: 'aws-securityhub',
      tool: TOOL,
      ...(accounts.size > 0 ? { tenant: [...accounts].join(', ') } : {}),
      ...(latest ? { observed_at: latest } : {}),
      mapping: awsSecurityhub.info.mapping,
      checks,
    };
  },
};

function findingsOf(input: RawInput, document: unknown): { findings: unknown[]; path: string } {
  if (Array.isArray(document)) return { findings: document, path: '' };
  if (isPlainObject(document)) {
    if (Array.isArray(document.Findings)) return { findings: document.Findings, path: 'Findings' };
    if (Array.isArray(document.findings)) return { findings: document.findings, path: 'findings' };
    if (isPlainObject(document.detail) && Array.isArray(document.detail.findings)) return { findings: document.detail.findings, path: 'detail.findings' };
  }
  throw shapeError(input, TOOL, 'Findings', 'missing; expected {"Findings": [...]}, {"findings": [...]} or an array of ASFF findings');
}

/** A control finding: one evaluation of a Security Hub control (or a partner's check) with a compliance status. */
function controlCheck(input: RawInput, finding: Finding, compliance: Record<string, unknown>, at: string): ScanCheck {
  const status = asText(compliance.Status);
  const evaluated = entry(COMPLIANCE, status);
  if (!evaluated)
    throw shapeError(input, TOOL, `${at}.Compliance.Status`, `"${status.slice(0, 40)}" is not a compliance status (PASSED, FAILED, WARNING, NOT_AVAILABLE)`);
  const fields = isPlainObject(finding.ProductFields) ? finding.ProductFields : {};
  const id = [compliance.SecurityControlId, fields.ControlId, fields.RuleId, finding.GeneratorId].find(
    (x): x is string => typeof x === 'string' && x !== '',
  ) as string;
  const severity = severityOf(finding);
  // Security Hub labels every PASSED control finding INFORMATIONAL, so only a failure is dropped for it.
  const outcome = suppressed(finding) ? 'omitted' : evaluated === 'fail' && severity === 'INFORMATIONAL' ? 'not-applicable' : evaluated;
  const reasons = Array.isArray(compliance.StatusReasons) ? compliance.StatusReasons : [];
  const reason = isPlainObject(reasons[0]) ? reasons[0].Description : undefined;
  const related = nistRequirements(compliance.RelatedRequirements);
  const prefix = id.includes('.') ? id.slice(0, id.lastIndexOf('.')).toLowerCase() : '';
  return check(finding, id, outcome, related.length > 0 ? related : (PREFIXES.get(prefix) ?? table.default), severity, reason);
}

/** A finding of a product that reports problems only (GuardDuty, Inspector, Macie): a failure while active. */
function findingCheck(finding: Finding): ScanCheck {
  const vulnerabilities = Array.isArray(finding.Vulnerabilities) ? finding.Vulnerabilities : [];
  const vulnerability = isPlainObject(vulnerabilities[0]) && typeof vulnerabilities[0].Id === 'string' ? vulnerabilities[0].Id : undefined;
  const types = Array.isArray(finding.Types) ? finding.Types.filter((t): t is string => typeof t === 'string') : [];
  const generator = finding.GeneratorId as string;
  // GuardDuty's generator is its detector's ARN; the finding type (`Recon:EC2-Portscan`) is the rule.
  const id = vulnerability ?? (generator.startsWith('arn:') && types[0] ? types[0].slice(types[0].lastIndexOf('/') + 1) : generator);
  const severity = severityOf(finding);
  const workflow = isPlainObject(finding.Workflow) ? finding.Workflow.Status : undefined;
  const outcome: CheckOutcome = suppressed(finding) || workflow === 'RESOLVED' ? 'omitted' : severity === 'INFORMATIONAL' ? 'not-applicable' : 'fail';
  const related = isPlainObject(finding.Compliance) ? nistRequirements(finding.Compliance.RelatedRequirements) : [];
  const isVulnerability = vulnerabilities.length > 0 || types.some((t) => t.includes('/Vulnerabilities'));
  const controls = related.length > 0 ? related : isVulnerability ? table.vulnerability : (entry(PRODUCTS, productOf(finding)) ?? table.findingDefault);
  const found = check(finding, id, outcome, controls, severity, undefined);
  if (!isVulnerability) return found;
  const first = isPlainObject(vulnerabilities[0]) ? vulnerabilities[0] : {};
  const cvss = cvssOf(first.Cvss);
  const fix = typeof first.FixAvailable === 'string' ? entry(FIX_AVAILABLE, first.FixAvailable) : undefined;
  return {
    ...found,
    weakness: { ...found.weakness, kind: 'vulnerability', ...(cvss === undefined ? {} : { cvss }), ...(fix === undefined ? {} : { fix_available: fix }) },
  };
}

/** The base score of `Vulnerabilities[].Cvss[]`: the first CVSS 3.x entry's, else the first entry's (v2 or v4). */
function cvssOf(cvss: unknown): number | undefined {
  const scores = (Array.isArray(cvss) ? cvss : [])
    .filter(isPlainObject)
    .filter((c) => typeof c.BaseScore === 'number' && c.BaseScore >= 0 && c.BaseScore <= 10);
  const chosen = scores.find((c) => /^3(\.|$)/.test(asText(c.Version ?? ''))) ?? scores[0];
  return chosen === undefined ? undefined : (chosen.BaseScore as number);
}

function check(finding: Finding, id: string, outcome: CheckOutcome, controls: string[], severity: string | undefined, reason: unknown): ScanCheck {
  const resources = Array.isArray(finding.Resources) ? finding.Resources : [];
  const resource = isPlainObject(resources[0]) && typeof resources[0].Id === 'string' ? resources[0].Id : undefined;
  const details = [reason, finding.Description].find((x): x is string => typeof x === 'string' && x.trim() !== '');
  // When the product first saw the problem, which is usually well before this export.
  const firstSeen = isoTime(finding.FirstObservedAt) ?? isoTime(finding.CreatedAt);
  const weakness: ScanWeakness | undefined = firstSeen ? { detected_at: firstSeen } : undefined;
  return {
    id,
    outcome,
    criticality: criticalityOf(severity),
    controls,
    ...(typeof finding.Title === 'string' && finding.Title !== '' ? { title: finding.Title } : {}),
    ...(severity ? { severity } : {}),
    ...(resource ? { resource } : {}),
    ...(details ? { details: clip(details) } : {}),
    ...(weakness ? { weakness } : {}),
  };
}

/** ARCHIVED records are closed (the resource is gone, or the check stopped); SUPPRESSED ones were waived. */
function suppressed(finding: Finding): boolean {
  const workflow = isPlainObject(finding.Workflow) ? finding.Workflow.Status : undefined;
  return finding.RecordState === 'ARCHIVED' || workflow === 'SUPPRESSED';
}

function severityOf(finding: Finding): string | undefined {
  const severity = isPlainObject(finding.Severity) ? finding.Severity : {};
  if (typeof severity.Label === 'string') return severity.Label;
  const provider =
    isPlainObject(finding.FindingProviderFields) && isPlainObject(finding.FindingProviderFields.Severity)
      ? finding.FindingProviderFields.Severity.Label
      : undefined;
  if (typeof provider === 'string') return provider;
  const normalized = severity.Normalized;
  return typeof normalized === 'number' ? NORMALIZED.find(([floor]) => normalized >= floor)?.[1] : undefined;
}

function criticalityOf(severity: string | undefined): Criticality {
  return severity === 'CRITICAL' || severity === 'HIGH' ? 'must' : 'should';
}

/** `NIST.800-53.r5 AC-2(1)`, `NIST.800-53.r5 CM-6 b` → `ac-2.1`, `cm-6`; other frameworks' requirements are skipped. */
function nistRequirements(requirements: unknown): string[] {
  if (!Array.isArray(requirements)) return [];
  const nist = requirements.map((r) => (typeof r === 'string' ? /^NIST\.800-53\.r\d+\s+(.+)$/.exec(r.trim())?.[1] : undefined));
  return controlsFromReferences(nist.filter((r): r is string => r !== undefined));
}

/** The account a finding is about: `AwsAccountId`, else the account field of the finding's ARN. */
function accountOf(finding: Finding): string | undefined {
  if (typeof finding.AwsAccountId === 'string' && finding.AwsAccountId !== '') return finding.AwsAccountId;
  const arn = typeof finding.Id === 'string' ? /^arn:[^:]*:[^:]*:[^:]*:(\d+):/.exec(finding.Id) : null;
  return arn?.[1];
}

/** `arn:aws:securityhub:us-east-1::product/aws/guardduty` → `guardduty`. */
function productOf(finding: Finding): string {
  const arn = typeof finding.ProductArn === 'string' ? finding.ProductArn : '';
  return arn.slice(arn.lastIndexOf('/') + 1).toLowerCase() || 'unknown';
}
