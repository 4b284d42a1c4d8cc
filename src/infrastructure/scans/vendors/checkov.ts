import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/checkov-nist.json';
import cweTable from '../data/cwe-nist.json';
import trivyTable from '../data/trivy-nist.json';
import type { RawInput } from '../raw-input';
import { asText, clip, entry, type Json, obj, shapeError, text, type VendorParser } from '../vendor-parser';

interface Area {
  area: string;
  controls: string[];
}
interface AreaRow {
  area: string;
  words: string[];
  cwe?: string[];
  controls?: string[];
}

const TOOL = 'Checkov';
const SHAPE = '{"check_type": ..., "results": {"passed_checks": [...], "failed_checks": [...], ...}, "summary": {...}}';
const CWE = cweTable.cwe as Record<string, { name: string; controls: string[] }>;
const AREAS = new Map<string, Area>();
for (const row of table.areas as readonly AreaRow[]) for (const word of row.words) AREAS.set(word, { area: row.area, controls: controlsOf(row) });
const PARSING_ERROR_CONTROLS = controlsOf(table.parsingErrors);
/** Checkov's IaC checks are misconfiguration checks: the keywords svc reads Trivy's misconfiguration titles with fit their names too. */
const KEYWORDS = trivyTable.misconfigurationKeywords.map((k) => ({ pattern: new RegExp(k.pattern, 'i'), controls: k.controls }));
/** Where each result list goes: a skip is a suppression (`#checkov:skip=<id>:<comment>`, `--skip-check`), not a verdict. */
const LISTS = [
  ['passed_checks', 'pass'],
  ['failed_checks', 'fail'],
  ['skipped_checks', 'not-applicable'],
] as const;
/**
 * Prisma Cloud's severities, which Checkov writes only with a platform API key. CRITICAL and HIGH fail as musts, the
 * others as shoulds; a failure without a severity (open-source Checkov) is a must, as Checkov itself fails the run on
 * any failed check unless told a severity threshold.
 */
const SEVERITIES = new Map<string, Criticality>([
  ['CRITICAL', 'must'],
  ['HIGH', 'must'],
  ['MEDIUM', 'should'],
  ['LOW', 'should'],
  ['INFO', 'should'],
]);

/**
 * Checkov JSON (`checkov -o json`): one report object, or a list of them when several frameworks ran (terraform,
 * kubernetes, secrets, ...). One check per entry of `passed_checks`, `failed_checks` and `skipped_checks` (kept with its
 * suppression comment), and one error per file of `parsing_errors`. Checkov has no NIST references: controls come from
 * svc's table of Checkov policy areas (`data/checkov-nist.json`) and the misconfiguration keywords of Trivy's table.
 * The `code_block` of a check (the resource's source, secrets included) is never kept.
 */
