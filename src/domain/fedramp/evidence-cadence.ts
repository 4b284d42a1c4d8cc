import { InvalidInputError } from '../errors';
import type { EvidenceKind } from '../ksi/ksi-result';
import { CR26_CLASSES, type Cr26Class, type Cr26Force, type Cr26Rules, type Cr26Timeframe, type Cr26TimeUnit } from './cr26-rules';
import type { FedrampType } from './profile';
import { proseFact } from './prose-facts';
import { holdsRule, reliedRule } from './relied-rules';

/** The rule that gives machine-based evidence its cadence, per certification type (DESIGN §12.1). */
export const MACHINE_CADENCE_RULES: Record<FedrampType, string> = { '20x': reliedRule('VDR-TFR-MVX'), rev5: reliedRule('VDR-TFR-MVF') };
/** The rule that gives non-machine evidence (policies, procedures, training records) its cadence, for every type. */
export const NON_MACHINE_CADENCE_RULE = reliedRule('VDR-TFR-NMV');

/** How often evidence of one kind must be verified and validated, for one type and class, and where that comes from. */
export interface EvidenceCadence {
  kind: EvidenceKind;
  rule: string;
  force: Cr26Force;
  /** `{unit, num}`, from the rules data, or from PROSE_FACTS where the data has no timeframe (VDR-TFR-NMV). */
  every: { unit: Cr26TimeUnit; num: number };
  /** The class whose value is used, when the rule gives none for the profile's class (20x Class D: Class C's). */
  from_class?: Cr26Class;
  /** The timeframe is a prose fact (src/domain/fedramp/prose-facts.ts), not a field of the data. */
  prose?: true;
}

/**
 * The cadence of `kind` evidence for a `type` / `cls` profile, read from the rules data: machine-based evidence by
 * VDR-TFR-MVX (20x) or VDR-TFR-MVF (Rev5), the class's force and timeframe; non-machine evidence by VDR-TFR-NMV, whose
 * 3 months is a prose fact. Where a rule that varies by class gives nothing for `cls` (20x Class D in 2026.07.14.01),
 * the nearest lower class that gives a timeframe is used, and `from_class` says which (docs/decisions.md). A rule
 * missing from the release, or giving no timeframe for the class or any lower one, is an InvalidInputError.
 */
export function evidenceCadence(rules: Pick<Cr26Rules, 'rules' | 'info'>, type: FedrampType, cls: Cr26Class, kind: EvidenceKind): EvidenceCadence {
  const id = kind === 'machine' ? MACHINE_CADENCE_RULES[type] : NON_MACHINE_CADENCE_RULE;
  const rule = rules.rules.find((r) => r.id === id);
  const none = (what: string): never => {
    throw new InvalidInputError(
      'no-cadence',
      `CR26 ${rules.info.version}: ${what}, so svc cannot judge ${kind === 'machine' ? 'machine-based' : 'non-machine'} evidence for ${type} Class ${cls}; use another --class or --type, or a release that gives it (SVC_FEDRAMP_RULES)`,
    );
  };
  if (rule === undefined) return none(`no rule ${id}`);
  if (rule.varies_by_class !== undefined) {
    const lower = CR26_CLASSES.slice(0, CR26_CLASSES.indexOf(cls) + 1).reverse();
    for (const c of lower) {
      const variant = rule.varies_by_class[c];
      const every = variant?.deferred_to === undefined ? fixed(variant?.timeframe) : undefined;
      if (variant !== undefined && every !== undefined) return { kind, rule: id, force: variant.force, every, ...(c === cls ? {} : { from_class: c }) };
    }
    return none(`${id} gives no timeframe for Class ${cls}`);
  }
  const force = rule.force;
  if (force === undefined) return none(`${id} gives no force`);
  const every = fixed(rule.timeframe);
  if (every !== undefined) return { kind, rule: id, force, every };
  const fact = proseFact(id, cls);
  if (fact?.unit === 'cadence-months') return { kind, rule: id, force, every: { unit: 'months', num: fact.value }, prose: true };
  return none(`${id} gives no timeframe`);
}

