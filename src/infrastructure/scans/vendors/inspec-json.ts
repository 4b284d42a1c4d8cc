import { controlsFromReferences } from '../../../domain/catalog/ksi-catalog';
import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/inspec-controls.json';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, shapeError, text } from '../vendor-parser';

const MAX_DETAILS = 300;
const MAX_TITLE = 200;
/** Texts of a control's deciding results kept for its details: the first few say what failed. */
const MAX_TEXTS = 3;
/** InSpec's default impact when a control sets none. */
const DEFAULT_IMPACT = 0.5;
/** Heimdall's tag for a control that maps to no NIST SP 800-53 control (inspecjs `compute_raw_nist_tags`). */
const UNMAPPED = /^\s*UM-1\s*$/i;

/** Result statuses, worst first (their rank): a control's status is the worst of its results. */
const STATUSES = ['failed', 'error', 'passed', 'skipped'] as const;
const OUTCOMES: readonly CheckOutcome[] = ['fail', 'error', 'pass'];
const RANK: Readonly<Record<string, number>> = Object.fromEntries(STATUSES.map((s, rank) => [s, rank]));
const SKIPPED = RANK.skipped;

type Json = Record<string, unknown>;

/** Who wrote a document: the tool whose findings it holds, its version, and the target it names. */
export interface Producer {
  tool: string;
  version?: string;
  tenant?: string;
}

/**
 * How one vendor reads the InSpec JSON reporter's format, which is also the Heimdall Data Format (HDF): `inspec` for
 * InSpec runs, `hdf` for HDF from any producer. The structure, overlays, statuses, waivers and evidence text are read
 * the same way for both; these are what differ.
 */
export interface InspecJsonReading {
  vendor: string;
  /** The format as error messages name it ("this is not <format> output as svc knows it"). */
  format: string;
  /** ParsedScan.mapping. */
  mapping: string;
  /**
   * The outcome of an applicable control none of whose results passed, failed or errored (all skipped, or none):
   * InSpec's reading is not applicable; Heimdall shows it as Not Reviewed, a manual check still to do.
   */
  unreviewed: CheckOutcome;
  producer(document: Json, outermost: Json | undefined): Producer;
  /** NIST controls of a control's `tags.cci` (DISA CCIs), read when `tags.nist` names none; absent: CCIs are not read. */
  cciControls?(ccis: readonly string[]): string[];
}

interface Control {
  /** The definition that applies: the outermost profile's (an overlay's impact and tags override its base's). */
  definition: Json;
  depth: number;
  /** Rank of the worst result status seen, Infinity while there is none. */
  worst: number;
  /** Texts of the results of the worst status (at most MAX_TEXTS) and how many such results there were. */
  texts: string[];
  count: number;
  /** The waiver of whichever copy of the control carries one. */
  waiver?: Json;
}

