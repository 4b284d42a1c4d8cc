import { normalizeControlId, type KsiDefinition } from '../catalog/ksi-catalog';
import { DRIFT_CLASSES, DRIFT_SEVERITIES, type DriftSeverity } from '../drift/drift-finding';
import { describe, isPlainObject } from '../encoding/json-values';
import { InvalidInputError } from '../errors';
import type { Cr26Rules } from './cr26-rules';
import { matchControls } from './ksi-evaluation';
import type { ScnImpact } from './scn';

/** The svc command whose `--json` output a drift report is. */
export type DriftReportKind = 'ir drift-detect' | 'substrate drift';

/** One change of a drift report: a KSI's (`ir drift-detect`; none for a change of the run as a whole) or a resource's. */
export interface DriftChange {
  severity: DriftSeverity;
  /** The KSI id, for `ir drift-detect`. */
  ksi?: string;
  /** The resource id or `file:<path>`, for `substrate drift`. */
  subject?: string;
}

/** A drift report as the SCN reads it. */
export interface DriftReport {
  kind: DriftReportKind;
  file: string;
  /** The names of the earlier and the later side. */
  from: string;
  to: string;
  changes: DriftChange[];
}

const SUBSTRATE_CHANGES = ['added', 'removed', 'changed', 'moved'];

/**
 * Reads the `--json` output of `svc ir drift-detect` (`run_a`, `run_b`, `findings[]` with `ksi_id`) or of
 * `svc substrate drift` (`a`, `b`, `findings[]` with `subject`), told apart by the sides' keys. Anything else, or a
 * field of the wrong kind, is an InvalidInputError naming the file and the JSON path.
 */
export function readDriftReport(document: unknown, file: string): DriftReport {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-drift-report', `${file}: ${path}: ${problem}; pass the --json output of svc ir drift-detect or svc substrate drift`);
  };
  if (!isPlainObject(document)) return fail('$', `expected an object, got ${describe(document)}`);
  const runs = 'run_a' in document || 'run_b' in document;
  if (!runs && !('a' in document || 'b' in document)) {
    return fail('$', 'not a drift report: it has neither run_a and run_b (svc ir drift-detect) nor a and b (svc substrate drift)');
  }
  const [left, right] = runs ? ['run_a', 'run_b'] : ['a', 'b'];
  const name = (key: string): string => {
    const side = document[key];
    if (!isPlainObject(side)) return fail(key, `expected an object, got ${describe(side)}`);
    return typeof side.name === 'string' ? side.name : fail(`${key}.name`, `expected a string, got ${describe(side.name)}`);
  };
  const from = name(left);
  const to = name(right);
  const findings = document.findings;
  if (!Array.isArray(findings)) return fail('findings', `expected an array, got ${describe(findings)}`);
  const changes = findings.map((item: unknown, i): DriftChange => {
    const at = `findings[${i}]`;
    if (!isPlainObject(item)) return fail(at, `expected an object, got ${describe(item)}`);
    const severity = DRIFT_SEVERITIES.find((s) => s === item.severity) ?? fail(`${at}.severity`, `${describe(item.severity)} is not a drift severity (P1-P4)`);
    if (!(DRIFT_CLASSES as readonly unknown[]).includes(item.class)) fail(`${at}.class`, `${describe(item.class)} is not a drift class`);
    if (runs) {
      const ksi = item.ksi_id;
      if (ksi !== null && (typeof ksi !== 'string' || ksi === '')) fail(`${at}.ksi_id`, `expected a KSI id or null, got ${describe(ksi)}`);
      return { severity, ...(typeof ksi === 'string' ? { ksi } : {}) };
    }
    if (typeof item.subject !== 'string' || item.subject === '') fail(`${at}.subject`, `expected a resource id, got ${describe(item.subject)}`);
    if (!SUBSTRATE_CHANGES.includes(item.change as string)) fail(`${at}.change`, `${describe(item.change)} is not one of ${SUBSTRATE_CHANGES.join(', ')}`);
    return { severity, subject: item.subject as string };
  });
  return { kind: runs ? 'ir drift-detect' : 'substrate drift', file, from, to, changes };
}

/** How many subjects an impact analysis names before it says how many more there are. */
const LISTED = 20;