export const checkov: VendorParser = {
  info: {
    vendor: 'checkov',
    tool: TOOL,
    formats: 'Checkov JSON (-o json), one framework or a list of them',
    mapping: 'svc Checkov policy-area table (data/checkov-nist.json) and misconfiguration keywords (data/trivy-nist.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  // A run that found nothing to scan prints only its summary: {"passed": 0, ..., "resource_count": 0, "checkov_version": ...}.
  looksLike: (head) =>
    (/"check_type"\s*:\s*"/.test(head) && /"(?:results|passed_checks|failed_checks|skipped_checks)"\s*:/.test(head)) ||
    (/"checkov_version"\s*:\s*"/.test(head) && /"resource_count"\s*:/.test(head)),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    const reports = Array.isArray(document) ? document : [document];
    const checks: ScanCheck[] = [];
    let version: string | undefined;
    reports.forEach((item, i) => {
      const at = Array.isArray(document) ? `[${i}]` : '';
      const path = at ? `${at}.results` : 'results';
      if (at && !isPlainObject(item)) throw shapeError(input, TOOL, at, `expected a report object ${SHAPE}`);
      const report = obj(item);
      version ??= text(obj(report.summary).checkov_version) ?? text(report.checkov_version);
      if (report.results === undefined && typeof report.checkov_version === 'string') return; // nothing was scanned
      const results = report.results;
      if (!isPlainObject(results))
        throw shapeError(input, TOOL, path, `${results === undefined ? 'missing' : 'expected an object of result lists'}; a Checkov JSON report is ${SHAPE}`);
      for (const [list, outcome] of LISTS)
        rows(input, results, list, path).forEach((row, j) => checks.push(rowCheck(input, row, `${path}.${list}[${j}]`, outcome)));
      rows(input, results, 'parsing_errors', path).forEach((file, j) => checks.push(parsingError(input, file, `${path}.parsing_errors[${j}]`)));
    });
    return {
      vendor: 'checkov',
      tool: TOOL,
      ...(version ? { version } : {}),
      mapping: checkov.info.mapping,
      checks,
    };
  },
};

function rowCheck(input: RawInput, row: unknown, path: string, outcome: CheckOutcome): ScanCheck {
  if (!isPlainObject(row)) throw shapeError(input, TOOL, path, 'expected a check object');
  const id = text(row.check_id);
  if (!id) throw shapeError(input, TOOL, `${path}.check_id`, 'missing');
  const name = text(row.check_name);
  const area = areaOf(row);
  const controls = [...new Set([...(area?.controls ?? []), ...KEYWORDS.filter((k) => name && k.pattern.test(name)).flatMap((k) => k.controls)])];
  const label = text(row.severity);
  const result = obj(row.check_result);
  const file = text(row.file_path);
  const resource = text(row.resource) ?? text(row.resource_address);
  return {
    id,
    outcome,
    criticality: (label && SEVERITIES.get(label.toUpperCase())) || 'must',
    controls,
    ...(name ? { title: clip(name, 120) } : {}),
    ...(label ? { severity: label } : {}),
    ...(file || resource ? { resource: [file, resource].filter(Boolean).join(': ') } : {}),
    details: clip(detailsOf(row, result, outcome, area).join('; '), 300),
  };
}

/**
 * The evidence of a check: why it was skipped, where the resource is, which keys were evaluated, the policy area that
 * mapped it and the guideline. Never the code block or the evaluated entity, which hold the resource's own values.
 */
function detailsOf(row: Json, result: Json, outcome: CheckOutcome, area: Area | undefined): string[] {
  const lines = Array.isArray(row.file_line_range) ? row.file_line_range : [];
  const [from, to] = lines;
  const keys = Array.isArray(result.evaluated_keys) ? result.evaluated_keys.filter((k): k is string => typeof k === 'string' && k !== '') : [];
  return [
    outcome === 'not-applicable' && `skipped: ${text(result.suppress_comment) ?? 'no comment given'}`,
    typeof from === 'number' && typeof to === 'number' && from > 0 && to >= from && `lines ${from}-${to}`, // a plan's resources have [0, 0]
    keys.length > 0 && `evaluated ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''}`,
    area && `policy area ${area.area}`,
    text(row.guideline),
  ].filter((part): part is string => typeof part === 'string');
}

/** A file Checkov could not parse: none of its checks ran. */
function parsingError(input: RawInput, file: unknown, path: string): ScanCheck {
  if (typeof file !== 'string' || file.trim() === '') throw shapeError(input, TOOL, path, 'expected the path of the file Checkov could not parse');
  return {
    id: `parse:${file.trim()}`,
    outcome: 'error',
    criticality: 'should',
    controls: PARSING_ERROR_CONTROLS,
    title: 'File could not be parsed',
    resource: file.trim(),
    details: 'Checkov could not parse this file, so none of its checks ran; fix its syntax and scan again',
  };
}

/**
 * The policy area of a check: the first word naming an area in its bc_category, the folders of its guideline page
 * (most specific first), its bc_check_id, then its own id.
 */
function areaOf(row: Json): Area | undefined {
  for (const source of [row.bc_category, ...guidelineFolders(row.guideline), row.bc_check_id, row.check_id]) {
    if (typeof source !== 'string') continue;
    for (const word of source.toLowerCase().split(/[^a-z0-9]+/)) {
      const area = AREAS.get(word);
      if (area) return area;
    }
  }
  return undefined;
}

/** The folders of a guideline URL's path, most specific first (`aws-iam-policies`, `aws-policies`, ...); the page itself is left out, its name is free text. */
function guidelineFolders(guideline: unknown): string[] {
  if (typeof guideline !== 'string') return [];
  const segments = guideline
    .replace(/[?#].*$/, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .split('/')
    .filter(Boolean);
  return segments.slice(0, -1).reverse();
}

function controlsOf(row: { cwe?: string[]; controls?: string[] }): string[] {
  return [...new Set([...(row.controls ?? []), ...(row.cwe ?? []).flatMap((cwe) => entry(CWE, cwe)?.controls ?? [])])];
}

/** A list of a report's results: absent or null is none. */
function rows(input: RawInput, results: Json, list: string, path: string): unknown[] {
  const value = results[list];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw shapeError(input, TOOL, `${path}.${list}`, `expected a list, got ${clip(asText(value), 40)}`);
  return value;
}
