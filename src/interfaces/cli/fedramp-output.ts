import { basename } from 'node:path';
import type { FedrampValidation } from '../../application/fedramp/validate-fedramp-document';
import type { ListCr26KsisResult } from '../../application/fedramp/list-cr26-ksis';
import type { ListedRule, ListFedrampRulesResult } from '../../application/fedramp/list-fedramp-rules';
import type { FedrampSources } from '../../application/fedramp/show-fedramp-sources';
import type { CheckFedrampReadinessResult, ReadinessSource } from '../../application/fedramp/check-fedramp-readiness';
import type { ReadinessApart, ReadinessCounts, ReadinessItem, ReadinessStatus } from '../../domain/fedramp/readiness';
import type { EffectiveState } from '../../domain/fedramp/applicability';
import type { JudgingSchema } from '../../domain/fedramp/certification-package';
import { timeframeText } from '../../domain/fedramp/evidence-cadence';
import { missingRuleLine } from '../../domain/fedramp/relied-rules';
import { textTable } from './cql-output';
import { plural } from '../../domain/encoding/plural';

/** Rendering of `svc fedramp` answers: pure string functions over the use cases' results. */

/** The human form: a summary line, then the rules, the KSIs, and the lists apart, one aligned line each. */
export function renderRules(r: ListFedrampRulesResult): string[] {
  const p = r.profile;
  const marked = (text: string, key: 'path' | 'status') => (p.defaults.includes(key) ? `${text} (default)` : text);
  const scope = r.family === undefined ? '' : `, family ${r.family}`;
  const lines = [
    `CR26 ${r.release.version}, ${p.type} Class ${p.class}, ${marked(`${p.path} path`, 'path')}, ${marked(p.status, 'status')}, as of ${shownTime(r.now)}${scope}: ${plural(r.counts.rules, 'rule')} and ${plural(r.counts.ksis, 'KSI')} apply`,
    ...(r.missing_rules ?? []).map((m) => missingRuleLine(r.release.version, m)),
  ];
  const c = r.counts;
  const rulesHeading = [
    `${c.in_force} in force`,
    ...(c.later > 0 ? [`${c.later} required from a later date`] : []),
    ...(c.not_yet_defined > 0 ? [`${c.not_yet_defined} not yet defined for class ${p.class}`] : []),
  ];
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

/** `fedramp rules --sources` for people: the rules release, then FedRAMP's schema set, one line per schema. */
export function renderSources(r: FedrampSources): string[] {
  const rules = r.rules;
  const from = rules.file === undefined ? '' : `, from ${rules.file} (${rules.sha256})`;
  const lines = [`Rules: ${rules.title === undefined ? 'CR26' : rules.title} ${rules.version} of ${rules.date}${from}`];
  if ('note' in r.schemas) return [...lines, `Schemas: none: ${r.schemas.note}`];
  const s = r.schemas;
  lines.push(
    s.carried === undefined ? `Schemas: FedRAMP's CR26 schemas in ${s.dir}` : `Schemas: FedRAMP's CR26 schemas of ${s.carried}, carried by svc (${s.dir})`,
  );
  return [
    ...lines,
    ...textTable(
      ['Type', 'Document', '$schemaVersion', 'SHA-256', 'File'],
      s.schemas.map((x) => [x.type, x.title, x.schema_version ?? '-', x.sha256, x.file]),
    ),
  ];
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

const DETECTED: Record<FedrampValidation['detectedBy'], string> = { flag: '--type', $schema: 'from its $schema', keys: 'from its keys' };
/** Schema lines shown per rule before the rest are counted, as `oscal validate`; --json lists every one. */
const FOLD = 25;

/** `fedramp validate` for people: what it was judged by, the schema problems one per line, the verdict (as `oscal validate`). */
export function fedrampValidationText(v: FedrampValidation): string[] {
  const s = v.judgedBy.schema;
  const identity = [
    ...(s.$schemaVersion === undefined ? [] : [`$schemaVersion ${s.$schemaVersion}`]),
    s.sha256,
    ...(v.carried === undefined ? [] : [`svc's ${v.carried} set`]),
  ].join(', ');
  const lines = [`${v.file}: FedRAMP ${v.title} (${v.type}, ${DETECTED[v.detectedBy]}), judged by ${basename(v.schema)} (${identity})`];
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

/** A schema as `--json` names it: file, `$schemaVersion` and `sha256:<hex>`. */
interface SchemaJson {
  schema_version?: string;
  schema_sha256: string;
}

export type FedrampValidationJson = Omit<FedrampValidation, 'detectedBy' | 'schemaDir' | 'judgedBy' | 'carried'> &
  SchemaJson & { detected_by: FedrampValidation['detectedBy']; schema_dir: string; definitions?: { schema: string } & SchemaJson; schema_generation?: string };

/** `fedramp validate --json`: snake_case keys (docs/cli.md); the schema identified by its $schemaVersion and sha256. */
export function fedrampValidationJson({ file, type, title, detectedBy, schema, schemaDir, judgedBy, carried, ...v }: FedrampValidation): FedrampValidationJson {
  const identity = (s: JudgingSchema): SchemaJson => ({
    ...(s.$schemaVersion === undefined ? {} : { schema_version: s.$schemaVersion }),
    schema_sha256: s.sha256,
  });
  return {
    file,
    type,
    title,
    detected_by: detectedBy,
    schema,
    ...identity(judgedBy.schema),
    schema_dir: schemaDir,
    ...(judgedBy.definitions === undefined ? {} : { definitions: { schema: judgedBy.definitions.file, ...identity(judgedBy.definitions) } }),
    ...(carried === undefined ? {} : { schema_generation: carried }),
    ...v,
  };
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

const READINESS_WORDS: Record<ReadinessStatus, string> = {
  met: 'met',
  not_met: 'not met',
  needs_statement: 'needs a statement',
  not_yet_required: 'not yet required',
};

/**
 * `fedramp readiness` for people: the profile and the run judged, one table row per rule and KSI (why and what to
 * do, warnings), the Class A rules listed apart, the counts and the verdict.
 */
export function renderReadiness(r: CheckFedrampReadinessResult): string[] {
  const p = r.profile;
  const lines = [
    `Readiness of ${p.type} Class ${p.class} (${p.path}, ${p.status}) at ${r.now}, CR26 ${r.rules_version}`,
    r.run === null
      ? `Run: none recorded in ${r.store}`
      : `Run: ${r.run.seq} ${r.run.id.slice(0, 12)} as of ${r.run.as_of} (${plural(r.run.results, 'result')})`,
    ...(r.run !== null && (r.run.sources.length > 1 || r.run.sources.some((s) => s.stale !== undefined))
      ? [`Sources: ${r.run.sources.map(sourceText).join('; ')}`]
      : []),
    ...(r.missing_rules ?? []).map((m) => missingRuleLine(r.rules_version, m)),
    '',
    ...textTable(
      ['ID', 'Force', 'Status', 'Why / what to do'],
      [...r.rules, ...r.ksis].map((item) => [item.id, item.force ?? '-', READINESS_WORDS[item.status], readinessNote(item)]),
    ),
  ];
  const apart = (title: string, list: ReadinessApart[]) => {
    if (list.length === 0) return;
    lines.push('', `${title}, not judged: ${plural(list.length, 'rule')}`);
    const width = Math.max(...list.map((a) => a.id.length));
    const force = Math.max(...list.map((a) => (a.force ?? '-').length));
    for (const a of list) lines.push(`${a.id.padEnd(width)}  ${(a.force ?? '-').padEnd(force)}  ${effectiveText(a.effective)}`);
  };
  apart('Recommended for Class A (FRC-CLA-RFR)', r.recommended);
  apart('Optional for Class A (FRC-CLA-OFR)', r.optional);
  const must = r.must_not_met.length;
  lines.push(
    '',
    `Rules: ${countsText(r.counts.rules)}`,
    ...(p.type === '20x' ? [`KSIs: ${countsText(r.counts.ksis)}`] : []),
    must === 0 ? 'Result: ready: every MUST in force is met' : `Result: ${plural(must, 'MUST')} in force not met`,
  );
  return lines;
}

/** `Nessus (2 hosts) (run 2, as of <time>)`, with `, stale: VDR-TFR-MVX asks every 7 days, due <time>` once it is. */
function sourceText(s: ReadinessSource): string {
  const stale = s.stale === undefined ? '' : `, stale: ${s.stale.rule} asks every ${s.stale.every}, due ${s.stale.due}`;
  return `${s.source} (run ${s.seq}, as of ${s.as_of}${stale})`;
}

/** The table's last column: why and what to do, then the warnings. */
function readinessNote(item: ReadinessItem): string {
  return [
    ...(item.why === undefined ? [] : [item.why]),
    ...(item.todo === undefined ? [] : [`to do: ${item.todo}`]),
    ...(item.warnings ?? []).map((w) => `warning: ${w}`),
  ].join('; ');
}

function countsText(c: ReadinessCounts): string {
  return `${c.total} (met ${c.met}, not met ${c.not_met}, needs a statement ${c.needs_statement}, not yet required ${c.not_yet_required})`;
}
