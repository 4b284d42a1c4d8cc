import { basename } from 'node:path';
import type { FedrampValidation } from '../../application/fedramp/validate-fedramp-document';
import type { ListCr26KsisResult } from '../../application/fedramp/list-cr26-ksis';
import type { ListedRule, ListFedrampRulesResult } from '../../application/fedramp/list-fedramp-rules';
import type { EffectiveState } from '../../domain/fedramp/applicability';
import { timeframeText } from '../../domain/fedramp/evidence-cadence';

/** Rendering of `svc fedramp` answers: pure string functions over the use cases' results. */

/** The human form: a summary line, then the rules, the KSIs, and the lists apart, one aligned line each. */
export function renderRules(r: ListFedrampRulesResult): string[] {
  const p = r.profile;
  const marked = (text: string, key: 'path' | 'status') => (p.defaults.includes(key) ? `${text} (default)` : text);
  const scope = r.family === undefined ? '' : `, family ${r.family}`;
  const lines = [
    `CR26 ${r.release.version}, ${p.type} Class ${p.class}, ${marked(`${p.path} path`, 'path')}, ${marked(p.status, 'status')}, as of ${shownTime(r.now)}${scope}: ${plural(r.counts.rules, 'rule')} and ${plural(r.counts.ksis, 'KSI')} apply`,
  ];
  const c = r.counts;
  const rulesHeading = [`${c.in_force} in force`, ...(c.later > 0 ? [`${c.later} required from a later date`] : []), ...(c.not_yet_defined > 0 ? [`${c.not_yet_defined} not yet defined for class ${p.class}`] : [])];
  if (r.rules.length > 0) lines.push('', `Rules: ${rulesHeading.join(', ')}`, ...ruleTable(r.rules));
  if (r.ksis.length > 0) {
    lines.push('', `KSIs: ${r.ksis.length}, in force for ${p.type}${r.ksis[0].via === 'type' ? '' : ` (named by ${r.ksis[0].via})`}`);
    const width = Math.max(...r.ksis.map((k) => k.id.length));
    for (const k of r.ksis) lines.push(`${k.id.padEnd(width)}  ${k.name}`);
  }
  if (r.recommended.length > 0) lines.push('', `Recommended for Class A (SHOULD, FRC-CLA-RFR): ${r.recommended.length}`, ...ruleTable(r.recommended));
  if (r.optional.length > 0) lines.push('', `Optional for Class A (MAY, FRC-CLA-OFR): ${r.optional.length}`, ...ruleTable(r.optional));
  if (r.apart.length > 0) {
    lines.push('', `Listed apart, not judged: ${plural(r.apart.length, 'rule')} for agencies, assessors, advisors or FedRAMP`);
    const id = Math.max(...r.apart.map((a) => a.id.length));
    const who = Math.max(...r.apart.map((a) => a.affects.join(', ').length));
    for (const a of r.apart) lines.push(`${a.id.padEnd(id)}  ${a.affects.join(', ').padEnd(who)}  ${a.name}`);
  }
  return lines;
}

function ruleTable(rules: ListedRule[]): string[] {
  const rows = rules.map((r) => [r.id, r.force ?? '-', r.by_rating ? 'by N-rating' : timeframeText(r.timeframe), effectiveText(r.effective), r.name]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => [...widths.map((w, i) => row[i].padEnd(w)), row[4]].join('  '));
}

/** `in force`, `in force, grace until <date>`, `required from <date>`, `not yet defined for class D (20x Phase 4 Pilot)`. */
export function effectiveText(e: EffectiveState): string {
  if (e.state === 'in_force') return e.grace_until === undefined ? 'in force' : `in force, grace until ${e.grace_until}`;
  if (e.state === 'required_from') return `required from ${e.date}`;
  return `not yet defined for class ${e.class}${e.pilot === undefined ? '' : ` (${e.pilot})`}`;
}

/** The date alone at midnight UTC, else the time as given (to the second). */
function shownTime(iso: string): string {
  return iso.endsWith('T00:00:00Z') ? iso.slice(0, 10) : iso;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const DETECTED: Record<FedrampValidation['detectedBy'], string> = { flag: '--type', $schema: 'from its $schema', keys: 'from its keys' };
/** Schema lines shown per rule before the rest are counted, as `oscal validate`; --json lists every one. */
const FOLD = 25;

/** `fedramp validate` for people: what it was judged by, the schema problems one per line, the verdict (as `oscal validate`). */
export function fedrampValidationText(v: FedrampValidation): string[] {
  const lines = [`${v.file}: FedRAMP ${v.title} (${v.type}, ${DETECTED[v.detectedBy]}), judged by ${basename(v.schema)}`];
  if (v.problems.length > 0) {
    lines.push(`Schema (${plural(v.errors, 'error')}):`);
    const shown = new Map<string, number>();
    for (const p of v.problems) {
      const n = (shown.get(p.rule) ?? 0) + 1;
      shown.set(p.rule, n);
      if (n <= FOLD) lines.push(`  ${p.path}: ${p.message}`);
    }
    for (const [rule, n] of shown) if (n > FOLD) lines.push(`  ... and ${n - FOLD} more [${rule}] (--json lists every one)`);
  }
  lines.push(v.valid ? 'Valid' : `Invalid: ${plural(v.errors, 'error')}`);
  return lines;
}

export type FedrampValidationJson = Omit<FedrampValidation, 'detectedBy' | 'schemaDir'> & { detected_by: FedrampValidation['detectedBy']; schema_dir: string };

/** `fedramp validate --json`: snake_case keys (docs/cli.md). */
export function fedrampValidationJson({ file, type, title, detectedBy, schema, schemaDir, ...v }: FedrampValidation): FedrampValidationJson {
  return { file, type, title, detected_by: detectedBy, schema, schema_dir: schemaDir, ...v };
}

/** `ksi list --catalog cr26` for people: a line naming the release and the counts, then the KSIs under their themes. */
export function renderCr26Ksis(r: ListCr26KsisResult): string[] {
  const c = r.counts;
  const filtered = c.matched !== c.ksis;
  const lines = [
    filtered
      ? `CR26 ${r.release.version}: ${c.matched} of ${plural(c.ksis, 'KSI')} match${c.matched > 0 ? `, in ${plural(r.themes.length, 'theme')}` : ''}`
      : `CR26 ${r.release.version}: ${plural(c.ksis, 'KSI')} in ${plural(c.themes, 'theme')}`,
  ];
  const width = Math.max(0, ...r.ksis.map((k) => k.id.length));
  for (const theme of r.themes) {
    const ksis = r.ksis.filter((k) => k.theme === theme.id);
    lines.push('', `${theme.id} ${theme.name}: ${plural(ksis.length, 'KSI')}`);
    for (const k of ksis) lines.push(`${k.id.padEnd(width)}  ${k.name} [${k.controls.join(', ')}]`);
  }
  return lines;
}
