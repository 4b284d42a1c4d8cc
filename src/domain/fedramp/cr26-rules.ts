import { normalizeControlId } from '../catalog/ksi-catalog';
import { InvalidInputError } from '../errors';
import { isPlainObject } from '../encoding/json-values';

/** Where a rule sits in the rules file (`FRR.<family>.data.<type>`): every certification type, 20x only or Rev5 only. */
export type Cr26RuleType = 'all' | '20x' | 'rev5';
/** A FedRAMP Certification Class. The file keys per-class variants `a`–`d`; the model writes them upper-case. */
export type Cr26Class = 'A' | 'B' | 'C' | 'D';
/** The force of a rule, as FedRAMP words it (RFC 2119 keywords). */
export type Cr26Force = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';
/** The units a timeframe is counted in; `hours` may be fractional (0.25 = 15 minutes), `bizdays` are business days. */
export type Cr26TimeUnit = 'hours' | 'days' | 'bizdays' | 'weeks' | 'months' | 'years';

export const CR26_RULE_TYPES: readonly Cr26RuleType[] = ['all', '20x', 'rev5'];
export const CR26_CLASSES: readonly Cr26Class[] = ['A', 'B', 'C', 'D'];
export const CR26_FORCES: readonly Cr26Force[] = ['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY'];
export const CR26_TIME_UNITS: readonly Cr26TimeUnit[] = ['hours', 'days', 'bizdays', 'weeks', 'months', 'years'];

/**
 * A timeframe: `num` as `timeframe_num` gives it; `min` / `max` where a release gives a range (`timeframe_num_min`,
 * `timeframe_num_max`, from 2026.09.13.02). At least one of the three is present.
 */
export interface Cr26Timeframe {
  unit: Cr26TimeUnit;
  num?: number;
  min?: number;
  max?: number;
}

/** One cell of a `pain_timeframes` table: the timeframe and the category's label (the file's `description`). */
export interface Cr26PainTimeframe extends Cr26Timeframe {
  name: string;
}

/**
 * A `pain_timeframes` table: N-rating (`"1"`–`"5"`) → category (`irv_lev`, `nirv_lev`, `nlev` in VDR-TFR-PVR;
 * `iir`, `oir`, `fir` in IEC-CSO-*) → timeframe. A rating with no timeframe maps to an empty object, as in the file.
 */
export type Cr26PainTable = Record<string, Record<string, Cr26PainTimeframe>>;

/** One cell of a `pain_timeframes` table for an N-rating and category: its `num`, else a range's `max`; undefined where the table has none. */
export function painTimeframe(table: Cr26PainTable, n: number, category: string): { unit: Cr26TimeUnit; num: number } | undefined {
  const cell = table[String(n)]?.[category];
  const num = cell?.num ?? cell?.max;
  return cell === undefined || num === undefined ? undefined : { unit: cell.unit, num };
}

/** What one Certification Class of a rule that `varies_by_class` says. */
export interface Cr26ClassRule {
  force: Cr26Force;
  timeframe?: Cr26Timeframe;
  pain_timeframes?: Cr26PainTable;
  /** The artifacts FedRAMP expects, by the file's key (`all`). */
  artifacts?: Record<string, string[]>;
  /** FRC-CSF-BSL: the Rev5 controls of the class, as the file writes them (`AC-02 (01)`), in its order. */
  rev5_controls?: string[];
  /**
   * The pilot FedRAMP's text for the class leaves the specifics to (`20x Phase 4 Pilot`, from "specifics to be set
   * during the 20x Phase 4 Pilot"): the class is not yet defined. Read from the class's statement by `deferredPilot`.
   */
  deferred_to?: string;
}

/** One rule of the FedRAMP Requirements and Recommendations (FRR). */
export interface Cr26Rule {
  id: string;
  family: string;
  subset: string;
  type: Cr26RuleType;
  name: string;
  /** The force when the rule does not vary by class. */
  force?: Cr26Force;
  timeframe?: Cr26Timeframe;
  varies_by_class?: Partial<Record<Cr26Class, Cr26ClassRule>>;
  /** Who the rule binds: `Providers`, `Agencies`, `Assessors`, `Advisors`, `FedRAMP`. */
  affects: string[];
  /** Rule and KSI ids the rule names as related. */
  related: string[];
  /** The JSON schema the rule names (`{name, url}`). */
  schema?: { name: string; url: string };
  artifacts?: Record<string, string[]>;
  /** Whom the rule says to notify, how and where (`{party, method, target, name}`: FedRAMP's form, an e-mail address). */
  notification?: Cr26Notification[];
  /**
   * The bold labels that open the rule's `following_information_bullets`, in order (`**N1**: Exploitation …` → `N1`):
   * VER-EVA-EPA's PAIN N-ratings. Absent when the rule has no bullets; a bullet without a label adds none.
   */
  bullet_labels?: string[];
}

