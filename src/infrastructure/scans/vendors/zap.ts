import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/cwe-nist.json';
import type { RawInput } from '../raw-input';
import { asText, clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';
import { plural } from '../../../domain/encoding/plural';

type Json = Record<string, unknown>;

const TOOL = 'OWASP ZAP';
const CWE = table.cwe as Record<string, { name: string; controls: string[] } | undefined>;
/** A DAST alert is a vulnerability found by scanning (RA-5); input validation (SI-10) is the usual weakness, transmission protection (SC-8) for TLS alerts. */
const SCAN_CONTROLS = ['ra-5', 'si-10'];
const TLS = /\b(tls|ssl|https|hsts|strict-transport-security|certificate|cipher|mixed content)\b/i;

/** ZAP `riskcode`: 0 Informational decides nothing, 1 Low and 2 Medium warn, 3 High fails. */
const RISKS = new Map<string, { label: string; criticality?: Criticality }>([
  ['0', { label: 'Informational' }],
  ['1', { label: 'Low', criticality: 'should' }],
  ['2', { label: 'Medium', criticality: 'should' }],
  ['3', { label: 'High', criticality: 'must' }],
]);

/**
 * OWASP ZAP traditional JSON report (`-J report.json`, `traditional-json`): one check per alert per site, plus one
 * `scan:<site>` pass per site (ZAP lists alerts only). ZAP has no NIST references: the alert's `cweid` goes
 * through svc's CWE table (`data/cwe-nist.json`), and every alert also evidences RA-5.
 */
export const zap: VendorParser = {
  info: {
    vendor: 'zap',
    tool: TOOL,
    formats: 'ZAP traditional JSON report (-J, traditional-json)',
    mapping: 'svc CWE table (data/cwe-nist.json), else si-10 (sc-8 for TLS alerts); ra-5 for every alert',
    evidence: 'Report',
    detections: 'vulnerability',
  },

  looksLike: (head) => /"@generated"\s*:/.test(head) && /"site"\s*:/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    const sites = isPlainObject(document) && isPlainObject(document.site) ? [document.site] : isPlainObject(document) ? document.site : undefined;
    if (!isPlainObject(document) || !Array.isArray(sites))
      throw shapeError(input, TOOL, 'site', 'missing; a ZAP JSON report is {"@version": ..., "@generated": ..., "site": [...]}');
    const checks: ScanCheck[] = [];
    sites.forEach((site, i) => {
      if (!isPlainObject(site) || typeof site['@name'] !== 'string') throw shapeError(input, TOOL, `site[${i}]["@name"]`, 'missing');
      const name = site['@name'];
      const alerts = site.alerts ?? [];
      if (!Array.isArray(alerts)) throw shapeError(input, TOOL, `site[${i}].alerts`, 'expected a list of alerts');
      alerts.forEach((alert, j) => checks.push(alertCheck(input, name, alert, `site[${i}].alerts[${j}]`)));
      // ZAP lists alerts only: the site's own pass lets a clean site show as PASS, and any alert outranks it.
      checks.push({
        id: `scan:${name}`,
        outcome: 'pass',
        criticality: 'should',
        controls: SCAN_CONTROLS,
        title: 'Site scanned',
        resource: name,
        details: `${plural(alerts.length, 'alert')}`,
      });
    });
    const version = document['@version'];
    const observedAt = generatedAt(document['@generated']);
    return {
      vendor: 'zap',
      tool: TOOL,
      ...(typeof version === 'string' && version !== '' ? { version } : {}),
      ...(observedAt ? { observed_at: observedAt } : {}),
      mapping: zap.info.mapping,
      checks,
    };
  },
};

function alertCheck(input: RawInput, site: string, alert: unknown, path: string): ScanCheck {
  if (!isPlainObject(alert) || !['string', 'number'].includes(typeof alert.pluginid)) throw shapeError(input, TOOL, `${path}.pluginid`, 'missing');
  const risk = RISKS.get(asText(alert.riskcode));
  if (!risk) throw shapeError(input, TOOL, `${path}.riskcode`, `${JSON.stringify(alert.riskcode)} is not a ZAP risk code (0, 1, 2, 3)`);
  const title = [alert.alert, alert.name].find((x) => typeof x === 'string' && x !== '') as string | undefined;
  // Confidence 0 is ZAP's "False Positive": a user marked the alert as not a finding.
  const outcome: CheckOutcome = asText(alert.confidence) === '0' ? 'omitted' : risk.criticality ? 'fail' : 'not-applicable';
  return {
    id: String(alert.pluginid),
    outcome,
    criticality: risk.criticality ?? 'should',
    controls: controlsOf(alert.cweid, title ?? ''),
    ...(title ? { title: clip(title, 120) } : {}),
    severity: typeof alert.riskdesc === 'string' && alert.riskdesc !== '' ? alert.riskdesc : risk.label,
    resource: site,
    details: clip(instancesOf(alert), 300),
  };
}

function controlsOf(cweid: unknown, title: string): string[] {
  const mapped = entry(CWE, String(Number(asText(cweid))))?.controls ?? (TLS.test(title) ? ['sc-8'] : ['si-10']);
  return [...new Set([...mapped, 'ra-5'])];
}

/** How many instances, and the first one's method and URI (never the evidence or the HTML descriptions). */
function instancesOf(alert: Json): string {
  const instances = Array.isArray(alert.instances) ? alert.instances : [];
  const count = Number(asText(alert.count ?? instances.length)) || instances.length;
  const first = isPlainObject(instances[0]) ? instances[0] : {};
  const where = [first.method, first.uri].filter((x) => typeof x === 'string' && x !== '').join(' ');
  return `${plural(count, 'instance')}${where ? `; first: ${where}` : ''}`;
}

/**
 * ZAP writes `@generated` in the scanning machine's local time with no zone ("Thu, 6 Dec 2018 10:53:11"); svc
 * reads a zone-less time as UTC so that the result does not depend on the zone svc itself runs in.
 */
function generatedAt(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return isoTime(/(z|gmt|utc|[+-]\d{2}:?\d{2})$/i.test(value.trim()) ? value : `${value.trim()} UTC`);
}