/** InSpec JSON (or HDF) from the first 64 KiB: a list of profiles, with a platform or controls. */
export function looksLikeInspecJson(head: string): boolean {
  return /"profiles"\s*:\s*\[\s*\{/.test(head) && (/"platform"\s*:\s*\{/.test(head) || /"controls"\s*:\s*\[/.test(head));
}

/**
 * An HDF document that InSpec did not write: SAF CLI conversions (`platform.name` "Heimdall Tools") and svc's own
 * (`svc generate hdf`, `platform.name` "svc") name their producer as the platform, and only HDF tools add `passthrough`.
 */
export function looksLikeNonInspecHdf(head: string): boolean {
  return /"platform"\s*:\s*\{\s*"name"\s*:\s*"(Heimdall Tools|svc)"/.test(head) || /"passthrough"\s*:\s*\{/.test(head);
}

/**
 * Reads InSpec's JSON reporter output / HDF. Overlay profiles list the controls of the profiles they depend on again,
 * and only the profile that ran a control carries its results: each control id is one check, with the results of
 * every copy and the impact and tags of the outermost profile that lists it.
 */
export async function readInspecJson(input: RawInput, reading: InspecJsonReading): Promise<ParsedScan> {
  const fail = (path: string, problem: string) => shapeError(input, reading.format, path, problem);
  const document = await input.json();
  if (!isPlainObject(document) || !Array.isArray(document.profiles))
    throw fail('profiles', 'missing; InSpec JSON and HDF documents have platform, profiles[] and statistics');
  const profiles = document.profiles.map((profile, p) => {
    if (!isPlainObject(profile) || !Array.isArray(profile.controls)) throw fail(`profiles[${p}].controls`, 'expected a list of controls');
    return profile;
  });
  const depthOf = profileDepths(profiles);
  const controls = new Map<string, Control>();
  let earliest: { time: number; text: string } | undefined;
  profiles.forEach((profile, p) => {
    const depth = depthOf(profile);
    (profile.controls as unknown[]).forEach((control, c) => {
      const at = `profiles[${p}].controls[${c}]`;
      if (!isPlainObject(control) || typeof control.id !== 'string' || control.id === '') throw fail(`${at}.id`, 'missing');
      if (control.results !== undefined && control.results !== null && !Array.isArray(control.results)) throw fail(`${at}.results`, 'expected a list');
      const seen = controls.get(control.id) ?? { definition: control, depth, worst: Infinity, texts: [], count: 0 };
      if (depth < seen.depth) Object.assign(seen, { definition: control, depth });
      if (isPlainObject(control.waiver_data) && Object.keys(control.waiver_data).length > 0) seen.waiver ??= control.waiver_data;
      ((control.results as unknown[] | null | undefined) ?? []).forEach((result, r) => {
        const { status, words, start } = resultOf(result, `${at}.results[${r}]`, fail);
        const rank = RANK[status];
        if (rank < seen.worst) Object.assign(seen, { worst: rank, texts: [], count: 0 });
        if (rank === seen.worst) {
          seen.count += 1;
          if (words !== undefined && seen.texts.length < MAX_TEXTS) seen.texts.push(words);
        }
        if (start !== undefined && (earliest === undefined || Date.parse(start) < earliest.time)) earliest = { time: Date.parse(start), text: start };
      });
      controls.set(control.id, seen);
    });
  });
  const outermost = profiles.find((p) => depthOf(p) === 0) ?? profiles[0];
  const { tool, version, tenant } = reading.producer(document, outermost);
  return {
    vendor: reading.vendor,
    tool,
    ...(version ? { version } : {}),
    ...(tenant ? { tenant } : {}),
    ...(earliest ? { observed_at: earliest.text } : {}),
    mapping: reading.mapping,
    checks: [...controls.entries()].map(([id, control]) => controlCheck(id, control, tenant, reading)),
  };
}

/** The tenant InSpec names: the platform's target id, else its name and release. */
export function inspecTarget(document: Json): string | undefined {
  const platform = isPlainObject(document.platform) ? document.platform : {};
  return [platform.target_id, [platform.name, platform.release].filter((x) => typeof x === 'string').join(' ')].find(
    (x): x is string => typeof x === 'string' && x !== '',
  );
}

function resultOf(result: unknown, at: string, fail: (path: string, problem: string) => Error): { status: string; words?: string; start?: string } {
  if (!isPlainObject(result) || typeof result.status !== 'string') throw fail(`${at}.status`, 'missing');
  if (entry(RANK, result.status) === undefined)
    throw fail(`${at}.status`, `"${result.status.slice(0, 40)}" is not an InSpec result status (passed, failed, skipped, error)`);
  // What the result says (its message, skip or exception), then what it tested (code_desc): "expected 14 got 90 (…)".
  const said = text(result.message) ?? text(result.skip_message) ?? text(result.exception);
  const tested = text(result.code_desc);
  const words = said && tested && said.trim() !== tested.trim() ? `${said} (${tested})` : (said ?? tested);
  const start = isoTime(result.start_time);
  return { status: result.status, ...(words ? { words: clip(words, MAX_DETAILS) } : {}), ...(start ? { start } : {}) };
}

function controlCheck(id: string, control: Control, target: string | undefined, reading: InspecJsonReading): ScanCheck {
  const { definition } = control;
  const impact = typeof definition.impact === 'number' && Number.isFinite(definition.impact) ? definition.impact : DEFAULT_IMPACT;
  const skippedByWaiver = control.waiver?.skipped_due_to_waiver;
  const waived = skippedByWaiver === true || skippedByWaiver === 'true';
  const outcome = outcomeOf(control, impact, waived, reading);
  const tags = isPlainObject(definition.tags) ? definition.tags : {};
  const severity = clip(text(tags.severity) ?? impactLabel(impact), 40);
  const details = detailsOf(control, waived);
  return {
    id,
    outcome,
    criticality: impact >= 0.7 ? 'must' : 'should',
    controls: controlsOf(tags, reading),
    ...(typeof definition.title === 'string' ? { title: clip(definition.title, MAX_TITLE) } : {}),
    severity,
    ...(target ? { resource: target } : {}),
    ...(details ? { details } : {}),
  };
}

/**
 * Impact 0 is InSpec's "not applicable / informational"; a control skipped under a waiver was deliberately not run
 * (omitted, as Heimdall does not count it either); otherwise the worst result, and a control with nothing but skipped
 * results, or none, is what the reading says it is.
 */
function outcomeOf(control: Control, impact: number, waived: boolean, reading: InspecJsonReading): CheckOutcome {
  if (impact === 0) return 'not-applicable';
  if (waived && control.worst >= SKIPPED) return 'omitted';
  return control.worst >= SKIPPED ? reading.unreviewed : OUTCOMES[control.worst];
}

/** The deciding results' texts, with the waiver's justification in front when the control has one. */
function detailsOf(control: Control, waived: boolean): string | undefined {
  const parts: string[] = [];
  const justification = text(control.waiver?.justification);
  const expires = text(control.waiver?.expiration_date);
  if (waived || justification)
    parts.push(`${waived ? 'Skipped under a waiver' : 'Waiver'}${justification ? `: ${justification}` : ''}${expires ? ` (expires ${expires})` : ''}`);
  if (control.texts.length > 0)
    parts.push(
      control.count > control.texts.length ? `${control.texts.join('; ')}; and ${control.count - control.texts.length} more` : control.texts.join('; '),
    );
  return parts.length > 0 ? clip(parts.join('. '), MAX_DETAILS) : undefined;
}

/**
 * `tags.nist` (`CM-6 b`, `AC-2 (1)`, `Rev_4` dropped); Heimdall's `UM-1` alone says the control maps to none (an
 * unmapped check); without NIST tags, the vendor's CCI reading, else the default table (cm-6).
 */
function controlsOf(tags: Json, reading: InspecJsonReading): string[] {
  const nist = strings(tags.nist);
  const named = controlsFromReferences(nist.filter((t) => !UNMAPPED.test(t)));
  if (named.length > 0) return named;
  if (nist.some((t) => UNMAPPED.test(t))) return [];
  const viaCci = reading.cciControls?.(strings(tags.cci)) ?? [];
  return viaCci.length > 0 ? viaCci : [...table.default];
}

function strings(tag: unknown): string[] {
  const list = Array.isArray(tag) ? tag : typeof tag === 'string' ? [tag] : [];
  return list.filter((x): x is string => typeof x === 'string');
}

/** How deep each profile sits in the overlay chain (`parent_profile` names the profile that depends on it). */
function profileDepths(profiles: Json[]): (profile: Json) => number {
  const byName = new Map(profiles.map((p) => [p.name, p]));
  return (profile) => {
    let depth = 0;
    for (let p: Json | undefined = profile; p && typeof p.parent_profile === 'string' && depth < profiles.length; p = byName.get(p.parent_profile)) depth += 1;
    return depth;
  };
}

function impactLabel(impact: number): string {
  if (impact === 0) return 'none';
  if (impact < 0.4) return 'low';
  if (impact < 0.7) return 'medium';
  return impact < 0.9 ? 'high' : 'critical';
}