/** One `notification` entry of a rule: the party told, the method (`form`, `email`, …), the target (a URL or address). */
export interface Cr26Notification {
  party: string;
  method: string;
  target: string;
  name?: string;
}

/** Who and what a subset of a family applies to (types `20x`/`rev5` and paths `program`/`agency` lower-cased). */
export interface Cr26Applicability {
  types: string[];
  paths: string[];
  classes: Cr26Class[];
  affects: string[];
}

/** A subset of a family (`VDR-TFR`); `type` says where the file defines it (`all`: the family's own `subsets`). */
export interface Cr26Subset {
  id: string;
  type: Cr26RuleType;
  name: string;
  applicability: Cr26Applicability;
}

/** A family's (or one type's) effective dates, YYYY-MM-DD. */
export interface Cr26Effective {
  /** `required`, or another word a release uses. */
  is: string;
  current_status?: string;
  optional_adoption?: string;
  obtain?: string;
  maintain?: string;
  grace?: string;
  /** The grace period runs until the provider's next assessment. */
  grace_until_next_assessment: boolean;
}

export interface Cr26Family {
  id: string;
  name: string;
  status?: string;
  tag?: string;
  /** `all` from the family's `effective`; `20x` / `rev5` where the family gives dates per type. */
  effective: Partial<Record<Cr26RuleType, Cr26Effective>>;
  subsets: Cr26Subset[];
}

/** What one Certification Class of a KSI that `varies_by_class` says, beyond its statement (nothing, in 2026.07.14.01). */
export interface Cr26KsiClassVariant {
  force?: Cr26Force;
  timeframe?: Cr26Timeframe;
}

/** One Key Security Indicator. */
export interface Cr26Ksi {
  id: string;
  /** The theme's short name (`IAM`). */
  theme: string;
  name: string;
  /** NIST SP 800-53 ids, lower-case (`ia-5.1`), in the file's order. */
  controls: string[];
  varies_by_class?: Partial<Record<Cr26Class, Cr26KsiClassVariant>>;
}

export interface Cr26Theme {
  /** The short name (`IAM`); the file's id is `KSI-IAM`. */
  id: string;
  name: string;
  status?: string;
}

export interface Cr26Info {
  title?: string;
  version: string;
  /** `last_updated`, YYYY-MM-DD. */
  date: string;
  /** The artifacts FedRAMP expects for every rule (`rules`) and KSI (`ksis`) that names none of its own. */
  default_artifacts: { rules: string[]; ksis: string[] };
}

/** An earlier id with no CR26 successor (DESIGN §12.1 "Aliases"). */
export interface Cr26RetiredId {
  id: string;
  kind: 'ksi' | 'rule';
  /** The newest release that lists the id, or names it as `fka`. */
  last_release: string;
  /**
   * `flagged-retired`: that release flags it (or its successor) retired; `not-in-cr26`: it (or its successor, `via`)
   * is in the newest FRMR release but not in CR26; `no-successor`: no later release lists it or names a successor.
   */
  reason: 'flagged-retired' | 'not-in-cr26' | 'no-successor';
  /** The newest id it was known by, through `fka` links, when that differs from `id`. */
  via?: string;
}

/** FedRAMP's sentences for one rule or KSI: the statement, and each class's where it varies by class. */
export interface Cr26Statement {
  text?: string;
  classes?: Partial<Record<Cr26Class, string>>;
}

/** The source file of the bundled data (the project's data file records it; an official file read at run time gets it too). */
export interface Cr26Source {
  file: string;
  version: string;
  sha256: string;
}

/**
 * The FedRAMP Consolidated Rules 2026 as svc uses them, from FedRAMP's official file (`readCr26Rules`) or from the
 * project's data file (`readCr26Data`). Lists are sorted by id. Statement sentences only when read from an official file.
 */
