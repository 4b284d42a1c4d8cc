import type { Cr26Rules } from './cr26-rules';

/** What `svc canon check` proves about the CR26 rules in use, with their counts. */
export interface Cr26Consistency {
  ok: boolean;
  counts: { rules: number; families: number; subsets: number; ksis: number; themes: number; aliases: number; retired: number };
  problems: string[];
}

/**
 * The CR26 rules hang together: ids unique (rules, KSIs, families, themes, subsets within a family and type), every
 * KSI in a known theme and every theme with a KSI, every rule in a known family and in a subset defined for its type,
 * every `related` id a rule or KSI, every alias target a rule or KSI, no alias or retired id that is current.
 */
export function checkCr26Consistency(rules: Cr26Rules): Cr26Consistency {
  const problems: string[] = [];
  const duplicates = (what: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${what} ${id} is listed twice`);
      seen.add(id);
    }
  };
  duplicates('rule or KSI', [...rules.rules.map((r) => r.id), ...rules.ksis.map((k) => k.id)]);
  duplicates(
    'family',
    rules.families.map((f) => f.id),
  );
  duplicates(
    'theme',
    rules.themes.map((t) => t.id),
  );
  for (const family of rules.families)
    duplicates(
      `${family.id} subset`,
      family.subsets.map((s) => `${s.id} (${s.type})`),
    );
  const themes = new Set(rules.themes.map((t) => t.id));
  for (const ksi of rules.ksis) if (!themes.has(ksi.theme)) problems.push(`${ksi.id}: theme ${ksi.theme} is not a theme of the file`);
  for (const theme of rules.themes) if (!rules.ksis.some((k) => k.theme === theme.id)) problems.push(`theme ${theme.id} has no KSI`);
  const families = new Map(rules.families.map((f) => [f.id, f]));
  const current = new Set([...rules.rules.map((r) => r.id), ...rules.ksis.map((k) => k.id)]);
  for (const rule of rules.rules) {
    const family = families.get(rule.family);
    if (family === undefined) problems.push(`${rule.id}: family ${rule.family} is not a family of the file`);
    else if (!family.subsets.some((s) => s.id === rule.subset && (s.type === rule.type || s.type === 'all')))
      problems.push(`${rule.id}: subset ${rule.family}-${rule.subset} is not defined for ${rule.type}`);
    if (rule.force === undefined && rule.varies_by_class === undefined) problems.push(`${rule.id}: neither a force nor a per-class force`);
    for (const id of rule.related) if (!current.has(id)) problems.push(`${rule.id}: related ${id} is not a rule or KSI`);
  }
  for (const [from, to] of Object.entries(rules.aliases)) {
    if (!current.has(to)) problems.push(`alias ${from} -> ${to}: ${to} is not a rule or KSI`);
    if (current.has(from)) problems.push(`alias ${from} -> ${to}: ${from} is itself a current id`);
  }
  for (const entry of rules.retired) {
    if (current.has(entry.id)) problems.push(`retired ${entry.id} is a current id`);
    if (rules.aliases[entry.id] !== undefined) problems.push(`retired ${entry.id} also has an alias`);
  }
  const counts = {
    rules: rules.rules.length,
    families: rules.families.length,
    subsets: rules.families.reduce((n, f) => n + f.subsets.length, 0),
    ksis: rules.ksis.length,
    themes: rules.themes.length,
    aliases: Object.keys(rules.aliases).length,
    retired: rules.retired.length,
  };
  return { ok: problems.length === 0, counts, problems };
}
