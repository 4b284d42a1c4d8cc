import { readFrmrRelease } from '../catalog/frmr-release';
import { isPlainObject } from '../encoding/json-values';
import type { Cr26RetiredId, Cr26Rules } from './cr26-rules';

/** One id a FedRAMP FRMR release lists, with the id it says it was formerly known as. */
export interface AliasItem {
  id: string;
  fka?: string;
  retired: boolean;
}

/** The ids of one FRMR release (KSIs of any layout; rules of the 0.9.x `FRR` section), for deriving aliases. */
export interface AliasSource {
  release: string;
  ksis: AliasItem[];
  rules: AliasItem[];
}

/** The aliases part of the model: earlier id → CR26 id, and the earlier ids CR26 has no successor for. */
export type Cr26Aliases = Pick<Cr26Rules, 'aliases' | 'retired'>;

const RULE_ID = /^[A-Z0-9]+(?:-[A-Z0-9]+)+$/;

/**
 * The ids a FedRAMP FRMR file lists: its KSIs (read by readFrmrRelease, so every published layout) and, in a 0.9.x
 * file, its rules (`FRR.<family>.data.<type>.<subset>.<id>`, with `fka`). Throws what readFrmrRelease throws.
 */
export function readAliasSource(document: unknown, file: string): AliasSource {
  const release = readFrmrRelease(document, file);
  const rules: AliasItem[] = [];
  const frr = isPlainObject(document) && isPlainObject(document.FRR) ? document.FRR : {};
  for (const family of Object.values(frr)) {
    if (!isPlainObject(family) || !isPlainObject(family.data)) continue;
    for (const byType of Object.values(family.data)) {
      if (!isPlainObject(byType)) continue;
      for (const bySubset of Object.values(byType)) {
        if (!isPlainObject(bySubset)) continue;
        for (const [id, rule] of Object.entries(bySubset)) {
          if (!RULE_ID.test(id) || !isPlainObject(rule)) continue;
          rules.push({ id, ...(typeof rule.fka === 'string' ? { fka: rule.fka } : {}), retired: rule.retired === true });
        }
      }
    }
  }
  return { release: release.id, ksis: release.ksis.map((k) => ({ id: k.id, ...(k.fka ? { fka: k.fka } : {}), retired: k.retired })), rules };
}

/**
 * DESIGN §12.1 "Aliases": every id the FRMR releases list (oldest first; the last one is the newest, 0.9.43-beta)
 * that CR26 does not: an `fka` link (numeric id → 0.9.x mnemonic) followed to a CR26 id makes an alias; otherwise
 * the id is retired, with the reason. A link counts only when the old id is no longer listed in the release that
 * names it (0.9.43-beta's ADS-CSL-UTC names ADS-CSX-UTC, which that release still lists: a copy, not a rename).
 */
export function deriveCr26Aliases(sources: readonly AliasSource[], rules: Pick<Cr26Rules, 'rules' | 'ksis'>): Cr26Aliases {
  const current = new Set([...rules.rules.map((r) => r.id), ...rules.ksis.map((k) => k.id)]);
  const known = new Map<string, { kind: Cr26RetiredId['kind']; last_release: string; retired: boolean }>();
  const successor = new Map<string, string>();
  const newest = sources[sources.length - 1]?.release;
  for (const source of sources) {
    const listed = new Set([...source.ksis, ...source.rules].map((i) => i.id));
    for (const [kind, items] of [
      ['ksi', source.ksis],
      ['rule', source.rules],
    ] as const) {
      for (const item of items) known.set(item.id, { kind, last_release: source.release, retired: item.retired });
    }
    for (const [kind, items] of [
      ['ksi', source.ksis],
      ['rule', source.rules],
    ] as const) {
      for (const item of items) {
        if (item.fka === undefined || item.fka === item.id || listed.has(item.fka)) continue;
        successor.set(item.fka, item.id);
        if (!known.has(item.fka)) known.set(item.fka, { kind, last_release: source.release, retired: false });
      }
    }
  }
  const aliases: Record<string, string> = {};
  const retired: Cr26RetiredId[] = [];
  for (const id of [...known.keys()].sort()) {
    if (current.has(id)) continue;
    let end = id;
    const visited = new Set([id]);
    for (let next = successor.get(end); next !== undefined && !visited.has(next) && !current.has(end); next = successor.get(end)) {
      visited.add(next);
      end = next;
    }
    if (current.has(end)) {
      aliases[id] = end;
      continue;
    }
    const own = known.get(id)!;
    const last = known.get(end)!;
    const reason = last.retired ? 'flagged-retired' : last.last_release === newest ? 'not-in-cr26' : 'no-successor';
    retired.push({ id, kind: own.kind, last_release: own.last_release, reason, ...(end !== id ? { via: end } : {}) });
  }
  return { aliases, retired };
}

/**
 * Another CR26 release (an official file read at run time) with the aliases derived for the bundled one: an alias
 * whose target the release no longer lists becomes retired (`not-in-cr26`, via that target, last listed in the bundled
 * release); an alias or retired id the release lists again is dropped, and a retired id whose successor (`via`) the
 * release lists again becomes an alias of it. Ids the release itself flags retired stay.
 */
export function withAliases(rules: Cr26Rules, bundled: Pick<Cr26Rules, 'aliases' | 'retired' | 'ksis' | 'info'>): Cr26Rules {
  const current = new Set([...rules.rules.map((r) => r.id), ...rules.ksis.map((k) => k.id)]);
  const aliases: Record<string, string> = {};
  const retired = new Map(rules.retired.map((r) => [r.id, r]));
  const bundledKsis = new Set(bundled.ksis.map((k) => k.id));
  for (const [from, to] of Object.entries(bundled.aliases)) {
    if (current.has(from) || retired.has(from)) continue;
    if (current.has(to)) aliases[from] = to;
    else retired.set(from, { id: from, kind: bundledKsis.has(to) ? 'ksi' : 'rule', last_release: bundled.info.version, reason: 'not-in-cr26', via: to });
  }
  for (const entry of bundled.retired) {
    if (current.has(entry.id) || retired.has(entry.id)) continue;
    if (entry.via !== undefined && current.has(entry.via)) aliases[entry.id] = entry.via;
    else retired.set(entry.id, entry);
  }
  const ids = (record: Record<string, unknown> | Map<string, unknown>) => [...(record instanceof Map ? record.keys() : Object.keys(record))].sort();
  return {
    ...rules,
    aliases: Object.fromEntries(ids(aliases).map((id) => [id, aliases[id]])),
    retired: ids(retired).map((id) => retired.get(id)!),
  };
}

/** The CR26 id an earlier id stands for, the id itself when CR26 lists it, or undefined (retired or unknown). */
export function resolveCr26Id(rules: Cr26Rules, id: string): string | undefined {
  if (rules.rules.some((r) => r.id === id) || rules.ksis.some((k) => k.id === id)) return id;
  return rules.aliases[id];
}

/** One line saying why an earlier id has no CR26 successor, for listings and errors. */
export function describeRetired(entry: Cr26RetiredId, version: string): string {
  const via = entry.via === undefined ? '' : `, then known as ${entry.via}`;
  if (entry.reason === 'flagged-retired') return `${entry.id}: last listed in ${entry.last_release}${via}, flagged retired`;
  if (entry.reason === 'not-in-cr26') return `${entry.id}: last listed in ${entry.last_release}${via}; not in CR26 ${version}`;
  return `${entry.id}: last listed in ${entry.last_release}${via}; no later release names a successor`;
}