export interface Cr26Rules {
  source?: Cr26Source;
  info: Cr26Info;
  families: Cr26Family[];
  themes: Cr26Theme[];
  rules: Cr26Rule[];
  ksis: Cr26Ksi[];
  /** Earlier id → CR26 id. */
  aliases: Record<string, string>;
  retired: Cr26RetiredId[];
  /** Rule or KSI id → FedRAMP's sentences; only from an official file. */
  statements?: Record<string, Cr26Statement>;
}

type Fail = (path: string, problem: string) => never;

const FIX = "pass FedRAMP's consolidated rules file (fedramp-consolidated-rules.json from github.com/FedRAMP/rules)";
const FAMILY_ID = /^[A-Z0-9]+$/;
const ID = /^[A-Z0-9]+(?:-[A-Z0-9]+)+$/;
const KSI_ID = /^KSI-[A-Z0-9]+-[A-Z0-9]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads an official FedRAMP consolidated rules file (2026.07.14.01, and a newer release: unknown fields are ignored,
 * structured fields a newer release adds, such as `timeframe_num_min` / `timeframe_num_max`, are read when present).
 * A rule or KSI flagged `retired: true` is listed in `retired`, not among the rules. A malformed file is an
 * InvalidInputError `invalid-rules-file`: `<path>: <json path>: <problem>; <fix>`.
 */
export function readCr26Rules(document: unknown, path: string): Cr26Rules {
  const fail: Fail = (at, problem) => {
    throw new InvalidInputError('invalid-rules-file', `${path}: ${at}: ${problem}; ${FIX}`);
  };
  if (!isPlainObject(document)) return fail('$', 'expected a JSON object');
  const info = readInfo(document.info, fail);
  const statements: Record<string, Cr26Statement> = {};
  const retired: Cr26RetiredId[] = [];
  const seen = new Map<string, string>();
  const claim = (id: string, at: string) => {
    const first = seen.get(id);
    if (first !== undefined) fail(at, `${id} is defined twice (first at ${first})`);
    seen.set(id, at);
  };
  const families: Cr26Family[] = [];
  const rules: Cr26Rule[] = [];
  const frr = object(document.FRR, 'FRR', fail);
  for (const [familyId, value] of Object.entries(frr)) {
    const at = `FRR.${familyId}`;
    if (!FAMILY_ID.test(familyId)) fail(at, 'not a family id (upper-case letters and digits)');
    const family = readFamily(familyId, object(value, at, fail), at, fail);
    families.push(family.family);
    for (const item of family.rules) {
      claim(item.rule.id, item.at);
      if (item.retired) retired.push({ id: item.rule.id, kind: 'rule', last_release: info.version, reason: 'flagged-retired' });
      else rules.push(item.rule);
      if (item.statement) statements[item.rule.id] = item.statement;
    }
  }
  if (rules.length === 0 && retired.length === 0) fail('FRR', 'holds no rules');
  const themes: Cr26Theme[] = [];
  const ksis: Cr26Ksi[] = [];
  const ksiSection = object(document.KSI, 'KSI', fail);
  for (const [themeKey, value] of Object.entries(ksiSection)) {
    const at = `KSI.${themeKey}`;
    const theme = object(value, at, fail);
    const id = optionalString(theme.short_name, `${at}.short_name`, fail) ?? themeKey;
    themes.push(compact({ id, name: string(theme.name, `${at}.name`, fail), status: optionalString(theme.status, `${at}.status`, fail) }));
    const indicators = object(theme.indicators, `${at}.indicators`, fail);
    for (const [ksiId, item] of Object.entries(indicators)) {
      const itemAt = `${at}.indicators.${ksiId}`;
      if (!KSI_ID.test(ksiId)) fail(itemAt, 'not a KSI id (KSI-<THEME>-<ID>)');
      claim(ksiId, itemAt);
      const read = readKsi(ksiId, id, object(item, itemAt, fail), itemAt, fail);
      if (read.retired) retired.push({ id: ksiId, kind: 'ksi', last_release: info.version, reason: 'flagged-retired' });
      else ksis.push(read.ksi);
      if (read.statement) statements[ksiId] = read.statement;
    }
  }
  if (ksis.length === 0 && retired.length === 0) fail('KSI', 'holds no indicators');
  return {
    info,
    families: byId(families),
    themes: byId(themes),
    rules: byId(rules),
    ksis: byId(ksis),
    aliases: {},
    retired: byId(retired),
    statements: sortedRecord(statements),
  };
}

