import { isSeverity } from '../governance/severity';
import type { Crosswalk, CrosswalkEntry } from './derive-catalog';
import type { OfficialKsi, OfficialRelease } from './frmr-release';
import { baseControl, ksiIdForControl, type CatalogData } from './ksi-catalog';

/** 181 base controls of the FedRAMP rev5 Moderate baseline minus the 18 family policy controls. */
export const EXPECTED_KSI_COUNT = 163;

const MAILBOX = /^[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,}$/;

export interface ConsistencyReport {
  ok: boolean;
  counts: { ksis: number; families: number; baseline_controls: number; mapped_controls: number };
  problems: string[];
}

/** The rules of DESIGN §4 that `svc canon check` proves about the built-in catalog. */
export function checkCatalogConsistency(data: CatalogData, crosswalk?: Crosswalk): ConsistencyReport {
  const problems: string[] = [];
  const baseline = new Set(data.baseline_controls.map((c) => c.id));
  const policies = new Set(data.families.map((f) => f.policy.id));
  const owner = new Map<string, string>();
  const seen = new Set<string>();
  const official = new Set(crosswalk?.official.map((o) => o.id));

  if (baseline.size !== data.baseline_controls.length) problems.push('baseline_controls lists a control twice');
  for (const family of data.families) {
    const expected = `${family.id.toLowerCase()}-1`;
    if (family.policy.id !== expected) problems.push(`family ${family.id}: policy is ${family.policy.id}, expected ${expected}`);
    if (!baseline.has(family.policy.id)) problems.push(`family ${family.id}: policy ${family.policy.id} is not in the baseline`);
  }
  for (const ksi of data.ksis) {
    if (seen.has(ksi.id)) problems.push(`${ksi.id}: listed twice`);
    seen.add(ksi.id);
    if (ksi.id !== ksiIdForControl(ksi.control))
      problems.push(`${ksi.id}: id does not match its control ${ksi.control} (expected ${ksiIdForControl(ksi.control)})`);
    if (policies.has(ksi.control)) problems.push(`${ksi.id}: ${ksi.control} is a policy control, not a KSI`);
    if (ksi.controls[0] !== ksi.control) problems.push(`${ksi.id}: controls must start with its base control ${ksi.control}`);
    for (const control of ksi.controls) {
      if (!baseline.has(control)) problems.push(`${ksi.id}: control ${control} is not in the baseline`);
      if (baseControl(control) !== ksi.control) problems.push(`${ksi.id}: control ${control} is not ${ksi.control} or an enhancement of it`);
      const other = owner.get(control);
      if (other) problems.push(`${ksi.id}: control ${control} is already mapped to ${other}`);
      owner.set(control, ksi.id);
    }
    const family = data.families.find((f) => f.id === ksi.family);
    if (!family) problems.push(`${ksi.id}: unknown family ${ksi.family}`);
    else if (!ksi.policies.some((p) => p.id === family.policy.id)) problems.push(`${ksi.id}: missing family policy ${family.policy.id}`);
    if (!isSeverity(ksi.severity)) problems.push(`${ksi.id}: severity ${String(ksi.severity)} is not Critical, High, Medium or Low`);
    if (!Number.isInteger(ksi.frequency_days) || ksi.frequency_days <= 0) problems.push(`${ksi.id}: frequency_days must be a positive whole number`);
    if (!MAILBOX.test(ksi.owner)) problems.push(`${ksi.id}: owner ${ksi.owner} is not a mailbox`);
    if (crosswalk) for (const id of ksi.official_ksis) if (!official.has(id)) problems.push(`${ksi.id}: official KSI ${id} is not in the crosswalk`);
  }
  for (const { id: control } of data.baseline_controls) {
    if (!policies.has(control) && !owner.has(control)) problems.push(`baseline control ${control} is not mapped to any KSI`);
  }
  if (data.ksis.length !== EXPECTED_KSI_COUNT) problems.push(`catalog holds ${data.ksis.length} KSIs, expected ${EXPECTED_KSI_COUNT}`);
  return {
    ok: problems.length === 0,
    counts: { ksis: data.ksis.length, families: data.families.length, baseline_controls: baseline.size, mapped_controls: owner.size },
    problems,
  };
}

export type Coverage = 'full' | 'partial' | 'none' | 'no-controls';

export interface OfficialCoverage {
  id: string;
  name: string;
  coverage: Coverage;
  covered: number;
  total: number;
  /** Controls the KSI lists that the built-in catalog does not hold. */
  missing: string[];
}

export interface ReleaseComparison {
  release: string;
  compared_with: string;
  added: string[];
  removed: string[];
  renamed: { from: string; to: string }[];
  changed: { id: string; fields: string[] }[];
  coverage: OfficialCoverage[];
  counts: Record<Coverage, number> & { active: number; retired: number };
}

/**
 * Compares a FedRAMP release with the crosswalk's current release (added, removed, renamed through the
 * `fka` links, changed) and says how fully the built-in catalog covers the controls of each active KSI.
 */
export function compareRelease(release: OfficialRelease, crosswalk: Crosswalk, catalog: CatalogData): ReleaseComparison {
  const known = new Set(catalog.baseline_controls.map((c) => c.id));
  const current = crosswalk.official.filter((o) => o.releases.includes(crosswalk.current_release));
  const byId = new Map(current.map((o) => [o.id, o]));
  const matched = new Set<string>();
  const added: string[] = [];
  const renamed: { from: string; to: string }[] = [];
  const changed: { id: string; fields: string[] }[] = [];
  for (const ksi of release.ksis) {
    const direct = byId.get(ksi.id);
    const alias = direct ? undefined : current.find((o) => o.aliases.includes(ksi.id) || (ksi.fka !== undefined && o.id === ksi.fka));
    const match = direct ?? alias;
    if (!match) {
      added.push(ksi.id);
      continue;
    }
    matched.add(match.id);
    if (alias) renamed.push({ from: alias.id, to: ksi.id });
    const fields = differences(match, ksi);
    if (fields.length > 0) changed.push({ id: ksi.id, fields });
  }
  const removed = current.filter((o) => !matched.has(o.id)).map((o) => o.id);
  const coverage = release.ksis.filter((k) => !k.retired).map((k) => coverageOf(k, known));
  const counts = { full: 0, partial: 0, none: 0, 'no-controls': 0, active: coverage.length, retired: release.ksis.length - coverage.length };
  for (const c of coverage) counts[c.coverage] += 1;
  return { release: release.id, compared_with: crosswalk.current_release, added, removed, renamed, changed, coverage, counts };
}

function differences(known: CrosswalkEntry, ksi: OfficialKsi): string[] {
  const fields: string[] = [];
  if (known.name !== ksi.name) fields.push('name');
  if (known.statement !== ksi.statement) fields.push('statement');
  if ([...known.controls].sort().join() !== [...ksi.controls].sort().join()) fields.push('controls');
  if (known.retired !== ksi.retired) fields.push('retired');
  return fields;
}

function coverageOf(ksi: OfficialKsi, known: ReadonlySet<string>): OfficialCoverage {
  const missing = ksi.controls.filter((c) => !known.has(c));
  const covered = ksi.controls.length - missing.length;
  const coverage: Coverage = ksi.controls.length === 0 ? 'no-controls' : missing.length === 0 ? 'full' : covered === 0 ? 'none' : 'partial';
  return { id: ksi.id, name: ksi.name, coverage, covered, total: ksi.controls.length, missing };
}