/**
 * What a drift report says the change touches, in CR26 ids only (a CR26 document carries no id of svc's catalog): the
 * CR26 KSIs its findings name (an earlier FedRAMP id as its CR26 id, by the rules' aliases; a KSI of svc's catalog as
 * the CR26 KSIs whose controls meet its own, as the SDR counts its results, docs/decisions.md "Control intersection
 * rule") and their NIST SP 800-53 controls (a CR26 KSI's from the rules data, a catalog KSI's from svc's catalog),
 * with the impact analysis's paragraph, which counts the ids that lead to no CR26 KSI. A substrate report names
 * configuration resources, not KSIs: the paragraph names the resources and the lists stay empty.
 */
export function driftImpact(
  report: DriftReport,
  rules: Pick<Cr26Rules, 'ksis' | 'aliases'>,
  catalog: { get(id: string): Pick<KsiDefinition, 'controls'> | undefined },
): ScnImpact {
  const cr26 = new Map(rules.ksis.map((k) => [k.id, k.controls]));
  const targets = rules.ksis.map((k) => ({ id: k.id, controls: matchControls(k.controls) }));
  const ksis = new Set<string>();
  const controls = new Set<string>();
  const unnamed = new Set<string>();
  const addControls = (list: readonly string[]) => {
    for (const c of list) controls.add(normalizeControlId(c) ?? c.trim().toLowerCase());
  };
  for (const { ksi } of report.changes) {
    if (ksi === undefined) continue;
    const id = !cr26.has(ksi) && Object.prototype.hasOwnProperty.call(rules.aliases, ksi) ? rules.aliases[ksi] : ksi;
    const own = cr26.get(id);
    if (own !== undefined) {
      ksis.add(id);
      addControls(own);
      continue;
    }
    const definition = catalog.get(id);
    const met = definition === undefined ? [] : targets.filter((t) => [...matchControls(definition.controls)].some((c) => t.controls.has(c)));
    for (const t of met) ksis.add(t.id);
    addControls(definition?.controls ?? []);
    if (met.length === 0) unnamed.add(id);
  }
  const counts = DRIFT_SEVERITIES.map((s) => `${s} ${report.changes.filter((c) => c.severity === s).length}`).join(', ');
  const n = report.changes.length;
  const head = `Drift from ${report.from} to ${report.to} (svc ${report.kind}, ${report.file}): ${n} ${n === 1 ? 'change' : 'changes'} (${counts})`;
  let analysis: string;
  if (report.kind === 'substrate drift') {
    const subjects = [...new Set(report.changes.map((c) => c.subject!))];
    const named = subjects.slice(0, LISTED).join(', ') + (subjects.length > LISTED ? `, and ${subjects.length - LISTED} more` : '');
    analysis = `${head}${subjects.length === 0 ? '' : ` to ${named}`}. A substrate report names configuration resources, not KSIs or controls.`;
  } else {
    const sorted = [...ksis].sort();
    const others =
      unnamed.size === 0 ? '' : `; ${unnamed.size} ${unnamed.size === 1 ? 'KSI id of the report leads' : 'KSI ids of the report lead'} to no CR26 KSI`;
    analysis = `${head}${sorted.length === 0 ? '' : ` on ${sorted.join(', ')}`}${controls.size === 0 ? '' : `: ${controls.size} NIST SP 800-53 ${controls.size === 1 ? 'control' : 'controls'} to verify (impactedControls)`}${others}.`;
  }
  return { ksis: [...ksis].sort(), controls: [...controls].sort(compareControls), analysis };
}

/** `ac-2` before `ac-2.1` before `ac-10`: family, then number, then enhancement. */
function compareControls(a: string, b: string): number {
  const parts = (c: string) => {
    const m = /^([a-z]+)-(\d+)(?:\.(\d+))?$/.exec(c);
    return m === null ? ([c, Infinity, -1] as const) : ([m[1], Number(m[2]), m[3] === undefined ? -1 : Number(m[3])] as const);
  };
  const [x, y] = [parts(a), parts(b)];
  if (x[0] !== y[0]) return x[0] < y[0] ? -1 : 1;
  if (x[1] !== y[1]) return x[1] - y[1];
  if (x[2] !== y[2]) return x[2] - y[2];
  return a < b ? -1 : a > b ? 1 : 0;
}
