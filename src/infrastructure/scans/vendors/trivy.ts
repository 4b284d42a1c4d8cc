import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ScanWeakness, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/trivy-nist.json';
import type { RawInput } from '../raw-input';
import { clip, isoTime, type Json, list, obj, shapeError, text, type VendorParser } from '../vendor-parser';

type Kind = keyof typeof table.classes;

const TOOL = 'Trivy';
const CLASSES: Record<Kind, string[]> = table.classes;
const KEYWORDS = table.misconfigurationKeywords.map((k) => ({ pattern: new RegExp(k.pattern, 'i'), controls: k.controls }));
/** Which finding lists a Trivy result `Class` holds; a result without Class is known by its lists. */
const CLASS_KINDS = new Map<unknown, Kind>([
  ['os-pkgs', 'vulnerability'],
  ['lang-pkgs', 'vulnerability'],
  ['config', 'misconfiguration'],
  ['secret', 'secret'],
  ['license', 'license'],
  ['license-file', 'license'],
]);
const SEVERITIES = new Map<unknown, Criticality>([
  ['CRITICAL', 'must'],
  ['HIGH', 'must'],
  ['MEDIUM', 'should'],
  ['LOW', 'should'],
]);
/** Misconfiguration `Status`; PASS rows are written only with `--include-non-failures`. */
const STATUSES = new Map<unknown, CheckOutcome>([
  ['FAIL', 'fail'],
  ['PASS', 'pass'],
  ['EXCEPTION', 'omitted'],
]);
/**
 * A vulnerability's `Status` (Trivy 0.44+, docs "Filtering: By Status"): `fixed` has a patch; `affected` (no patch
 * yet), `will_not_fix`, `fix_deferred` and `end_of_life` have none. `unknown`, `not_affected` and `under_investigation`
 * are never reported, so they say nothing here.
 */
const FIX_STATUSES = new Map<unknown, boolean>([
  ['fixed', true],
  ['affected', false],
  ['will_not_fix', false],
  ['fix_deferred', false],
  ['end_of_life', false],
]);
/** Misconfigurations and forbidden licenses are configuration gaps as detections, not weaknesses of a package. */
const CONFIGURATION: Readonly<ScanWeakness> = Object.freeze({ kind: 'configuration' });
/** The finding lists of a result, the kind each is, and how a row becomes a check. */
const READERS = [
  ['Vulnerabilities', 'vulnerability', vulnerability],
  ['Misconfigurations', 'misconfiguration', misconfiguration],
  ['Secrets', 'secret', secret],
  ['Licenses', 'license', license],
] as const;

/**
 * Aqua Trivy native JSON (`trivy image|fs|repo|config --format json`, SchemaVersion 2): one check per vulnerability,
 * misconfiguration, secret and license finding, plus one `scan:<Target>` pass per scanned target (Trivy lists
 * findings only). Trivy has no NIST references: controls come from svc's class table (`data/trivy-nist.json`).
 */
export const trivy: VendorParser = {
  info: {
    vendor: 'trivy',
    tool: TOOL,
    formats: 'Trivy JSON (--format json, SchemaVersion 2)',
    mapping: 'svc Trivy class table (data/trivy-nist.json)',
    evidence: 'Report',
    detections: 'vulnerability',
  },

  looksLike: (head) => /"SchemaVersion"\s*:\s*\d+\s*,/.test(head) && /"ArtifactName"\s*:/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    if (!isPlainObject(document) || typeof document.SchemaVersion !== 'number')
      throw shapeError(input, TOOL, 'SchemaVersion', 'missing; a Trivy JSON report is {"SchemaVersion": 2, "ArtifactName": ..., "Results": [...]}');
    const results = document.Results ?? [];
    if (!Array.isArray(results)) throw shapeError(input, TOOL, 'Results', 'expected a list of results');
    const checks: ScanCheck[] = [];
    const targets = new Map<string, Set<Kind>>();
    results.forEach((result, i) => {
      const path = `Results[${i}]`;
      if (!isPlainObject(result) || typeof result.Target !== 'string') throw shapeError(input, TOOL, `${path}.Target`, 'missing');
      const target = result.Target;
      const kinds = targets.get(target) ?? new Set<Kind>();
      targets.set(target, kinds);
      const kind = CLASS_KINDS.get(result.Class);
      if (kind) kinds.add(kind);
      for (const [list, listKind, read] of READERS) {
        const found = rows(input, result, list, path);
        if (found.length > 0) kinds.add(listKind);
        found.forEach((row, j) => checks.push(read(input, target, row, `${path}.${list}[${j}]`)));
      }
    });
    // An artifact in which Trivy found nothing to scan has no Results: it stands as one vulnerability-scanned target.
    if (targets.size === 0) targets.set(typeof document.ArtifactName === 'string' ? document.ArtifactName : 'artifact', new Set<Kind>(['vulnerability']));
    const trivyVersion = obj(document.Trivy).Version;
    return {
      vendor: 'trivy',
      tool: TOOL,
      ...(typeof trivyVersion === 'string' ? { version: trivyVersion } : {}),
      ...(isoTime(document.CreatedAt) ? { observed_at: isoTime(document.CreatedAt) } : {}),
      mapping: trivy.info.mapping,
      checks: [...checks, ...[...targets].map(([target, kinds]) => scanCheck(target, kinds))],
    };
  },
};

