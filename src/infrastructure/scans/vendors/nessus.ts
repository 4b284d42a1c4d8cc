import type { SaxesTagNS } from 'saxes';
import { controlFromReference } from '../../../domain/catalog/ksi-catalog';
import type { CheckOutcome, ScanCheck, ScanWeakness, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/nessus-controls.json';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';
import { plural } from '../../../domain/encoding/plural';

const TOOL = 'Nessus';
const FAMILIES = table.families as Record<string, string[]>;
const NAMES = table.names.map((n) => ({ pattern: new RegExp(n.pattern, 'i'), controls: n.controls }));
const MAX_DETAILS = 300;
const MAX_TITLE = 200;
/** Nessus' own names of `@severity` 0-4. */
const SEVERITIES = ['Info', 'Low', 'Medium', 'High', 'Critical'];
/** "Nessus Scan Information": its plugin_output names the scanner version. */
const SCAN_INFO_PLUGIN = '19506';

/** `cm:compliance-result` words of audit items; WARNING is Tenable's "could not decide, review by hand". */
const COMPLIANCE_RESULTS: Record<string, CheckOutcome> = {
  PASSED: 'pass',
  FAILED: 'fail',
  WARNING: 'manual',
  ERROR: 'error',
};

/** Text kept while streaming, by element local name, and how much of it. */
const KEPT: Record<string, number> = {
  synopsis: MAX_DETAILS,
  'compliance-check-name': MAX_TITLE,
  'compliance-check-id': 100,
  'compliance-result': 40,
  'compliance-reference': 4096,
  'compliance-actual-value': MAX_DETAILS,
  cvss3_base_score: 20,
  cvss_base_score: 20,
  // Only whether there is one: Tenable writes "n/a" when it has no solution to offer.
  solution: 20,
  patch_publication_date: 40,
};

interface Item {
  pluginId: string;
  name: string;
  family: string;
  severity: number;
  port: string;
  text: Record<string, string>;
}

interface Host {
  name: string;
  items: number;
  findings: number;
  compliance: number;
  start?: string;
  startText?: string;
}

/**
 * Tenable Nessus `.nessus` (v2) exports, vulnerability scans and compliance audits. Streamed, keeping a few short
 * fields per ReportItem: a scan of hundreds of megabytes is mostly plugin output and descriptions, which are
 * never kept. A vulnerability scan reports findings only, so each scanned host also gets one passing check
 * `scan:<host>`: a clean host then shows as scanned, and any finding outranks it.
 */
export const nessus: VendorParser = {
  info: {
    vendor: 'nessus',
    tool: TOOL,
    formats: '.nessus v2 XML export (vulnerability scans and compliance audits)',
    mapping: 'cm:compliance-reference 800-53 pairs, else svc plugin family/name table (data/nessus-controls.json)',
    evidence: 'Report',
    detections: 'vulnerability',
  },

  looksLike: (head) => /<NessusClientData_v2[\s>]/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const checks: ScanCheck[] = [];
    const hosts: Host[] = [];
    const stack: string[] = [];
    let host: Host | undefined;
    let item: Item | undefined;
    let policy: string | undefined;
    let version: string | undefined;
    let earliest: string | undefined;
    let capture: { what: string; depth: number; max: number; text: string } | undefined;

    const open = (tag: SaxesTagNS) => {
      stack.push(tag.local);
      const attr = (name: string) => tag.attributes[name]?.value;
      const keep = (what: string, max: number) => {
        capture = { what, depth: stack.length, max, text: '' };
      };
      if (stack.length === 1 && tag.local !== 'NessusClientData_v2') throw shapeError(input, TOOL, tag.name, 'the root element should be NessusClientData_v2');
      switch (tag.local) {
        case 'policyName':
          if (stack[stack.length - 2] === 'Policy') keep('policy', MAX_TITLE);
          break;
        case 'ReportHost':
          host = { name: clip(attr('name') ?? '', MAX_TITLE), items: 0, findings: 0, compliance: 0 };
          if (!host.name) throw shapeError(input, TOOL, `Report/ReportHost[${hosts.length + 1}]/@name`, 'missing');
          break;
        case 'tag':
          if (host && /^HOST_START(_TIMESTAMP)?$/.test(attr('name') ?? '')) keep(attr('name') ?? '', 40);
          break;
        case 'ReportItem': {
          if (!host) throw shapeError(input, TOOL, 'ReportItem', 'outside a ReportHost');
          const at = `ReportHost[@name="${host.name}"]/ReportItem[${host.items + 1}]`;
          const pluginId = attr('pluginID');
          if (!pluginId) throw shapeError(input, TOOL, `${at}/@pluginID`, 'missing');
          const severity = attr('severity') ?? '';
          if (!/^[0-4]$/.test(severity)) throw shapeError(input, TOOL, `${at}/@severity`, `"${severity.slice(0, 20)}" is not a Nessus severity (0-4)`);
          item = {
            pluginId: clip(pluginId, MAX_TITLE),
            name: clip(attr('pluginName') ?? '', MAX_TITLE),
            family: attr('pluginFamily') ?? '',
            severity: Number(severity),
            port: attr('port') ?? '0',
            text: {},
          };
          break;
        }
        default: {
          const max = entry(KEPT, tag.local);
          if (item && max !== undefined) keep(tag.local, max);
          // Only the scan information plugin's output is read, for the version; all other output is skipped.
          else if (item && tag.local === 'plugin_output' && item.pluginId === SCAN_INFO_PLUGIN && !version) keep('plugin_output', 16 * 1024);
        }
      }
    };

    const text = (chunk: string) => {
      if (capture && capture.text.length < capture.max) capture.text += chunk.slice(0, capture.max - capture.text.length);
    };

    const close = () => {
      if (capture && capture.depth === stack.length) {
        const { what, text: value } = capture;
        capture = undefined;
        if (what === 'policy') policy = clip(value, MAX_TITLE);
        else if (what === 'HOST_START_TIMESTAMP' && host) host.start = isoTime(Number(value.trim()) * 1000);
        else if (what === 'HOST_START' && host) host.startText = isoTime(value.trim());
        else if (what === 'plugin_output') {
          const found = /Nessus version\s*:\s*([\d.]+)/.exec(value)?.[1];
          if (found) version = clip(found, MAX_TITLE);
        } else if (item) item.text[what] = value;
      }
      const local = stack.pop();
      if (local === 'ReportItem' && item && host) {
        checks.push(itemCheck(input, item, host));
        item = undefined;
      } else if (local === 'ReportHost' && host) {
        hosts.push(host);
        // The epoch timestamp is exact; HOST_START ("Tue Mar 22 14:54:47 2022") has no time zone and is read as local time.
        const start = host.start ?? host.startText;
        if (start && (earliest === undefined || Date.parse(start) < Date.parse(earliest))) earliest = start;
        // A compliance audit also runs a few plugins (scan information, OS identification) without being a
        // vulnerability scan: only a host with no audit item gets the scan check, so RA-5 is never claimed from an audit.
        if (host.compliance === 0) checks.push(scanCheck(host, policy));
        host = undefined;
      }
    };

    await input.xml({ open, text, close });
    return {
      vendor: 'nessus',
      tool: TOOL,
      ...(version ? { version } : {}),
      tenant: `${plural(hosts.length, 'host')}`,
      ...(earliest ? { observed_at: earliest } : {}),
      mapping: nessus.info.mapping,
      checks,
    };
  },
};

