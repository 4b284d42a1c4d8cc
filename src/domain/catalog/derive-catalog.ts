import { InvalidInputError } from '../errors';
import type { Severity } from '../governance/severity';
import { isPlainObject } from '../encoding/json-values';
import type { OfficialKsi, OfficialRelease } from './frmr-release';
import {
  baseControl,
  ksiIdForControl,
  type CatalogData,
  type CatalogSourceInfo,
  type ControlRef,
  type FamilyDefinition,
  type KsiDefinition,
} from './ksi-catalog';

/** FAIL severity by family (DESIGN §4). */
const SEVERITY: Record<Severity, string[]> = {
  Critical: ['AC', 'IA', 'SC'],
  High: ['AU', 'CM', 'CP', 'IR', 'RA', 'SI'],
  Medium: ['AT', 'CA', 'MA', 'MP', 'PE', 'PL', 'PS', 'SA', 'SR'],
  Low: [],
};
/** Machine-checkable families are validated every 3 days, the rest every 90. */
const FAST_FAMILIES = ['AC', 'AU', 'CM', 'IA', 'RA', 'SC', 'SI'];
const OWNERS: Record<string, string[]> = {
  'identity-team@agency.example': ['AC', 'IA'],
  'secops-team@agency.example': ['AU', 'IR', 'RA', 'SI'],
  'platform-team@agency.example': ['CM', 'CP', 'MA', 'MP', 'PE', 'SC'],
  'grc-team@agency.example': ['AT', 'CA', 'PL', 'PS', 'SA', 'SR'],
};

export interface ReleaseFile {
  file: string;
  sha256: string;
  release: OfficialRelease;
}

export interface CrosswalkRelease {
  id: string;
  published?: string;
  file: string;
  sha256: string;
  ksis: number;
  active: number;
}

export interface CrosswalkEntry {
  id: string;
  theme: string;
  name: string;
  statement: string;
  controls: string[];
  /** Releases that list the id, oldest first. */
  releases: string[];
  /** Retired in the newest release that lists it. */
  retired: boolean;
  /** Other ids of the same KSI (numeric ↔ mnemonic, from the `fka` links). */
  aliases: string[];
}

/** Official FedRAMP 20x KSIs beside the catalog (DESIGN §4). */
export interface Crosswalk {
  schema: 'svc.ksi-crosswalk/v1';
  current_release: string;
  releases: CrosswalkRelease[];
  official: CrosswalkEntry[];
}

/**
 * Derives the 163-KSI catalog from a FedRAMP rev5 resolved-profile catalog (one KSI per base control,
 * the family's `xx-1` as its policy) and the crosswalk from the FRMR releases, oldest release first.
 */
export function deriveCatalog(oscal: unknown, source: CatalogSourceInfo, releases: readonly ReleaseFile[]): { catalog: CatalogData; crosswalk: Crosswalk } {
  const groups = readGroups(oscal, source.file);
  const crosswalk = deriveCrosswalk(releases);
  const current = crosswalk.official.filter((o) => o.releases.includes(crosswalk.current_release) && !o.retired);
  const families: FamilyDefinition[] = [];
  const ksis: KsiDefinition[] = [];
  const baseline: ControlRef[] = [];
  for (const group of groups) {
    const family = group.id.toUpperCase();
    const policyControl = group.controls.find((c) => c.id === `${group.id}-1`);
    if (!policyControl) throw new InvalidInputError('catalog-derivation', `${source.file}: group ${group.id} has no ${group.id}-1 policy control`);
    const defaults = familyDefaults(family, source.file);
    const definition: FamilyDefinition = { id: family, title: group.title, policy: { id: policyControl.id, title: policyControl.title }, ...defaults };
    families.push(definition);
    for (const control of group.controls) {
      const flat = flatten(control);
      const controls = flat.map((c) => c.id);
      baseline.push(...flat);
      if (control === policyControl) continue;
      ksis.push({
        id: ksiIdForControl(control.id),
        title: control.title,
        family,
        control: control.id,
        controls,
        policies: [definition.policy],
        ...defaults,
        official_ksis: current.filter((o) => o.controls.some((c) => baseControl(c) === control.id)).map((o) => o.id),
      });
    }
  }
  return { catalog: { schema: 'svc.ksi-catalog/v1', source, baseline_controls: baseline, families, ksis }, crosswalk };
}

/** Releases oldest first: publication dates are missing from draft releases, so the caller gives the order. */
export function deriveCrosswalk(ordered: readonly ReleaseFile[]): Crosswalk {
  const entries = new Map<string, CrosswalkEntry>();
  const aliases = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ])
      aliases.set(x, (aliases.get(x) ?? new Set()).add(y));
  };
  for (const { release } of ordered) {
    for (const ksi of release.ksis) {
      const previous = entries.get(ksi.id);
      entries.set(ksi.id, mergeEntry(previous, ksi, release.id));
      if (ksi.fka) link(ksi.id, ksi.fka);
    }
  }
  const official = [...entries.values()]
    .map((e) => ({ ...e, aliases: [...(aliases.get(e.id) ?? [])].sort() }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    schema: 'svc.ksi-crosswalk/v1',
    current_release: ordered[ordered.length - 1]?.release.id ?? 'none',
    releases: ordered.map(({ file, sha256, release }) => ({
      id: release.id,
      ...(release.published ? { published: release.published } : {}),
      file,
      sha256,
      ksis: release.ksis.length,
      active: release.ksis.filter((k) => !k.retired).length,
    })),
    official,
  };
}

/** Newer releases win, but an empty control list never erases the controls an older release gave. */
function mergeEntry(previous: CrosswalkEntry | undefined, ksi: OfficialKsi, releaseId: string): CrosswalkEntry {
  return {
    id: ksi.id,
    theme: ksi.theme,
    name: ksi.name || previous?.name || '',
    statement: ksi.statement || previous?.statement || '',
    controls: ksi.controls.length > 0 ? ksi.controls : (previous?.controls ?? []),
    releases: [...(previous?.releases ?? []), releaseId],
    retired: ksi.retired,
    aliases: [],
  };
}

function familyDefaults(family: string, file: string): Pick<FamilyDefinition, 'severity' | 'frequency_days' | 'owner'> {
  const severity = (Object.keys(SEVERITY) as Severity[]).find((s) => SEVERITY[s].includes(family));
  const owner = Object.keys(OWNERS).find((o) => OWNERS[o].includes(family));
  if (!severity || !owner)
    throw new InvalidInputError('catalog-derivation', `${file}: family ${family} has no severity or owner in the rules of docs/catalog.md`);
  return { severity, frequency_days: FAST_FAMILIES.includes(family) ? 3 : 90, owner };
}

interface OscalControl {
  id: string;
  title: string;
  controls: OscalControl[];
}

function readGroups(oscal: unknown, file: string): { id: string; title: string; controls: OscalControl[] }[] {
  const catalog = isPlainObject(oscal) ? oscal.catalog : undefined;
  if (!isPlainObject(catalog) || !Array.isArray(catalog.groups))
    throw new InvalidInputError('catalog-derivation', `${file}: catalog.groups: missing; pass an OSCAL resolved-profile catalog`);
  return catalog.groups.map((g) => ({ id: String(g.id), title: String(g.title), controls: readControls(g.controls) }));
}

function readControls(raw: unknown): OscalControl[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((c) => ({ id: String(c.id), title: String(c.title), controls: readControls(c.controls) }));
}

function flatten(control: OscalControl): ControlRef[] {
  return [{ id: control.id, title: control.title }, ...control.controls.flatMap(flatten)];
}