function readInfo(value: unknown, fail: Fail): Cr26Info {
  const info = object(value, 'info', fail);
  const defaults = info.default_artifacts === undefined ? {} : object(info.default_artifacts, 'info.default_artifacts', fail);
  return compact({
    title: optionalString(info.title, 'info.title', fail),
    version: string(info.version, 'info.version', fail),
    date: date(info.last_updated, 'info.last_updated', fail),
    default_artifacts: {
      rules: defaults.FRR === undefined ? [] : strings(defaults.FRR, 'info.default_artifacts.FRR', fail),
      ksis: defaults.KSI === undefined ? [] : strings(defaults.KSI, 'info.default_artifacts.KSI', fail),
    },
  });
}

interface ReadRule {
  rule: Cr26Rule;
  at: string;
  retired: boolean;
  statement?: Cr26Statement;
}

function readFamily(id: string, value: Record<string, unknown>, at: string, fail: Fail): { family: Cr26Family; rules: ReadRule[] } {
  const info = object(value.info, `${at}.info`, fail);
  const effective: Partial<Record<Cr26RuleType, Cr26Effective>> = {};
  const subsets: Cr26Subset[] = [];
  for (const type of CR26_RULE_TYPES) {
    const scope = type === 'all' ? info : info[type] === undefined ? undefined : object(info[type], `${at}.info.${type}`, fail);
    if (scope === undefined) continue;
    const scopeAt = type === 'all' ? `${at}.info` : `${at}.info.${type}`;
    if (scope.effective !== undefined) effective[type] = readEffective(scope.effective, `${scopeAt}.effective`, fail);
    if (scope.subsets === undefined) continue;
    for (const [subsetId, subset] of Object.entries(object(scope.subsets, `${scopeAt}.subsets`, fail))) {
      subsets.push(readSubset(subsetId, type, subset, `${scopeAt}.subsets.${subsetId}`, fail));
    }
  }
  const rules: ReadRule[] = [];
  const data = object(value.data, `${at}.data`, fail);
  for (const [typeKey, bySubset] of Object.entries(data)) {
    const typeAt = `${at}.data.${typeKey}`;
    const type = CR26_RULE_TYPES.find((t) => t === typeKey);
    if (type === undefined) return fail(typeAt, `unknown rule type "${typeKey}"; expected ${CR26_RULE_TYPES.join(', ')}`);
    for (const [subsetId, byId] of Object.entries(object(bySubset, typeAt, fail))) {
      const subsetAt = `${typeAt}.${subsetId}`;
      if (!subsets.some((s) => s.id === subsetId && (s.type === type || s.type === 'all')))
        fail(subsetAt, `subset ${subsetId} is not defined in ${at}.info.subsets${type === 'all' ? '' : ` or ${at}.info.${type}.subsets`}`);
      for (const [ruleId, rule] of Object.entries(object(byId, subsetAt, fail))) {
        const ruleAt = `${subsetAt}.${ruleId}`;
        if (!ID.test(ruleId)) fail(ruleAt, 'not a rule id (like VDR-TFR-PVR)');
        rules.push({ ...readRule(ruleId, id, subsetId, type, object(rule, ruleAt, fail), ruleAt, fail), at: ruleAt });
      }
    }
  }
  const family = compact({
    id,
    name: string(info.name, `${at}.info.name`, fail),
    status: optionalString(info.status, `${at}.info.status`, fail),
    tag: optionalString(info.tag, `${at}.info.tag`, fail),
    effective,
    subsets: subsets.sort((a, b) => compare(a.id, b.id) || compare(a.type, b.type)),
  });
  return { family, rules };
}