function itemCheck(input: RawInput, item: Item, host: Host): ScanCheck {
  host.items += 1;
  const resource = clip(item.port === '0' ? host.name : `${host.name}:${item.port}`, MAX_TITLE);
  const severity = SEVERITIES[item.severity];
  // Tenable rates audit items too: a FAILED item is severity 3 by default, so its criticality follows it.
  const criticality = item.severity >= 3 ? 'must' : 'should';
  const result = item.text['compliance-result'];
  if (result !== undefined) {
    host.compliance += 1;
    const outcome = entry(COMPLIANCE_RESULTS, result.trim().toUpperCase());
    if (!outcome)
      throw shapeError(
        input,
        TOOL,
        `ReportHost[@name="${host.name}"]/ReportItem[${host.items}]/cm:compliance-result`,
        `"${result.slice(0, 40)}" is not a compliance result (PASSED, FAILED, WARNING, ERROR)`,
      );
    const name = clip(item.text['compliance-check-name'] ?? '') || item.name;
    const actual = clip(item.text['compliance-actual-value'] ?? '');
    const controls = complianceControls(item.text['compliance-reference'] ?? '');
    return {
      id: item.pluginId,
      outcome,
      criticality,
      controls: controls.length > 0 ? controls : [...table.compliance],
      title: clip(name, MAX_TITLE),
      severity,
      resource,
      details: clip(actual ? `${name} (actual: ${actual})` : name, MAX_DETAILS),
      // Every audit item is plugin 21157: its own check id (else its name) tells the findings apart.
      weakness: { ...weaknessOf(item, host), kind: 'configuration', finding_id: clip(item.text['compliance-check-id'] ?? '') || `${item.pluginId}:${name}` },
    };
  }
  if (item.severity > 0) host.findings += 1;
  const synopsis = clip(item.text.synopsis ?? '');
  return {
    id: item.pluginId,
    // Severity 0 items are information the scan gathered (services, OS, certificates), not findings.
    outcome: item.severity === 0 ? 'not-applicable' : 'fail',
    criticality,
    controls: vulnerabilityControls(item),
    title: item.name,
    severity,
    resource,
    details: clip(synopsis ? `${item.name}: ${synopsis}` : item.name, MAX_DETAILS),
    weakness: weaknessOf(item, host),
  };
}

