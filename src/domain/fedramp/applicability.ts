import type { Cr26Class, Cr26Effective, Cr26Family, Cr26Force, Cr26Ksi, Cr26Rule, Cr26Rules, Cr26Subset, Cr26Timeframe } from './cr26-rules';
import type { FedrampPath, FedrampStatus, FedrampType } from './profile';

/**
 * The Class A rules whose `related` lists name what else Class A must (MFR), should (RFR) or may (OFR) address
 * (DESIGN §12.1): the ids are read from these rules, never typed in.
 */
export const CLASS_A_LISTS = { required: 'FRC-CLA-MFR', recommended: 'FRC-CLA-RFR', optional: 'FRC-CLA-OFR' } as const;

/** Who a rule must bind for svc to judge it: providers, or the trust centers they run (compared case-insensitively). */
const PROVIDER_AFFECTS = ['providers', 'provider', 'trust centers', 'trust center'];

/** What applicability needs of the offering's profile. */
export interface ApplicabilityProfile {
  type: FedrampType;
  class: Cr26Class;
  path: FedrampPath;
  status: FedrampStatus;
  /** YYYY-MM-DD: where a grace period runs until the next assessment, it ends then. */
  next_assessment?: string;
}

/**
 * Where a rule stands for the profile at a time: in force (since the date the status counts from; `grace_until`
 * while a certified offering's grace period runs), required from a later date (`optional_from`: when adopting it
 * early became possible), or not yet defined for the class (`pilot`: the pilot FedRAMP's text leaves it to).
 */
export type EffectiveState =
  | { state: 'in_force'; since?: string; grace_until?: string }
  | { state: 'required_from'; date: string; optional_from?: string }
  | { state: 'not_yet_defined'; class: Cr26Class; pilot?: string };

/** A rule that applies to the profile, with what it says for the profile's class. */
export interface ApplicableRule {
  rule: Cr26Rule;
  /** The force for the profile's class (the class variant's where the rule varies by class). */
  force?: Cr26Force;
  timeframe?: Cr26Timeframe;
  /** The class's timeframes are a table per N-rating (`pain_timeframes`) rather than one timeframe. */
  by_rating: boolean;
  effective: EffectiveState;
  /** Why it applies: its subset holds the profile (`subset`), or the Class A rule that names it. */
  via: string;
}

/** A KSI that applies to the profile; `via` as for rules (`type`: every KSI applies to the type and class). */
export interface ApplicableKsi {
  ksi: Cr26Ksi;
  via: string;
}

/** The rules and KSIs of a CR26 release that apply to a profile at a time. */
export interface Applicability {
  profile: ApplicabilityProfile;
  /** The rules the profile must follow (with their own force: a SHOULD of the class stays a SHOULD). */
  rules: ApplicableRule[];
  ksis: ApplicableKsi[];
  /** Rules FRC-CLA-RFR recommends (SHOULD) and FRC-CLA-OFR leaves optional (MAY): Class A only. */
  recommended: ApplicableRule[];
  optional: ApplicableRule[];
  /** Rules of the profile's type that bind agencies, assessors, advisors or FedRAMP: listed, never judged. */
  apart: Cr26Rule[];
}

/**
 * Which rules and KSIs of `rules` apply to `profile` at `now` (DESIGN §12.1). A rule applies when it sits under the
 * profile's type (`all`, or `20x`/`rev5`), its subset's types, paths and classes hold the profile's, and its
 * `affects` names providers (or trust centers); other rules of the type are listed apart. When FRC-CLA-MFR applies
 * (Class A), the rules and KSIs it names apply too, and those FRC-CLA-RFR and FRC-CLA-OFR name are recommended and
 * optional instead (the more specific Class A rule wins over a subset that lists A). KSIs apply to 20x only: all of
 * them for B–D, those FRC-CLA-MFR names for A. Lists are sorted by id.
 */