function readEffective(value: unknown, at: string, fail: Fail): Cr26Effective {
  const effective = object(value, at, fail);
  const dates = effective.date === undefined ? {} : object(effective.date, `${at}.date`, fail);
  const grace = dates.grace === undefined ? {} : object(dates.grace, `${at}.date.grace`, fail);
  const optionalDate = (v: unknown, p: string) => (v === undefined ? undefined : date(v, p, fail));
  if (grace.until_next_assessment !== undefined && typeof grace.until_next_assessment !== 'boolean')
    fail(`${at}.date.grace.until_next_assessment`, 'expected true or false');
  return compact({
    is: string(effective.is, `${at}.is`, fail),
    current_status: optionalString(effective.current_status, `${at}.current_status`, fail),
    optional_adoption: optionalDate(dates.optional_adoption, `${at}.date.optional_adoption`),
    obtain: optionalDate(dates.obtain, `${at}.date.obtain`),
    maintain: optionalDate(dates.maintain, `${at}.date.maintain`),
    grace: optionalDate(grace.default, `${at}.date.grace.default`),
    grace_until_next_assessment: grace.until_next_assessment === true,
  });
}

function readSubset(id: string, type: Cr26RuleType, value: unknown, at: string, fail: Fail): Cr26Subset {
  const subset = object(value, at, fail);
  const applicability = object(subset.applicability, `${at}.applicability`, fail);
  const classes = strings(applicability.classes, `${at}.applicability.classes`, fail).map((c, i) => classOf(c, `${at}.applicability.classes[${i}]`, fail));
  return {
    id,
    type,
    name: string(subset.name, `${at}.name`, fail),
    applicability: {
      types: strings(applicability.types, `${at}.applicability.types`, fail).map((t) => t.toLowerCase()),
      paths: strings(applicability.paths, `${at}.applicability.paths`, fail).map((p) => p.toLowerCase()),
      classes,
      affects: strings(applicability.affects, `${at}.applicability.affects`, fail),
    },
  };
}

function readRule(id: string, family: string, subset: string, type: Cr26RuleType, rule: Record<string, unknown>, at: string, fail: Fail): Omit<ReadRule, 'at'> {
  const statement: Cr26Statement = {};
  if (rule.statement !== undefined) statement.text = string(rule.statement, `${at}.statement`, fail);
  let classes: Partial<Record<Cr26Class, Cr26ClassRule>> | undefined;
  if (rule.varies_by_class !== undefined) {
    classes = {};
    for (const [key, value] of Object.entries(object(rule.varies_by_class, `${at}.varies_by_class`, fail))) {
      const classAt = `${at}.varies_by_class.${key}`;
      const cls = classOf(key, classAt, fail);
      const variant = object(value, classAt, fail);
      if (variant.statement !== undefined) (statement.classes ??= {})[cls] = string(variant.statement, `${classAt}.statement`, fail);
      classes[cls] = compact({
        force: force(variant.force, `${classAt}.force`, fail),
        timeframe: timeframe(variant, classAt, fail),
        pain_timeframes: variant.pain_timeframes === undefined ? undefined : painTable(variant.pain_timeframes, `${classAt}.pain_timeframes`, fail),
        artifacts: artifacts(variant.artifacts, `${classAt}.artifacts`, fail),
        rev5_controls: variant.rev5_controls_list === undefined ? undefined : rev5Controls(variant.rev5_controls_list, `${classAt}.rev5_controls_list`, fail),
        deferred_to: statement.classes?.[cls] === undefined ? undefined : deferredPilot(statement.classes[cls]),
      });
    }
    if (Object.keys(classes).length === 0) fail(`${at}.varies_by_class`, 'names no class');
  }
  const schema = rule.schema === undefined ? undefined : object(rule.schema, `${at}.schema`, fail);
  const read: Cr26Rule = compact({
    id,
    family,
    subset,
    type,
    name: string(rule.name, `${at}.name`, fail),
    force: classes !== undefined && rule.force === undefined ? undefined : force(rule.force, `${at}.force`, fail),
    timeframe: timeframe(rule, at, fail),
    varies_by_class: classes === undefined ? undefined : sortedRecord(classes),
    affects: rule.affects === undefined ? [] : strings(rule.affects, `${at}.affects`, fail),
    related: rule.related === undefined ? [] : strings(rule.related, `${at}.related`, fail),
    schema: schema === undefined ? undefined : { name: string(schema.name, `${at}.schema.name`, fail), url: string(schema.url, `${at}.schema.url`, fail) },
    artifacts: artifacts(rule.artifacts, `${at}.artifacts`, fail),
    notification: rule.notification === undefined ? undefined : notifications(rule.notification, `${at}.notification`, fail),
    bullet_labels: rule.following_information_bullets === undefined ? undefined : bulletLabels(rule.following_information_bullets),
  });
  return compact({
    rule: read,
    retired: rule.retired === true,
    statement: statement.text === undefined && statement.classes === undefined ? undefined : statement,
  });
}