/**
 * What a ReportItem says as a weakness: its CVSS v3 base score, else its v2 one; a fix when it has a solution other
 * than "n/a" or a patch publication date, none when the solution is "n/a" and no patch is dated; detected when
 * Nessus started scanning its host (HOST_START_TIMESTAMP, else HOST_START).
 */
function weaknessOf(item: Item, host: Host): ScanWeakness {
  const cvss = [item.text.cvss3_base_score, item.text.cvss_base_score].map(score).find((s) => s !== undefined);
  const solution = item.text.solution?.trim().toLowerCase() || undefined;
  const patched = (item.text.patch_publication_date ?? '').trim() !== '';
  const fix = patched || (solution !== undefined && solution !== 'n/a') ? true : solution === 'n/a' ? false : undefined;
  const detectedAt = host.start ?? host.startText;
  return { ...(cvss === undefined ? {} : { cvss }), ...(fix === undefined ? {} : { fix_available: fix }), ...(detectedAt ? { detected_at: detectedAt } : {}) };
}

/** A CVSS base score as Nessus writes it (`7.5`), if it is one. */
function score(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 0 && value <= 10 ? value : undefined;
}

/** The passing check that says a host was scanned: the finding-only format's "nothing found" row. */
function scanCheck(host: Host, policy: string | undefined): ScanCheck {
  const summary = `${host.items} items reported, ${host.findings} findings${policy ? `; policy "${policy}"` : ''}`;
  return {
    id: `scan:${host.name}`,
    outcome: 'pass',
    criticality: 'should',
    controls: [...table.vulnerability],
    title: 'Host scanned',
    resource: host.name,
    details: clip(summary, MAX_DETAILS),
  };
}

function vulnerabilityControls(item: Item): string[] {
  const controls = [...table.vulnerability, ...(entry(FAMILIES, item.family) ?? [])];
  for (const { pattern, controls: more } of NAMES) if (pattern.test(item.name)) controls.push(...more);
  return [...new Set(controls)];
}

/** `800-53|AC-2,CSF|PR.AC-1,800-53|AC-6(1)` → `ac-2`, `ac-6.1`: the NIST SP 800-53 pairs only, statement letters dropped. */
function complianceControls(reference: string): string[] {
  const controls: string[] = [];
  for (const pair of reference.split(',')) {
    const [key, value] = pair.split('|').map((s) => s.trim());
    if (!/^800-53(r\d)?$/i.test(key ?? '') || !value) continue;
    const control = controlFromReference(value);
    if (control) controls.push(control);
  }
  return [...new Set(controls)];
}