export function applicability(rules: Cr26Rules, profile: ApplicabilityProfile, now: Date): Applicability {
  const families = new Map(rules.families.map((f) => [f.id, f]));
  const ofType = rules.rules.filter((r) => r.type === 'all' || r.type === profile.type);
  const forProviders = (rule: Cr26Rule) => affects(rule, families).some((a) => PROVIDER_AFFECTS.includes(a.toLowerCase()));
  const base = ofType.filter((r) => forProviders(r) && holds(subsetOf(r, families)?.applicability, profile));
  const applying = new Map(base.map((r) => [r.id, r]));
  const named = (id: string) => new Set(applying.get(id)?.related ?? []);
  const required = named(CLASS_A_LISTS.required);
  const recommended = named(CLASS_A_LISTS.recommended);
  const optional = named(CLASS_A_LISTS.optional);
  const byId = new Map(ofType.map((r) => [r.id, r]));
  const judged = (rule: Cr26Rule, via: string): ApplicableRule => judge(rule, families.get(rule.family), profile, now, via);
  const pick = (ids: Set<string>, via: string, skip: Set<string>[]) =>
    [...ids].filter((id) => byId.has(id) && !skip.some((s) => s.has(id))).map((id) => judged(byId.get(id)!, via));
  const demoted = (id: string) => !required.has(id) && (recommended.has(id) || optional.has(id));
  const chosen = [...base.filter((r) => !demoted(r.id)).map((r) => judged(r, 'subset')), ...pick(required, CLASS_A_LISTS.required, [new Set(applying.keys())])];
  const ksis: ApplicableKsi[] =
    profile.type !== '20x'
      ? []
      : profile.class === 'A'
        ? rules.ksis.filter((k) => required.has(k.id)).map((ksi) => ({ ksi, via: CLASS_A_LISTS.required }))
        : rules.ksis.map((ksi) => ({ ksi, via: 'type' }));
  return {
    profile,
    rules: sortById(chosen),
    ksis,
    recommended: sortById(pick(recommended, CLASS_A_LISTS.recommended, [required])),
    optional: sortById(pick(optional, CLASS_A_LISTS.optional, [required, recommended])),
    apart: ofType.filter((r) => !forProviders(r)),
  };
}

/**
 * Where a family's dates put a rule for the profile at `now`, by UTC day. `applying`: in force from the obtain date.
 * `certified`: in force from the maintain date, within a grace period until the grace end (the profile's
 * `next_assessment` where the grace runs until the next assessment and the date is known, else the default end).
 * A family without dates is in force.
 */
export function effectiveState(dates: Cr26Effective | undefined, profile: Pick<ApplicabilityProfile, 'status' | 'next_assessment'>, now: Date): EffectiveState {
  if (dates === undefined) return { state: 'in_force' };
  const day = now.toISOString().slice(0, 10);
  if (profile.status === 'applying') {
    const from = dates.obtain;
    if (from === undefined || day >= from) return compact({ state: 'in_force', since: from });
    return compact({ state: 'required_from', date: from, optional_from: dates.optional_adoption });
  }
  const from = dates.maintain ?? dates.obtain;
  if (from !== undefined && day < from) return compact({ state: 'required_from', date: from, optional_from: dates.optional_adoption });
  const grace = dates.grace_until_next_assessment && profile.next_assessment !== undefined ? profile.next_assessment : dates.grace;
  const inGrace = grace !== undefined && day < grace && (from === undefined || grace > from);
  return compact({ state: 'in_force', since: from, grace_until: inGrace ? grace : undefined });
}

/** The dates that hold for the profile's type: the family's per-type dates where it gives them, else its own. */
export function datesFor(family: Cr26Family | undefined, type: FedrampType): Cr26Effective | undefined {
  return family?.effective[type] ?? family?.effective.all;
}

function judge(rule: Cr26Rule, family: Cr26Family | undefined, profile: ApplicabilityProfile, now: Date, via: string): ApplicableRule {
  const variant = rule.varies_by_class?.[profile.class];
  const said = rule.varies_by_class === undefined ? { force: rule.force, timeframe: rule.timeframe } : { force: variant?.force, timeframe: variant?.timeframe };
  const by_rating = variant?.pain_timeframes !== undefined;
  const undefinedForClass = rule.varies_by_class !== undefined && (variant === undefined || variant.deferred_to !== undefined);
  const effective: EffectiveState = undefinedForClass
    ? compact({ state: 'not_yet_defined' as const, class: profile.class, pilot: variant?.deferred_to })
    : effectiveState(datesFor(family, profile.type), profile, now);
  return compact({ rule, force: said.force, timeframe: said.timeframe, by_rating, effective, via });
}

/** The subset a rule sits in: the one defined for the rule's type, else the family's own. */
function subsetOf(rule: Cr26Rule, families: Map<string, Cr26Family>): Cr26Subset | undefined {
  const subsets = families.get(rule.family)?.subsets ?? [];
  return subsets.find((s) => s.id === rule.subset && s.type === rule.type) ?? subsets.find((s) => s.id === rule.subset && s.type === 'all');
}

/** The rule's own `affects`, else its subset's. */
function affects(rule: Cr26Rule, families: Map<string, Cr26Family>): string[] {
  return rule.affects.length > 0 ? rule.affects : (subsetOf(rule, families)?.applicability.affects ?? []);
}

function holds(applicability: Cr26Subset['applicability'] | undefined, profile: ApplicabilityProfile): boolean {
  if (applicability === undefined) return false;
  return applicability.types.includes(profile.type) && applicability.paths.includes(profile.path) && applicability.classes.includes(profile.class);
}

function sortById(list: ApplicableRule[]): ApplicableRule[] {
  return list.sort((a, b) => (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0));
}

function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