function readKsi(
  id: string,
  theme: string,
  item: Record<string, unknown>,
  at: string,
  fail: Fail,
): { ksi: Cr26Ksi; retired: boolean; statement?: Cr26Statement } {
  const statement: Cr26Statement = {};
  if (item.statement !== undefined) statement.text = string(item.statement, `${at}.statement`, fail);
  const controls: string[] = [];
  strings(item.controls, `${at}.controls`, fail).forEach((raw, i) => {
    const control = normalizeControlId(raw);
    if (control === undefined) fail(`${at}.controls[${i}]`, `"${raw}" is not a NIST SP 800-53 control id`);
    else if (!controls.includes(control)) controls.push(control);
  });
  let classes: Partial<Record<Cr26Class, Cr26KsiClassVariant>> | undefined;
  if (item.varies_by_class !== undefined) {
    classes = {};
    for (const [key, value] of Object.entries(object(item.varies_by_class, `${at}.varies_by_class`, fail))) {
      const classAt = `${at}.varies_by_class.${key}`;
      const cls = classOf(key, classAt, fail);
      const variant = object(value, classAt, fail);
      if (variant.statement !== undefined) (statement.classes ??= {})[cls] = string(variant.statement, `${classAt}.statement`, fail);
      classes[cls] = compact({
        force: variant.force === undefined ? undefined : force(variant.force, `${classAt}.force`, fail),
        timeframe: timeframe(variant, classAt, fail),
      });
    }
  }
  const ksi: Cr26Ksi = compact({
    id,
    theme,
    name: string(item.name, `${at}.name`, fail),
    controls,
    varies_by_class: classes === undefined ? undefined : sortedRecord(classes),
  });
  return compact({ ksi, retired: item.retired === true, statement: statement.text === undefined && statement.classes === undefined ? undefined : statement });
}

const DEFERRED = /\bto be (?:set|defined|determined|decided) (?:during|in|by|through) (?:the )?((?:[\w.-]+ ){0,4}Pilot)\b/i;

/**
 * The pilot a statement leaves the specifics to ("… with specifics to be set during the 20x Phase 4 Pilot." →
 * `20x Phase 4 Pilot`), or undefined. A mere mention of a pilot ("an exception for a limited pilot") is no deferral.
 */
export function deferredPilot(statement: string): string | undefined {
  return DEFERRED.exec(statement)?.[1];
}

/** `timeframe_type` with `timeframe_num` and/or `timeframe_num_min` / `timeframe_num_max`; undefined when none is there. */
function timeframe(holder: Record<string, unknown>, at: string, fail: Fail): Cr26Timeframe | undefined {
  const { timeframe_type: type, timeframe_num: num, timeframe_num_min: min, timeframe_num_max: max } = holder;
  if (type === undefined && num === undefined && min === undefined && max === undefined) return undefined;
  const unit = CR26_TIME_UNITS.find((u) => u === type);
  if (unit === undefined)
    return fail(
      `${at}.timeframe_type`,
      `${type === undefined ? 'missing' : `unknown unit ${JSON.stringify(type)}`}; expected one of ${CR26_TIME_UNITS.join(', ')}`,
    );
  const number = (v: unknown, name: string) => {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return fail(`${at}.${name}`, `expected a number of at least 0, found ${JSON.stringify(v)}`);
    return v;
  };
  const read = compact({ unit, num: number(num, 'timeframe_num'), min: number(min, 'timeframe_num_min'), max: number(max, 'timeframe_num_max') });
  if (read.num === undefined && read.min === undefined && read.max === undefined) fail(`${at}.timeframe_num`, `missing: ${unit} with no number`);
  if (read.min !== undefined && read.max !== undefined && read.min > read.max)
    fail(`${at}.timeframe_num_min`, `${read.min} is more than timeframe_num_max ${read.max}`);
  return read;
}