/**
 * Trivy lists findings only: each scanned target adds one `scan:<Target>` pass with the controls of the kinds of
 * finding it was scanned for, so a clean target shows as PASS and any finding outranks it.
 */
function scanCheck(target: string, kinds: Set<Kind>): ScanCheck {
  const controls = [...new Set([...(kinds.size > 0 ? kinds : (['vulnerability'] as Kind[]))].flatMap((k) => CLASSES[k]))];
  return {
    id: `scan:${target}`,
    outcome: 'pass',
    criticality: 'should',
    controls,
    title: 'Target scanned',
    resource: target,
    details: `scanned for ${[...kinds].join(', ') || 'vulnerabilities'}`,
  };
}

function vulnerability(input: RawInput, target: string, row: Json, path: string): ScanCheck {
  const id = required(input, row, 'VulnerabilityID', path);
  const pkg = [row.PkgName, row.InstalledVersion].filter((x) => typeof x === 'string' && x !== '').join(' ');
  const fix = typeof row.FixedVersion === 'string' && row.FixedVersion !== '' ? `fixed in ${row.FixedVersion}` : 'no fixed version';
  const cvss = cvssOf(row);
  const fixAvailable = fixAvailableOf(row);
  return finding(
    id,
    'fail',
    row.Severity,
    CLASSES.vulnerability,
    {
      title: text(row.Title) ?? id,
      resource: pkg ? `${target}: ${pkg}` : target,
      details: [pkg && `${pkg}: ${fix}`, text(row.PrimaryURL)].filter(Boolean).join('; '),
    },
    { ...aliasesOf(row, id), ...(cvss === undefined ? {} : { cvss }), ...(fixAvailable === undefined ? {} : { fix_available: fixAvailable }) },
  );
}

/**
 * The advisories Trivy names beside the vulnerability (`VendorIDs`: `ALAS2-2023-2005`, `DSA-5417-1`, `GHSA-…`), the
 * distribution's or GitHub's id of the same flaw it reports under the CVE.
 */
function aliasesOf(row: Json, id: string): { aliases?: string[] } {
  const ids = list(row.VendorIDs).filter((v): v is string => typeof v === 'string' && v.trim() !== '' && v !== id);
  return ids.length === 0 ? {} : { aliases: [...new Set(ids)] };
}

/**
 * Whether a patch exists: by `Status` when Trivy wrote one, else by `FixedVersion`. Trivy leaves an empty FixedVersion
 * out of its JSON, and `--ignore-unfixed` drops exactly those rows, so without a Status no fixed version means no fix.
 */
function fixAvailableOf(row: Json): boolean | undefined {
  const byStatus = FIX_STATUSES.get(row.Status);
  if (byStatus !== undefined) return byStatus;
  if (text(row.FixedVersion) !== undefined) return true;
  return row.Status === undefined ? false : undefined;
}

/**
 * The CVSS v3 base score of a vulnerability: NVD's, else the one of the source Trivy took the severity from
 * (`SeveritySource`), else any source's. Trivy's `PublishedDate` is the advisory's date, not a detection time.
 */
