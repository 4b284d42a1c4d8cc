import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/cwe-nist.json';
import type { RawInput } from '../raw-input';
import { asText, clip, entry, isoTime, type Json, list, obj, shapeError, text, type VendorParser } from '../vendor-parser';

const TOOL = 'SARIF 2.1.0';
const CWE = table.cwe as Record<string, { name: string; controls: string[] }>;
/** A code scanner's finding always argues against developer testing and flaw remediation (SA-11); input validation (SI-10) is the usual weakness when no CWE says otherwise. */
const SCAN_CONTROLS = ['sa-11', 'si-10'];
const LEVELS = ['error', 'warning', 'note', 'none'];

/** SARIF `kind` (3.27.9): `fail` is a finding (its level decides how much it matters); the others say what the tool concluded without one. */
const KINDS = new Map<unknown, CheckOutcome>([
  ['fail', 'fail'],
  ['pass', 'pass'],
  ['notApplicable', 'not-applicable'],
  ['informational', 'not-applicable'],
  ['open', 'manual'],
  ['review', 'manual'],
]);

/**
 * SARIF 2.1.0, the static-analysis interchange format (CodeQL, Semgrep, Checkov, Flawfinder, ...): one check per
 * `runs[].results[]`, plus one `scan:<target>` pass per run (SARIF lists findings only). SARIF has no NIST
 * references: CWE tags of the rule go through svc's CWE table (`data/cwe-nist.json`).
 */