/** The rule that gives `kind` evidence its cadence for `type`. */
export function cadenceRule(type: FedrampType, kind: EvidenceKind): string {
  return kind === 'machine' ? MACHINE_CADENCE_RULES[type] : NON_MACHINE_CADENCE_RULE;
}

/**
 * The cadence evidenceCadence reads, or undefined when the release does not hold the cadence rule: then that kind of
 * evidence is not judged for freshness (readiness, the SDR and the package say so by missingReliedRules; issue 34).
 * A rule the release holds that gives no usable timeframe is still evidenceCadence's error.
 */
export function heldCadence(rules: Pick<Cr26Rules, 'rules' | 'info'>, type: FedrampType, cls: Cr26Class, kind: EvidenceKind): EvidenceCadence | undefined {
  return holdsRule(rules, cadenceRule(type, kind)) ? evidenceCadence(rules, type, cls, kind) : undefined;
}

/** One number of a timeframe: `num`, else the longest of a range. */
function fixed(t: Cr26Timeframe | undefined): { unit: Cr26TimeUnit; num: number } | undefined {
  const num = t?.num ?? t?.max;
  return t === undefined || num === undefined ? undefined : { unit: t.unit, num };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Whether a UTC day (`YYYY-MM-DD`) is a holiday: the business calendar's (ports/business-calendar.ts). */
export type HolidayTest = (day: string) => boolean;

/**
 * `ms` plus a cadence, in UTC: hours, days and weeks as fixed lengths; business days skip Saturdays, Sundays and,
 * given `holiday`, the holidays (US federal holidays on their observed dates, DESIGN §12.5), backwards for a
 * negative number ("30 business days before the start"); months and years as calendar months with the day clamped
 * to the month's length (Jan 31 + 1 month = Feb 28/29).
 */
export function addCadence(ms: number, every: { unit: Cr26TimeUnit; num: number }, holiday?: HolidayTest): number {
  switch (every.unit) {
    case 'hours':
      return ms + every.num * HOUR;
    case 'days':
      return ms + every.num * DAY;
    case 'weeks':
      return ms + every.num * 7 * DAY;
    case 'bizdays': {
      const step = every.num < 0 ? -DAY : DAY;
      let t = ms;
      for (let left = Math.abs(every.num); left > 0;) {
        t += step;
        if (isBusinessDay(t, holiday)) left -= 1;
      }
      return t;
    }
    case 'months':
    case 'years': {
      const months = every.unit === 'years' ? every.num * 12 : every.num;
      const d = new Date(ms);
      const index = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
      const year = Math.floor(index / 12);
      const month = index - year * 12;
      const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
      return Date.UTC(year, month, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
    }
  }
}

/** Monday to Friday, and not a holiday when a holiday test is given. */
export function isBusinessDay(ms: number, holiday?: HolidayTest): boolean {
  const day = new Date(ms).getUTCDay();
  return day !== 0 && day !== 6 && !(holiday?.(new Date(ms).toISOString().slice(0, 10)) ?? false);
}

const UNIT_WORDS: Record<Cr26TimeUnit, [string, string]> = {
  hours: ['hour', 'hours'],
  days: ['day', 'days'],
  bizdays: ['business day', 'business days'],
  weeks: ['week', 'weeks'],
  months: ['month', 'months'],
  years: ['year', 'years'],
};

/** `7 days`, `1 month`, `2-4 weeks`, `-` when the rule gives none. */
export function timeframeText(t: Cr26Timeframe | undefined): string {
  if (t === undefined) return '-';
  const [one, many] = UNIT_WORDS[t.unit];
  if (t.num !== undefined) return `${t.num} ${t.num === 1 ? one : many}`;
  return `${t.min ?? '?'}-${t.max ?? '?'} ${many}`;
}

/** `7 days`, `1 month`, `3 months`. */
export function cadenceText(every: { unit: Cr26TimeUnit; num: number }): string {
  return timeframeText(every);
}