function painTable(value: unknown, at: string, fail: Fail): Cr26PainTable {
  const table: Cr26PainTable = {};
  for (const [rating, byCategory] of Object.entries(object(value, at, fail))) {
    if (!/^\d+$/.test(rating)) fail(`${at}.${rating}`, 'not an N-rating (a whole number)');
    const row: Record<string, Cr26PainTimeframe> = {};
    for (const [category, cell] of Object.entries(object(byCategory, `${at}.${rating}`, fail))) {
      const cellAt = `${at}.${rating}.${category}`;
      const fields = object(cell, cellAt, fail);
      const read = timeframe(fields, cellAt, fail);
      if (read === undefined) return fail(`${cellAt}.timeframe_type`, 'missing: a pain timeframe needs timeframe_type and timeframe_num');
      row[category] = { ...read, name: string(fields.description, `${cellAt}.description`, fail) };
    }
    table[rating] = sortedRecord(row);
  }
  return sortedRecord(table);
}

function artifacts(value: unknown, at: string, fail: Fail): Record<string, string[]> | undefined {
  if (value === undefined) return undefined;
  const read: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(object(value, at, fail))) read[key] = strings(list, `${at}.${key}`, fail);
  return sortedRecord(read);
}

function notifications(value: unknown, at: string, fail: Fail): Cr26Notification[] {
  if (!Array.isArray(value)) return fail(at, 'expected a list of {party, method, target}');
  return value.map((entry, i) => {
    const o = object(entry, `${at}[${i}]`, fail);
    return compact({
      party: string(o.party, `${at}[${i}].party`, fail),
      method: string(o.method, `${at}[${i}].method`, fail),
      target: string(o.target, `${at}[${i}].target`, fail),
      name: o.name === undefined ? undefined : string(o.name, `${at}[${i}].name`, fail),
    }) as Cr26Notification;
  });
}

/**
 * The `**label**` that opens each bullet (`**N0**: …` → `N0`), for the bullets that have one. Lenient: bullets are
 * prose, so what is not a list of strings gives no labels (whoever reads them says so) rather than refusing the file.
 */
function bulletLabels(value: unknown): string[] {
  return (Array.isArray(value) ? value : []).flatMap((bullet) => {
    const label = typeof bullet === 'string' ? /^\s*\*\*([^*]+?)\*\*/.exec(bullet)?.[1]?.trim() : undefined;
    return label === undefined || label === '' ? [] : [label];
  });
}

/** FRC-CSF-BSL's `rev5_controls_list`: NIST family → control ids; flattened in the file's order. */
function rev5Controls(value: unknown, at: string, fail: Fail): string[] {
  return Object.entries(object(value, at, fail)).flatMap(([family, list]) => strings(list, `${at}.${family}`, fail));
}

function force(value: unknown, at: string, fail: Fail): Cr26Force {
  const found = CR26_FORCES.find((f) => f === value);
  return found ?? fail(at, `${value === undefined ? 'missing' : `unknown force ${JSON.stringify(value)}`}; expected one of ${CR26_FORCES.join(', ')}`);
}

function classOf(value: string, at: string, fail: Fail): Cr26Class {
  const found = CR26_CLASSES.find((c) => c === value.toUpperCase());
  return found ?? fail(at, `unknown class "${value}"; expected one of ${CR26_CLASSES.join(', ')}`);
}

function object(value: unknown, at: string, fail: Fail): Record<string, unknown> {
  return isPlainObject(value) ? value : fail(at, value === undefined ? 'missing; expected an object' : `expected an object, found ${kindOf(value)}`);
}

function string(value: unknown, at: string, fail: Fail): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  return fail(at, value === undefined ? 'missing; expected a string' : `expected a non-empty string, found ${kindOf(value)}`);
}

function optionalString(value: unknown, at: string, fail: Fail): string | undefined {
  return value === undefined ? undefined : string(value, at, fail);
}

function strings(value: unknown, at: string, fail: Fail): string[] {
  if (!Array.isArray(value))
    return fail(at, value === undefined ? 'missing; expected an array of strings' : `expected an array of strings, found ${kindOf(value)}`);
  return value.map((v, i) => string(v, `${at}[${i}]`, fail));
}

function date(value: unknown, at: string, fail: Fail): string {
  const text = string(value, at, fail);
  return DATE.test(text) ? text : fail(at, `"${text}" is not a date (YYYY-MM-DD)`);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** The object without its undefined fields (so a model read back from JSON equals the one read from the file). */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byId<T extends { id: string }>(list: T[]): T[] {
  return list.sort((a, b) => compare(a.id, b.id));
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)));
}
