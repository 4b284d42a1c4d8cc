import { controlsFromReferences } from '../../../domain/catalog/ksi-catalog';
import { isPlainObject } from '../../../domain/ksi/ksi-result';
import type { CheckOutcome, ScanCheck, VendorScan } from '../../../domain/scan/scan';
import table from '../data/inspec-controls.json';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'Chef InSpec';
const MAX_DETAILS = 300;
const MAX_TITLE = 200;
/** InSpec's default impact when a control sets none. */
const DEFAULT_IMPACT = 0.5;

/** Result statuses, worst first: a control's status is the worst of its results. */
const STATUSES: Record<string, { rank: number; outcome: CheckOutcome }> = {
  failed: { rank: 0, outcome: 'fail' },
  error: { rank: 1, outcome: 'error' },
  passed: { rank: 2, outcome: 'pass' },
  skipped: { rank: 3, outcome: 'not-applicable' },
};

type Json = Record<string, unknown>;

interface Control {
  /** The definition that applies: the outermost profile's (an overlay's impact and tags override its base's). */
  definition: Json;
  depth: number;
  results: { status: string; text?: string; start?: string }[];
}

/**
 * Chef InSpec's JSON reporter (`inspec exec --reporter json`), which is also MITRE's Heimdall Data Format. Overlay
 * profiles list the controls of the profiles they depend on again, and only the profile that ran a control
 * carries its results: each control id is one check, with the results of whichever profile has them and the
 * impact and tags of the outermost profile that lists it.
 */
export const inspec: VendorParser = {
  info: { vendor: 'inspec', tool: TOOL, formats: 'InSpec JSON reporter output (inspec exec --reporter json) or MITRE HDF JSON', mapping: 'tags.nist of each control, else cm-6 (data/inspec-controls.json)' },

  looksLike: (head) => /"profiles"\s*:\s*\[\s*\{/.test(head) && (/"platform"\s*:\s*\{/.test(head) || /"controls"\s*:\s*\[/.test(head)),

  async parse(input: RawInput): Promise<VendorScan> {
    const document = await input.json();
    if (!isPlainObject(document) || !Array.isArray(document.profiles)) throw shapeError(input, TOOL, 'profiles', 'missing; an InSpec report has platform, profiles[] and statistics');
    const profiles = document.profiles.map((profile, p) => {
      if (!isPlainObject(profile) || !Array.isArray(profile.controls)) throw shapeError(input, TOOL, `profiles[${p}].controls`, 'expected a list of controls');
      return profile;
    });
    const depthOf = profileDepths(profiles);
    const controls = new Map<string, Control>();
    profiles.forEach((profile, p) => {
      const depth = depthOf(profile);
      (profile.controls as unknown[]).forEach((control, c) => {
        const at = `profiles[${p}].controls[${c}]`;
        if (!isPlainObject(control) || typeof control.id !== 'string' || control.id === '') throw shapeError(input, TOOL, `${at}.id`, 'missing');
        const seen = controls.get(control.id) ?? { definition: control, depth, results: [] };
        if (depth < seen.depth) Object.assign(seen, { definition: control, depth });
        if (control.results !== undefined && !Array.isArray(control.results)) throw shapeError(input, TOOL, `${at}.results`, 'expected a list');
        ((control.results as unknown[] | undefined) ?? []).forEach((result, r) => seen.results.push(resultOf(input, result, `${at}.results[${r}]`)));
        controls.set(control.id, seen);
      });
    });
    const platform = isPlainObject(document.platform) ? document.platform : {};
    const target = [platform.target_id, [platform.name, platform.release].filter((x) => typeof x === 'string').join(' ')].find((x) => typeof x === 'string' && x !== '') as string | undefined;
    const starts = [...controls.values()].flatMap((c) => c.results.map((r) => r.start)).filter((t): t is string => t !== undefined);
    return {
      vendor: 'inspec',
      tool: TOOL,
      ...(typeof document.version === 'string' ? { version: document.version } : {}),
      ...(target ? { tenant: target } : {}),
      ...(starts.length > 0 ? { observed_at: starts.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) } : {}),
      mapping: inspec.info.mapping,
      detections: 'configuration',
      checks: [...controls.entries()].map(([id, control]) => controlCheck(id, control, target)),
    };
  },
};

function resultOf(input: RawInput, result: unknown, at: string): Control['results'][number] {
  if (!isPlainObject(result) || typeof result.status !== 'string') throw shapeError(input, TOOL, `${at}.status`, 'missing');
  if (!entry(STATUSES, result.status)) throw shapeError(input, TOOL, `${at}.status`, `"${result.status.slice(0, 40)}" is not an InSpec result status (passed, failed, skipped, error)`);
  const text = [result.message, result.skip_message, result.exception, result.code_desc].find((x) => typeof x === 'string' && x.trim() !== '') as string | undefined;
  const start = isoTime(result.start_time);
  return { status: result.status, ...(text ? { text: clip(text, MAX_DETAILS) } : {}), ...(start ? { start } : {}) };
}

function controlCheck(id: string, { definition, results }: Control, target: string | undefined): ScanCheck {
  const impact = typeof definition.impact === 'number' ? definition.impact : DEFAULT_IMPACT;
  const worst = results.reduce<Control['results'][number] | undefined>((w, r) => (w === undefined || STATUSES[r.status].rank < STATUSES[w.status].rank ? r : w), undefined);
  // Impact 0 is InSpec's "not applicable / informational"; a control no profile ran has no result to give.
  const outcome: CheckOutcome = impact === 0 || worst === undefined ? 'not-applicable' : STATUSES[worst.status].outcome;
  const tags = isPlainObject(definition.tags) ? definition.tags : {};
  const controls = nistControls(tags.nist);
  const severity = typeof tags.severity === 'string' ? tags.severity : impactLabel(impact);
  return {
    id,
    outcome,
    criticality: impact >= 0.7 ? 'must' : 'should',
    controls: controls.length > 0 ? controls : [...table.default],
    ...(typeof definition.title === 'string' ? { title: clip(definition.title, MAX_TITLE) } : {}),
    severity,
    ...(target ? { resource: target } : {}),
    ...(worst?.text ? { details: worst.text } : {}),
  };
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

/** `["CM-6 b", "AC-2 (1)", "Rev_4"]` → `cm-6`, `ac-2.1`: statement letters and the revision marker dropped. */
function nistControls(tag: unknown): string[] {
  const list = Array.isArray(tag) ? tag : typeof tag === 'string' ? [tag] : [];
  return controlsFromReferences(list.filter((x): x is string => typeof x === 'string'));
}

