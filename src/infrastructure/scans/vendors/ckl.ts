import type { SaxesTagNS } from 'saxes';
import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import { CCI_LIST_VERSION, controlsOfCcis } from '../cci-controls';
import type { RawInput } from '../raw-input';
import { asText, clip, entry, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'DISA STIG Viewer';
const MAX_DETAILS = 300;
const MAX_TITLE = 200;
/** More CCIs than any STIG rule carries (a handful): a rule listing more is not one. */
const MAX_CCIS = 64;

/** Checklist statuses, squeezed (lower case, letters only): CKL writes `NotAFinding`, CKLB `not_a_finding`. */
const STATUSES: Record<string, CheckOutcome> = {
  notafinding: 'pass',
  open: 'fail',
  notapplicable: 'not-applicable',
  // Nobody has looked yet: to be reviewed by hand, so the rule assesses nothing.
  notreviewed: 'manual',
};

/** STIG severities and their DoD category names, lower case, spaces squeezed. */
const SEVERITIES: Record<string, Level> = {
  high: 'high',
  'cat i': 'high',
  medium: 'medium',
  'cat ii': 'medium',
  low: 'low',
  'cat iii': 'low',
};
type Level = 'high' | 'medium' | 'low';

/** One VULN (CKL) or rule (CKLB), as both formats write it, with where each field is for error messages. */
interface Rule {
  at: (field: 'id' | 'status' | 'severity' | 'override' | 'ccis') => string;
  id?: string;
  ruleId?: string;
  ruleVersion?: string;
  title?: string;
  severity?: string;
  override?: string;
  overrideReason?: string;
  status?: string;
  ccis: string[];
  findingDetails?: string;
  comments?: string;
}

/**
 * DISA STIG Viewer checklists: CKL (STIG Viewer 2, XML, streamed) and CKLB (STIG Viewer 3, JSON). Each VULN / rule is
 * one check, its outcome from its status and its criticality from its severity (a severity override wins); its
 * controls come from its CCI references through DISA's CCI list (data/cci-nist.json, scripts/build-cci.js). A rule
 * whose CCIs map to no control keeps no control and is reported as unmapped.
 */
export const ckl: VendorParser = {
  info: {
    vendor: 'ckl',
    tool: TOOL,
    formats: 'STIG Viewer checklist: CKL (XML, STIG Viewer 2) or CKLB (JSON, STIG Viewer 3)',
    mapping: `CCI references through DISA's CCI list ${CCI_LIST_VERSION} to NIST SP 800-53 Rev. 5, else the CCI's Rev. 4 reference (data/cci-nist.json); none: unmapped`,
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) =>
    /<CHECKLIST[\s>]/.test(head) || (/^\s*\{/.test(head) && /"stigs"\s*:\s*\[/.test(head) && /"(rules|stig_id|cklb_version|target_data)"\s*:/.test(head)),

  async parse(input: RawInput): Promise<ParsedScan> {
    const head = await input.head(1024);
    const { host, checks } = /^\s*\{/.test(head) ? await readCklb(input) : await readCkl(input);
    // STIG Viewer 2 names itself in a comment before the root element; other tools that write CKL name themselves.
    const version = /<!--\s*DISA STIG Viewer\s*::\s*([\w.-]{1,40})\s*-->/.exec(head)?.[1];
    return {
      vendor: 'ckl',
      tool: TOOL,
      ...(version ? { version } : {}),
      ...(host ? { tenant: host } : {}),
      mapping: ckl.info.mapping,
      checks,
    };
  },
};

/** The text kept from a CKL, by parent element and element (STIG_DATA's by VULN_ATTRIBUTE), and how much of it. */
const KEPT: Record<string, Record<string, number>> = {
  ASSET: { HOST_NAME: MAX_TITLE, HOST_FQDN: MAX_TITLE, HOST_IP: MAX_TITLE },
  SI_DATA: { SID_NAME: 40 },
  STIG_DATA: { VULN_ATTRIBUTE: 40 },
  VULN: { STATUS: 40, FINDING_DETAILS: 4 * MAX_DETAILS, COMMENTS: 4 * MAX_DETAILS, SEVERITY_OVERRIDE: 40, SEVERITY_JUSTIFICATION: MAX_DETAILS },
};
const KEPT_STIG_INFO: Record<string, number> = { title: MAX_TITLE, version: 40, releaseinfo: 100 };
const KEPT_ATTRIBUTES: Record<string, number> = {
  Vuln_Num: 100,
  Rule_ID: MAX_TITLE,
  Rule_Ver: MAX_TITLE,
  Rule_Title: 4 * MAX_TITLE,
  Severity: 40,
  CCI_REF: 40,
};

/** A CKL, streamed: ASSET (the host) comes first, then each iSTIG's STIG_INFO, then its VULNs, each made a check as it closes. */
async function readCkl(input: RawInput): Promise<{ host?: string; checks: ScanCheck[] }> {
  const checks: ScanCheck[] = [];
  const stack: string[] = [];
  const asset: Record<string, string> = {};
  let stigs = 0;
  let vulns = 0;
  let info: Record<string, string> = {};
  let sidName = '';
  let attribute = '';
  let vuln: Rule | undefined;
  let capture: { parent: string; what: string; depth: number; max: number; text: string } | undefined;

  const open = (tag: SaxesTagNS) => {
    stack.push(tag.local);
    const parent = stack[stack.length - 2] ?? '';
    const keep = (max: number | undefined) => {
      if (max !== undefined) capture = { parent, what: tag.local, depth: stack.length, max, text: '' };
    };
    if (stack.length === 1 && tag.local !== 'CHECKLIST') throw shapeError(input, TOOL, tag.name, 'the root element should be CHECKLIST');
    if (tag.local === 'iSTIG') {
      stigs += 1;
      vulns = 0;
      info = {};
    } else if (tag.local === 'VULN') {
      if (parent !== 'iSTIG') throw shapeError(input, TOOL, 'VULN', 'outside STIGS/iSTIG');
      vulns += 1;
      const place = `STIGS/iSTIG[${stigs}]/VULN[${vulns}]`;
      const fields = {
        id: 'STIG_DATA[Vuln_Num]',
        status: 'STATUS',
        severity: 'STIG_DATA[Severity]',
        override: 'SEVERITY_OVERRIDE',
        ccis: 'STIG_DATA[CCI_REF]',
      };
      vuln = { at: (field) => `${place}/${fields[field]}`, ccis: [] };
    } else if (tag.local === 'SID_DATA' && parent === 'SI_DATA') keep(entry(KEPT_STIG_INFO, sidName));
    else if (tag.local === 'ATTRIBUTE_DATA' && parent === 'STIG_DATA') keep(vuln ? entry(KEPT_ATTRIBUTES, attribute) : undefined);
    else keep(entry(entry(KEPT, parent) ?? {}, tag.local));
  };

  const text = (chunk: string) => {
    if (capture && capture.text.length < capture.max) capture.text += chunk.slice(0, capture.max - capture.text.length);
  };

  const close = () => {
    if (capture && capture.depth === stack.length) {
      const { parent, what, max } = capture;
      const value = clip(capture.text, max);
      capture = undefined;
      if (parent === 'ASSET') asset[what] = value;
      else if (what === 'SID_NAME') sidName = value;
      else if (what === 'SID_DATA') info[sidName] = value;
      else if (what === 'VULN_ATTRIBUTE') attribute = value;
      else if (vuln) keepVulnField(input, vuln, what === 'ATTRIBUTE_DATA' ? attribute : what, value);
    }
    const local = stack.pop();
    if (local === 'STIG_DATA') attribute = '';
    else if (local === 'SI_DATA') sidName = '';
    else if (local === 'VULN' && vuln) {
      checks.push(ruleCheck(input, vuln, stigLabel(info.title, info.version, info.releaseinfo), hostOf(asset.HOST_NAME, asset.HOST_FQDN, asset.HOST_IP)));
      vuln = undefined;
    }
  };

  await input.xml({ open, text, close });
  if (stigs === 0) throw shapeError(input, TOOL, 'STIGS/iSTIG', 'missing; the checklist has no STIG: add one in STIG Viewer and save the checklist again');
  return { host: hostOf(asset.HOST_NAME, asset.HOST_FQDN, asset.HOST_IP), checks };
}

/** A VULN's field from its element or STIG_DATA attribute name: blank is absent, the first of a repeated one counts, CCIs add up. */
function keepVulnField(input: RawInput, vuln: Rule, name: string, value: string): void {
  const field = entry(CKL_FIELDS, name);
  if (!field || !value) return;
  if (field === 'ccis') addCci(input, vuln, value);
  else vuln[field] ??= value;
}
const CKL_FIELDS: Record<string, Exclude<keyof Rule, 'at'>> = {
  Vuln_Num: 'id',
  Rule_ID: 'ruleId',
  Rule_Ver: 'ruleVersion',
  Rule_Title: 'title',
  Severity: 'severity',
  CCI_REF: 'ccis',
  STATUS: 'status',
  FINDING_DETAILS: 'findingDetails',
  COMMENTS: 'comments',
  SEVERITY_OVERRIDE: 'override',
  SEVERITY_JUSTIFICATION: 'overrideReason',
};

function addCci(input: RawInput, rule: Rule, cci: string): void {
  if (rule.ccis.includes(cci)) return;
  if (rule.ccis.length >= MAX_CCIS) throw shapeError(input, TOOL, rule.at('ccis'), `more than ${MAX_CCIS} CCI references; a STIG rule has a few`);
  rule.ccis.push(cci);
}

/** A CKLB (STIG Viewer 3 JSON): target_data, then stigs[] each with its rules[]. */
async function readCklb(input: RawInput): Promise<{ host?: string; checks: ScanCheck[] }> {
  const document = await input.json();
  if (!isPlainObject(document) || !Array.isArray(document.stigs))
    throw shapeError(input, TOOL, 'stigs', 'missing; a CKLB checklist has title, target_data and stigs[] with their rules[]');
  const target = isPlainObject(document.target_data) ? document.target_data : {};
  const host = hostOf(optionalText(target.host_name, MAX_TITLE), optionalText(target.fqdn, MAX_TITLE), optionalText(target.ip_address, MAX_TITLE));
  if (document.stigs.length === 0)
    throw shapeError(input, TOOL, 'stigs', 'empty; the checklist has no STIG: add one in STIG Viewer and save the checklist again');
  const checks: ScanCheck[] = [];
  document.stigs.forEach((stig, s) => {
    if (!isPlainObject(stig) || !Array.isArray(stig.rules)) throw shapeError(input, TOOL, `stigs[${s}].rules`, 'expected a list of rules');
    const label = stigLabel(
      optionalText(stig.stig_name, MAX_TITLE) ?? optionalText(stig.display_name, MAX_TITLE),
      optionalText(stig.version, 40),
      optionalText(stig.release_info, 100),
    );
    stig.rules.forEach((rule, r) => checks.push(ruleCheck(input, cklbRule(input, rule, `stigs[${s}].rules[${r}]`), label, host)));
  });
  return { host, checks };
}

function cklbRule(input: RawInput, rule: unknown, place: string): Rule {
  const fields = { id: 'group_id', status: 'status', severity: 'severity', override: 'overrides.severity', ccis: 'ccis' };
  const at: Rule['at'] = (field) => `${place}.${fields[field]}`;
  if (!isPlainObject(rule)) throw shapeError(input, TOOL, place, 'expected a rule object');
  const overrides = isPlainObject(rule.overrides) ? rule.overrides : {};
  // STIG Viewer 3 writes {"severity": {"severity": "low", "reason": "…"}}; a bare string is read too.
  const override = isPlainObject(overrides.severity)
    ? overrides.severity
    : overrides.severity === undefined || overrides.severity === null
      ? {}
      : { severity: overrides.severity };
  if (rule.ccis !== undefined && rule.ccis !== null && !Array.isArray(rule.ccis)) throw shapeError(input, TOOL, at('ccis'), 'expected a list of CCI ids');
  const read: Rule = {
    at,
    id: optionalText(rule.group_id, 100),
    ruleId: optionalText(rule.rule_id_src, MAX_TITLE) ?? optionalText(rule.rule_id, MAX_TITLE),
    ruleVersion: optionalText(rule.rule_version, MAX_TITLE),
    title: optionalText(rule.rule_title, 4 * MAX_TITLE),
    severity: optionalText(rule.severity, 40),
    override: optionalText(override.severity, 40),
    overrideReason: optionalText(override.reason, MAX_DETAILS),
    status: optionalText(rule.status, 40),
    ccis: [],
    findingDetails: optionalText(rule.finding_details, 4 * MAX_DETAILS),
    comments: optionalText(rule.comments, 4 * MAX_DETAILS),
  };
  for (const cci of (rule.ccis as unknown[] | undefined) ?? []) {
    const id = optionalText(cci, 40);
    if (id) addCci(input, read, id);
  }
  return read;
}

/** A JSON field as text, clipped; absent for null, undefined and blank text. */
function optionalText(value: unknown, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  return clip(asText(value), max) || undefined;
}

/** The checked host: its name, else its FQDN, else its IP address. */
function hostOf(...names: (string | undefined)[]): string | undefined {
  return names.find((n) => n !== undefined && n !== '');
}

/** `Red Hat Enterprise Linux 9 Security Technical Implementation Guide` + `1` + `Release: 3 Benchmark Date: …` → `… V1R3`. */
function stigLabel(title: string | undefined, version: string | undefined, releaseInfo: string | undefined): string {
  const name = title || 'STIG';
  const release = /release:\s*(\d+)/i.exec(releaseInfo ?? '')?.[1];
  if (!version || !/^\d+$/.test(version) || /\bv\d+r\d+$/i.test(name)) return name;
  return `${name} V${version}${release ? `R${release}` : ''}`;
}

function ruleCheck(input: RawInput, rule: Rule, stig: string, host: string | undefined): ScanCheck {
  if (!rule.id) throw shapeError(input, TOOL, rule.at('id'), 'missing; every rule names its group id (V-…)');
  if (rule.status === undefined) throw shapeError(input, TOOL, rule.at('status'), `missing for ${rule.id}; set the status in STIG Viewer`);
  const outcome = entry(STATUSES, rule.status.toLowerCase().replace(/[^a-z]/g, ''));
  if (!outcome)
    throw shapeError(
      input,
      TOOL,
      rule.at('status'),
      `"${rule.status.slice(0, 40)}" is not a checklist status (NotAFinding, Open, Not_Applicable, Not_Reviewed; in CKLB not_a_finding, open, not_applicable, not_reviewed)`,
    );
  const written = levelOf(input, rule.severity, rule.at('severity'));
  const override = levelOf(input, rule.override, rule.at('override'));
  const level = override ?? written;
  const label = override ? rule.override : rule.severity;
  const mapped = controlsOfCcis(rule.ccis);
  const notes = [
    override ? `severity ${rule.override} overrides ${rule.severity ?? 'none'}${rule.overrideReason ? `: ${rule.overrideReason}` : ''}` : '',
    rule.ccis.length === 0 ? 'no CCI reference' : '',
    mapped.rev4.length > 0 ? `Rev. 4 reference only: ${mapped.rev4.join(', ')}` : '',
    mapped.unmapped.length > 0 ? `no 800-53 reference: ${mapped.unmapped.join(', ')}` : '',
    mapped.unknown.length > 0 ? `not in DISA's CCI list ${CCI_LIST_VERSION}: ${mapped.unknown.join(', ')}` : '',
  ];
  const identity = [rule.ruleId, rule.ruleVersion ? `(${rule.ruleVersion})` : ''].filter(Boolean).join(' ');
  const details = sharedDetails(
    [clip(`${identity ? `${identity}, ` : ''}${stig}`, 120), ...notes.map((n) => clip(n, 100))],
    [rule.findingDetails ? `finding details: ${rule.findingDetails}` : '', rule.comments ? `comments: ${rule.comments}` : ''],
  );
  return {
    id: rule.id,
    outcome,
    criticality: level === 'high' ? 'must' : 'should',
    controls: mapped.controls,
    ...(rule.title ? { title: clip(rule.title, MAX_TITLE) } : {}),
    ...(label ? { severity: label } : {}),
    ...(host ? { resource: host } : {}),
    details,
  };
}

/** A STIG severity (`high`, `CAT I`); none for a blank or `unknown` one. */
function levelOf(input: RawInput, severity: string | undefined, place: string): Level | undefined {
  const word = (severity ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  if (word === '' || word === 'unknown') return undefined;
  const level = entry(SEVERITIES, word);
  if (!level) throw shapeError(input, TOOL, place, `"${word.slice(0, 40)}" is not a STIG severity (high, medium, low or CAT I, CAT II, CAT III)`);
  return level;
}

/**
 * The details of a check, at most MAX_DETAILS characters: the fixed parts (rule, STIG, notes) whole, then the free
 * texts (finding details, comments) sharing the rest, a short one leaving its unused share to the others.
 */
function sharedDetails(fixed: string[], free: string[]): string {
  const head = fixed.filter(Boolean).join('; ');
  const texts = free.filter(Boolean);
  let room = MAX_DETAILS - head.length;
  const clipped = new Map<string, string>();
  [...texts]
    .sort((a, b) => a.length - b.length)
    .forEach((t, i, all) => {
      const share = Math.max(Math.floor(room / (all.length - i)) - 2, 20);
      const c = clip(t, share);
      clipped.set(t, c);
      room -= c.length + 2;
    });
  return clip([head, ...texts.map((t) => clipped.get(t) ?? '')].join('; '), MAX_DETAILS);
}