export const sarif: VendorParser = {
  info: {
    vendor: 'sarif',
    tool: TOOL,
    formats: 'SARIF 2.1.0 JSON (.sarif)',
    mapping: 'svc CWE table (data/cwe-nist.json), else sa-11 and si-10',
    evidence: 'Report',
    detections: 'vulnerability',
  },

  looksLike: (head) => /"runs"\s*:\s*\[/.test(head) && (/"version"\s*:\s*"2\.1\.0"/.test(head) || /sarif/i.test(head) || /"driver"\s*:\s*\{/.test(head)),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    if (!isPlainObject(document) || !Array.isArray(document.runs))
      throw shapeError(input, TOOL, 'runs', 'missing; a SARIF log is {"version": "2.1.0", "runs": [...]}');
    const checks: ScanCheck[] = [];
    const scanned = new Map<string, ScanCheck>();
    const drivers: Json[] = [];
    let observedAt: string | undefined;
    document.runs.forEach((run, i) => {
      if (!isPlainObject(run)) throw shapeError(input, TOOL, `runs[${i}]`, 'expected a run object');
      const driver = obj(obj(run.tool).driver);
      if (typeof driver.name === 'string') drivers.push(driver);
      observedAt ??= runTime(run);
      const results = Array.isArray(run.results) ? run.results : undefined;
      if (results === undefined && run.results !== undefined && run.results !== null)
        throw shapeError(input, TOOL, `runs[${i}].results`, 'expected a list of results');
      results?.forEach((result, j) => checks.push(resultCheck(input, run, result, `runs[${i}].results[${j}]`)));
      addScanCheck(scanned, run, i, results?.length);
    });
    const names = [...new Set(drivers.map((d) => asText(d.name)))];
    const version = names.length === 1 ? [drivers[0].version, drivers[0].semanticVersion].find((v) => typeof v === 'string') : undefined;
    return {
      vendor: 'sarif',
      tool: names.length > 0 ? names.join(', ') : TOOL,
      ...(typeof version === 'string' ? { version } : {}),
      ...(observedAt ? { observed_at: observedAt } : {}),
      mapping: sarif.info.mapping,
      checks: [...checks, ...scanned.values()],
    };
  },
};

function resultCheck(input: RawInput, run: Json, result: unknown, path: string): ScanCheck {
  if (!isPlainObject(result)) throw shapeError(input, TOOL, path, 'expected a result object');
  const rule = ruleOf(run, result);
  const id = [result.ruleId, obj(result.rule).id, rule.id].find((x) => typeof x === 'string' && x !== '');
  if (typeof id !== 'string') throw shapeError(input, TOOL, `${path}.ruleId`, 'missing (and no rule or ruleIndex names the rule)');
  const level = result.level ?? obj(rule.defaultConfiguration).level ?? 'warning';
  if (typeof level !== 'string' || !LEVELS.includes(level))
    throw shapeError(input, TOOL, `${path}.level`, `${JSON.stringify(level)} is not a SARIF level (error, warning, note, none)`);
  const kind = KINDS.get(result.kind ?? 'fail');
  if (!kind)
    throw shapeError(
      input,
      TOOL,
      `${path}.kind`,
      `${JSON.stringify(result.kind)} is not a SARIF kind (fail, pass, open, review, notApplicable, informational)`,
    );
  const score = securitySeverity(rule, result);
  const message = text(obj(result.message).text);
  const title = text(obj(rule.shortDescription).text) ?? (typeof rule.name === 'string' ? rule.name : undefined) ?? message;
  return {
    id,
    outcome: outcomeOf(result, kind, level),
    criticality: criticalityOf(level, score),
    controls: controlsOf(rule, result),
    ...(title ? { title: clip(title, 120) } : {}),
    severity: score === undefined ? level : `${level} (security-severity ${score})`,
    ...(resourceOf(run, result) ? { resource: resourceOf(run, result) } : {}),
    ...(message && message !== title ? { details: clip(message, 300) } : {}),
    // GitHub code scanning reads `security-severity` as a CVSS-style score from 0.0 to 10.0.
    ...(score !== undefined && score >= 0 && score <= 10 ? { weakness: { cvss: score } } : {}),
  };
}

/** Suppressed (an accepted suppression, SARIF 3.27.23) and baseline-`absent` results are no current finding. */
function outcomeOf(result: Json, kind: CheckOutcome, level: string): CheckOutcome {
  const suppressions = Array.isArray(result.suppressions) ? result.suppressions : [];
  if (suppressions.length > 0 && suppressions.every((s) => [undefined, 'accepted'].includes(obj(s).status as string | undefined))) return 'omitted';
  if (result.baselineState === 'absent') return 'omitted';
  if (kind !== 'fail') return kind;
  return level === 'none' ? 'not-applicable' : 'fail';
}

/** CodeQL's `security-severity` (CVSS-like 0-10) decides when present: 7 and up is High or Critical; else `error` is a must. */
function criticalityOf(level: string, score: number | undefined): Criticality {
  if (score !== undefined && score > 0) return score >= 7 ? 'must' : 'should';
  return level === 'error' ? 'must' : 'should';
}

function securitySeverity(rule: Json, result: Json): number | undefined {
  const raw = obj(result.properties)['security-severity'] ?? obj(rule.properties)['security-severity'];
  const score = typeof raw === 'string' || typeof raw === 'number' ? Number(raw) : NaN;
  return Number.isFinite(score) ? score : undefined;
}

/** The rule descriptor a result points at: `rule.toolComponent` + `rule.index` into an extension, `ruleIndex` into the driver, or the id. */
function ruleOf(run: Json, result: Json): Json {
  const tool = obj(run.tool);
  const driverRules = list(obj(tool.driver).rules);
  const extensions = list(tool.extensions);
  const ref = obj(result.rule);
  const component = obj(ref.toolComponent).index;
  const index = typeof result.ruleIndex === 'number' ? result.ruleIndex : ref.index;
  if (typeof component === 'number' && typeof ref.index === 'number') return obj(list(obj(extensions[component]).rules)[ref.index]);
  if (typeof index === 'number' && index >= 0) return obj(driverRules[index]);
  const id = result.ruleId ?? ref.id;
  return obj([...driverRules, ...extensions.flatMap((e) => list(obj(e).rules))].find((r) => obj(r).id === id));
}

/** CWE ids from the rule's tags (`external/cwe/cwe-079`, `CWE-79: ...`), its relationships and the result's taxa, through the CWE table. */
function controlsOf(rule: Json, result: Json): string[] {
  const cwes = new Set<number>();
  for (const tag of [...list(obj(rule.properties).tags), ...list(obj(result.properties).tags)]) {
    const m = typeof tag === 'string' ? /^(?:external\/cwe\/)?cwe[-_:/ ]?0*(\d+)/i.exec(tag.trim()) : null;
    if (m) cwes.add(Number(m[1]));
  }
  for (const ref of [...list(rule.relationships).map((r) => obj(r).target), ...list(result.taxa)]) {
    const target = obj(ref);
    const m = /^(?:cwe-?)?0*(\d+)$/i.exec(asText(target.id ?? ''));
    if (m && /cwe/i.test(asText(obj(target.toolComponent).name ?? ''))) cwes.add(Number(m[1]));
  }
  const mapped = [...cwes].flatMap((cwe) => entry(CWE, String(cwe))?.controls ?? []);
  return [...new Set(mapped.length > 0 ? ['sa-11', ...mapped] : SCAN_CONTROLS)];
}

/** `file:line` of the first location, else its logical location. */
function resourceOf(run: Json, result: Json): string | undefined {
  const location = obj(list(result.locations)[0]);
  const physical = obj(location.physicalLocation);
  const artifact = obj(physical.artifactLocation);
  const uri = artifact.uri ?? (typeof artifact.index === 'number' ? obj(obj(list(run.artifacts)[artifact.index]).location).uri : undefined);
  const line = obj(physical.region).startLine;
  if (typeof uri === 'string') return typeof line === 'number' ? `${uri}:${line}` : uri;
  const logical = obj(list(location.logicalLocations)[0]);
  return text(logical.fullyQualifiedName) ?? text(logical.name);
}

/**
 * SARIF lists findings only: each run adds one `scan:<target>` check (the repository, else the source root, else
 * `runs[i]`) that passes when the run completed, so a clean scan shows as PASS and any finding outranks it. A run
 * that says it failed, or has no `results` at all (SARIF 3.14.23: the tool did not compute them), is an error.
 */
function addScanCheck(scanned: Map<string, ScanCheck>, run: Json, i: number, results: number | undefined): void {
  const target = text(obj(list(run.versionControlProvenance)[0]).repositoryUri) ?? text(obj(obj(run.originalUriBaseIds).SRCROOT).uri);
  const id = `scan:${target ?? `runs[${i}]`}`;
  const failed = list(run.invocations).find((v) => obj(v).executionSuccessful === false);
  const notice = failed ? text(obj(obj(list(obj(failed).toolExecutionNotifications)[0]).message).text) : undefined;
  const outcome: CheckOutcome = failed || results === undefined ? 'error' : 'pass';
  const details = failed
    ? `the run did not complete${notice ? `: ${notice}` : ''}`
    : results === undefined
      ? 'the run has no results list: the tool did not compute results'
      : `${results} results`;
  const previous = scanned.get(id);
  if (previous && previous.outcome === 'error') return;
  scanned.set(id, {
    id,
    outcome,
    criticality: 'should',
    controls: SCAN_CONTROLS,
    title: 'Code scan completed',
    ...(target ? { resource: target } : {}),
    details: clip(details, 300),
  });
}

/** When the run ended (or started), from its first invocation. */
function runTime(run: Json): string | undefined {
  const invocation = obj(list(run.invocations)[0]);
  return isoTime(invocation.endTimeUtc) ?? isoTime(invocation.startTimeUtc);
}
