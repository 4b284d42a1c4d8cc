import type { Cr26Class, Cr26Force, Cr26Rules, Cr26TimeUnit } from './cr26-rules';
import { reliedRule } from './relied-rules';

/** What a prose number counts. */
export type ProseFactUnit = 'automated-methods' | 'months' | 'cadence-months' | 'fresh-days' | 'n-rating-above' | 'n-rating-equals';

/**
 * One number FedRAMP's 2026.07.14.01 rules file states only inside a statement sentence, with no structured field
 * (DESIGN §12.2): the rule, the class whose statement says it (none: the rule's own statement, for every class), the
 * number and what it counts. The force is not here: the file gives it as data (`force`, or
 * `varies_by_class.<class>.force`), read by `proseFactForce`.
 */
export interface ProseFact {
  rule: string;
  class?: Cr26Class;
  value: number;
  unit: ProseFactUnit;
}

/**
 * Every such number svc uses, in one place. test/unit/domain/fedramp/prose-facts.test.ts finds each one in the
 * official rule's statement for the class, so a newer release that changes a sentence fails that test.
 * - FRC-CSX-VVK: at least N automated methods per KSI (B 1, C 2, D 4; Class A names no number).
 * - FRC-CSX-MOT: historical metrics over at least the past N months (C 6, D 18; A and B name no period).
 * - VDR-TFR-NMV: non-machine-based information resources verified and validated at least once every 3 months (one
 *   statement for every class; `svc ir freshness --class`).
 * - FRC-APP-FCP: an initial package shows the status as verified and validated within the previous 7 days (one
 *   statement for every class; `svc fedramp package --initial`).
 * - VER-TFR-IRI: internet-reachable likely exploitable vulnerabilities with N-rating > 3 are reportable incidents;
 *   VER-TFR-NRI: likely exploitable ones not internet-reachable with N-rating = 5 (each class's statement).
 */
export const PROSE_FACTS: readonly ProseFact[] = [
  { rule: 'FRC-CSX-VVK', class: 'B', value: 1, unit: 'automated-methods' },
  { rule: 'FRC-CSX-VVK', class: 'C', value: 2, unit: 'automated-methods' },
  { rule: 'FRC-CSX-VVK', class: 'D', value: 4, unit: 'automated-methods' },
  { rule: 'FRC-CSX-MOT', class: 'C', value: 6, unit: 'months' },
  { rule: 'FRC-CSX-MOT', class: 'D', value: 18, unit: 'months' },
  { rule: 'VDR-TFR-NMV', value: 3, unit: 'cadence-months' },
  { rule: 'FRC-APP-FCP', value: 7, unit: 'fresh-days' },
  ...(['A', 'B', 'C', 'D'] as const).map((c) => ({ rule: 'VER-TFR-IRI', class: c, value: 3, unit: 'n-rating-above' as const })),
  ...(['A', 'B', 'C', 'D'] as const).map((c) => ({ rule: 'VER-TFR-NRI', class: c, value: 5, unit: 'n-rating-equals' as const })),
];

/** The rule whose statement gives how fresh an initial package's statuses must be. */
export const FRESH_PACKAGE_RULE = reliedRule('FRC-APP-FCP');
/** The rule whose statements give the automated-methods minimum per KSI. */
export const METHODS_RULE = reliedRule('FRC-CSX-VVK');
/** The rule whose statements give the metrics history a class must supply. */
export const HISTORY_RULE = reliedRule('FRC-CSX-MOT');

/** The number `rule` states for `cls` (or for every class), or undefined where its statement for the class names none. */
export function proseFact(rule: string, cls: Cr26Class): ProseFact | undefined {
  return PROSE_FACTS.find((f) => f.rule === rule && (f.class === cls || f.class === undefined));
}

/** The timeframe unit a prose number would have as a structured field (`timeframe_type`), where it can have one. */
const STRUCTURED_UNITS: Partial<Record<ProseFactUnit, Cr26TimeUnit>> = { months: 'months', 'cadence-months': 'months', 'fresh-days': 'days' };

/**
 * The number the release in use gives `rule` for `cls`: none when the release does not hold the rule (issue 34: svc
 * judges nothing by a rule the release lacks); its structured timeframe (`timeframe_num`, else `timeframe_num_min`,
 * else `timeframe_num_max`, of the class's variant or the rule) where it has one in the fact's unit; else the prose
 * fact. So a release that gives the number as data is read as data, and the prose is used only where it gives none.
 */
export function releaseFact(rules: Pick<Cr26Rules, 'rules'>, rule: string, cls: Cr26Class): ProseFact | undefined {
  const found = rules.rules.find((r) => r.id === rule);
  if (found === undefined) return undefined;
  const fact = proseFact(rule, cls);
  const unit = PROSE_FACTS.find((f) => f.rule === rule)?.unit;
  const structured = unit === undefined ? undefined : STRUCTURED_UNITS[unit];
  const t = found.varies_by_class?.[cls]?.timeframe ?? found.timeframe;
  const num = t?.num ?? t?.min ?? t?.max;
  if (unit !== undefined && structured !== undefined && t?.unit === structured && num !== undefined) return { rule, class: cls, value: num, unit };
  return fact;
}

/** The force the rules data gives `rule` for `cls` (undefined when the model does not hold the rule or class). */
export function proseFactForce(rules: Pick<Cr26Rules, 'rules'>, rule: string, cls: Cr26Class): Cr26Force | undefined {
  const found = rules.rules.find((r) => r.id === rule);
  return found?.varies_by_class?.[cls]?.force ?? found?.force;
}
