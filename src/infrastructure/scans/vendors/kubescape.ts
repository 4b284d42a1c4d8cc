import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/kubescape-nist.json';
import type { RawInput } from '../raw-input';
import { asText, clip, isoTime, type Json, obj, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'Kubescape';
const BY_ID = new Map<string, string[]>();
for (const group of table.groups) for (const id of group.ids) BY_ID.set(id, [...new Set([...(BY_ID.get(id) ?? []), ...group.controls])]);
const SUB_CATEGORIES = new Map<unknown, string[]>(Object.entries(table.subCategories));
const CATEGORIES = new Map<unknown, string[]>(Object.entries(table.categories));

/** Kubescape's control statuses (opa-utils `ScanningStatus`); `ignored`, `excluded`, `irrelevant` and `error` are from older releases. */
const STATUSES = new Map<unknown, CheckOutcome>([
  ['passed', 'pass'],
  ['failed', 'fail'],
  ['skipped', 'not-applicable'],
  ['irrelevant', 'not-applicable'],
  ['excluded', 'omitted'],
  ['ignored', 'omitted'],
  ['error', 'error'],
]);
/** Sub-statuses that change the outcome: a pass `w/exceptions` is a waived failure; a skip for review is manual. */
const SUB_STATUSES = new Map<unknown, CheckOutcome>([
  ['w/exceptions', 'omitted'],
  ['manual review', 'manual'],
  ['requires review', 'manual'],
]);

/**
 * Kubescape v2 JSON (`kubescape scan ... --format json`): one check per control evaluated on a resource
 * (`results[].controls[]`). Kubescape has no NIST framework: controls come from svc's table of Kubescape control
 * ids and categories (`data/kubescape-nist.json`); severity from the control's `scoreFactor`.
 */
export const kubescape: VendorParser = {
  info: {
    vendor: 'kubescape',
    tool: TOOL,
    formats: 'Kubescape JSON (--format json, v2)',
    mapping: 'svc Kubescape control table (data/kubescape-nist.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) => /"summaryDetails"\s*:/.test(head) && /"controlID"\s*:\s*"C-\d+"/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    if (!isPlainObject(document) || !Array.isArray(document.results))
      throw shapeError(input, TOOL, 'results', 'missing; a Kubescape JSON report has summaryDetails, resources and results');
    const summary = obj(obj(document.summaryDetails).controls);
    const checks: ScanCheck[] = [];
    document.results.forEach((result, i) => {
      if (!isPlainObject(result) || typeof result.resourceID !== 'string') throw shapeError(input, TOOL, `results[${i}].resourceID`, 'missing');
      const resource = result.resourceID;
      const controls = result.controls ?? [];
      if (!Array.isArray(controls)) throw shapeError(input, TOOL, `results[${i}].controls`, 'expected a list of controls');
      controls.forEach((control, j) => checks.push(controlCheck(input, resource, control, summary, `results[${i}].controls[${j}]`)));
    });
    const meta = obj(document.metadata);
    const version = obj(meta.scanMetadata).kubescapeVersion;
    const tenant = [document.clusterName, obj(obj(meta.targetMetadata).clusterContextMetadata).contextName].find((x) => typeof x === 'string' && x !== '');
    // Kubescape writes Go's zero time (0001-01-01) when it did not record one.
    const observedAt = isoTime(document.generationTime);
    return {
      vendor: 'kubescape',
      tool: TOOL,
      ...(typeof version === 'string' && version !== '' ? { version } : {}),
      ...(typeof tenant === 'string' ? { tenant } : {}),
      ...(observedAt && !observedAt.startsWith('0001-') ? { observed_at: observedAt } : {}),
      mapping: kubescape.info.mapping,
      checks,
    };
  },
};

function controlCheck(input: RawInput, resource: string, control: unknown, summary: Json, path: string): ScanCheck {
  if (!isPlainObject(control) || typeof control.controlID !== 'string') throw shapeError(input, TOOL, `${path}.controlID`, 'missing');
  const id = control.controlID;
  const status = isPlainObject(control.status) ? control.status : { status: control.status };
  const base = STATUSES.get(status.status);
  if (!base) throw shapeError(input, TOOL, `${path}.status.status`, `${JSON.stringify(status.status)} is not a Kubescape status (passed, failed, skipped)`);
  const about = obj(summary[id]);
  const severity = severityOf(about.scoreFactor);
  // A sub-status refines a pass or a skip; a failure stays a failure (an unknown-severity one decides nothing).
  let outcome = base === 'fail' ? base : (SUB_STATUSES.get(status.subStatus) ?? base);
  if (outcome === 'fail' && !severity) outcome = 'not-applicable';
  const criticality: Criticality = severity === 'High' || severity === 'Critical' ? 'must' : 'should';
  const title = typeof control.name === 'string' ? control.name : typeof about.name === 'string' ? about.name : undefined;
  const details = detailsOf(control, status, outcome);
  return {
    id,
    outcome,
    criticality,
    controls: controlsOf(id, obj(about.category)),
    ...(title ? { title: clip(title, 120) } : {}),
    ...(severity ? { severity } : {}),
    resource,
    ...(details ? { details: clip(details, 300) } : {}),
  };
}

/** Kubescape's severity bands of `scoreFactor`: 1-3 Low, 4-6 Medium, 7-8 High, 9-10 Critical. */
function severityOf(scoreFactor: unknown): string | undefined {
  if (typeof scoreFactor !== 'number' || scoreFactor <= 0) return undefined;
  return scoreFactor >= 9 ? 'Critical' : scoreFactor >= 7 ? 'High' : scoreFactor >= 4 ? 'Medium' : 'Low';
}

function controlsOf(id: string, category: Json): string[] {
  return BY_ID.get(id) ?? SUB_CATEGORIES.get(obj(category.subCategory).name) ?? CATEGORIES.get(category.name) ?? table.default;
}

/** The failed rules and the first paths to fix, the reason for a skip, or the exceptions that waived a failure. */
function detailsOf(control: Json, status: Json, outcome: CheckOutcome): string | undefined {
  const rules = Array.isArray(control.rules) ? control.rules.filter(isPlainObject) : [];
  if (outcome === 'fail') {
    const failed = rules.filter((r) => r.status === 'failed');
    const paths = failed
      .flatMap((r) => (Array.isArray(r.paths) ? r.paths : []))
      .flatMap((p) => {
        const at = obj(p);
        const fix = obj(at.fixPath);
        const where = fix.path ?? at.failedPath ?? at.deletePath ?? at.reviewPath;
        return typeof where === 'string' ? [typeof fix.value === 'string' ? `${where}=${fix.value}` : where] : [];
      });
    return [
      `failed rules: ${failed.map((r) => asText(r.name)).join(', ') || 'none named'}`,
      paths.length > 0 && `fix ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', ...' : ''}`,
    ]
      .filter(Boolean)
      .join('; ');
  }
  if (outcome === 'omitted') {
    const names = [...new Set(rules.flatMap((r) => (Array.isArray(r.exception) ? r.exception : [])).map((e) => asText(obj(e).name)))];
    return `passed only with exception${names.length === 1 ? '' : 's'}: ${names.slice(0, 3).join(', ') || 'unnamed'}${names.length > 3 ? ', ...' : ''}`;
  }
  return typeof status.info === 'string' ? status.info : undefined;
}