function cvssOf(row: Json): number | undefined {
  const sources = obj(row.CVSS);
  const score = (source: unknown) => {
    const v3 = typeof source === 'string' && Object.prototype.hasOwnProperty.call(sources, source) ? obj(sources[source]).V3Score : undefined;
    return typeof v3 === 'number' && v3 >= 0 && v3 <= 10 ? v3 : undefined;
  };
  return (
    score('nvd') ??
    score(row.SeveritySource) ??
    Object.keys(sources)
      .map(score)
      .find((s) => s !== undefined)
  );
}

function misconfiguration(input: RawInput, target: string, row: Json, path: string): ScanCheck {
  const id = required(input, row, 'ID', path);
  const status = row.Status ?? 'FAIL';
  const outcome = STATUSES.get(status);
  if (!outcome) throw shapeError(input, TOOL, `${path}.Status`, `${JSON.stringify(status)} is not a Trivy status (FAIL, PASS, EXCEPTION)`);
  const title = text(row.Title) ?? id;
  const controls = [...new Set([...CLASSES.misconfiguration, ...KEYWORDS.filter((k) => k.pattern.test(title)).flatMap((k) => k.controls)])];
  const line = obj(row.CauseMetadata).StartLine;
  return finding(
    id,
    outcome,
    row.Severity,
    controls,
    {
      title,
      resource: typeof line === 'number' && line > 0 ? `${target}:${line}` : target,
      details: [text(row.Message) ?? text(row.Description), text(row.Resolution) && `fix: ${text(row.Resolution)}`].filter(Boolean).join('; '),
    },
    CONFIGURATION,
  );
}

/** A secret's `Match` (the line with the secret, partly masked) is never kept. */
function secret(input: RawInput, target: string, row: Json, path: string): ScanCheck {
  const id = required(input, row, 'RuleID', path);
  const line = row.StartLine;
  return finding(id, 'fail', row.Severity, CLASSES.secret, {
    title: text(row.Title) ?? id,
    resource: typeof line === 'number' ? `${target}:${line}` : target,
    details: `${text(row.Category) ?? 'a'} secret found${typeof line === 'number' ? ` at line ${line}` : ''}`,
  });
}

function license(input: RawInput, target: string, row: Json, path: string): ScanCheck {
  const id = required(input, row, 'Name', path);
  return finding(
    id,
    'fail',
    row.Severity,
    CLASSES.license,
    {
      title: `License ${id}`,
      resource: [target, text(row.PkgName) ?? text(row.FilePath)].filter(Boolean).join(': '),
      details: [text(row.Category) && `category ${text(row.Category)}`, text(row.Link)].filter(Boolean).join('; '),
    },
    CONFIGURATION,
  );
}

/**
 * CRITICAL/HIGH fail as musts, MEDIUM/LOW as shoulds; an UNKNOWN-severity finding decides nothing for its KSI, but is
 * a detection all the same (`detected`): CR26 rates it by PAIN, not by the scanner's severity, which stays as evidence.
 */
function finding(
  id: string,
  outcome: CheckOutcome,
  severity: unknown,
  controls: string[],
  rest: { title: string; resource: string; details: string },
  weakness: Readonly<ScanWeakness> = {},
): ScanCheck {
  const label = typeof severity === 'string' ? severity : undefined;
  const criticality = SEVERITIES.get(label?.toUpperCase());
  const unrated = outcome === 'fail' && !criticality;
  const w: ScanWeakness = { ...weakness, ...(unrated ? { detected: true } : {}) };
  return {
    id,
    outcome: unrated ? 'not-applicable' : outcome,
    criticality: criticality ?? 'should',
    controls,
    title: clip(rest.title, 120),
    ...(label ? { severity: label } : {}),
    resource: rest.resource,
    ...(rest.details ? { details: clip(rest.details, 300) } : {}),
    ...(Object.keys(w).length > 0 ? { weakness: w } : {}),
  };
}

/** A finding list of a result: absent or null is none. */
function rows(input: RawInput, result: Json, list: string, path: string): Json[] {
  const value = result[list];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw shapeError(input, TOOL, `${path}.${list}`, 'expected a list');
  return value.map((row, i) => {
    if (!isPlainObject(row)) throw shapeError(input, TOOL, `${path}.${list}[${i}]`, 'expected an object');
    return row;
  });
}

function required(input: RawInput, row: Json, field: string, path: string): string {
  const value = row[field];
  if (typeof value !== 'string' || value === '') throw shapeError(input, TOOL, `${path}.${field}`, 'missing');
  return value;
}
