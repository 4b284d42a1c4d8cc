import { isoSeconds } from '../../domain/encoding/iso-time';
import { inject, injectable } from 'tsyringe';
import { UsageError } from '../../domain/errors';
import { applicability, type ApplicabilityProfile, type ApplicableRule, type EffectiveState } from '../../domain/fedramp/applicability';
import type { Cr26Class, Cr26Force, Cr26Rules, Cr26Timeframe } from '../../domain/fedramp/cr26-rules';
import { requireProfileKeys, type FedrampType } from '../../domain/fedramp/profile';
import { missingReliedRules, type ReliedRule } from '../../domain/fedramp/relied-rules';
import { applicabilityProfile } from './cr26-assessment';
import { profileWith } from './fedramp-documents';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';

/** The pseudo-family `--family` takes for the KSIs. */
export const KSI_FAMILY = 'KSI';

export interface ListFedrampRulesInput {
  /** `--class`, over the profile's `class`. */
  class?: Cr26Class;
  /** `--type`, over the profile's `type`. */
  type?: FedrampType;
  /** `--family`: only that family's rules (`VDR`), or `KSI` for only the KSIs; any case. */
  family?: string;
  /** `--now`; else the clock. */
  now?: Date;
  /** `--rules-file`: an official rules file instead of the rules in use; its statements are shown. */
  rulesFile?: string;
}

/** One rule as `svc fedramp rules` lists it. */
export interface ListedRule {
  id: string;
  family: string;
  subset: string;
  type: string;
  name: string;
  /** For the profile's class where the rule varies by class. */
  force?: Cr26Force;
  timeframe?: Cr26Timeframe;
  /** The class's timeframes are a table per N-rating (VDR-TFR-PVR, IEC-CSO-IIR). */
  by_rating?: true;
  varies_by_class: boolean;
  effective: EffectiveState;
  /** `subset`, or the Class A rule that names it (`FRC-CLA-MFR`). */
  via: string;
  related: string[];
  /** FedRAMP's sentence for the class (or the rule), with --rules-file. */
  statement?: string;
}

export interface ListedKsi {
  id: string;
  theme: string;
  name: string;
  controls: string[];
  effective: EffectiveState;
  via: string;
  statement?: string;
}

export interface ListedApart {
  id: string;
  family: string;
  name: string;
  affects: string[];
}

export interface ListFedrampRulesResult {
  release: { version: string; date: string; file?: string };
  profile: ApplicabilityProfile & { defaults: ('path' | 'status')[] };
  now: string;
  family?: string;
  counts: { rules: number; ksis: number; recommended: number; optional: number; apart: number; in_force: number; later: number; not_yet_defined: number };
  rules: ListedRule[];
  ksis: ListedKsi[];
  recommended: ListedRule[];
  optional: ListedRule[];
  apart: ListedApart[];
  /** The rules svc relies on that the release does not hold, and what svc does instead (absent when it holds them all). */
  missing_rules?: ReliedRule[];
}

/** The CR26 rules and KSIs that apply to the offering's profile, and those listed apart (`svc fedramp rules`, DESIGN §12.1). */
@injectable()
export class ListFedrampRules {
  constructor(
    @inject(FEDRAMP_RULES_SOURCE) private readonly source: FedrampRulesSource,
    @inject(FEDRAMP_PROFILE) private readonly settings: FedrampProfileSettings,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(input: ListFedrampRulesInput): Promise<ListFedrampRulesResult> {
    const given = requireProfileKeys(profileWith(this.settings, input), ['type', 'class'], 'svc fedramp rules', { type: '--type', class: '--class' });
    const defaults = (['path', 'status'] as const).filter((key) => given[key] === undefined);
    const profile = applicabilityProfile(given);
    const rules = input.rulesFile === undefined ? this.source.rules() : this.source.official(input.rulesFile);
    const family = input.family === undefined ? undefined : familyOf(input.family, rules);
    const now = input.now ?? this.clock.now();
    const found = applicability(rules, profile, now);
    const inFamily = (of: string) => family === undefined || of === family;
    const list = (items: ApplicableRule[]) => items.filter((a) => inFamily(a.rule.family)).map((a) => listed(a, rules, profile.class));
    const listedRules = list(found.rules);
    const ksis =
      family !== undefined && family !== KSI_FAMILY
        ? []
        : found.ksis.map(({ ksi, via }) =>
            compact({
              id: ksi.id,
              theme: ksi.theme,
              name: ksi.name,
              controls: ksi.controls,
              effective: { state: 'in_force' } as EffectiveState,
              via,
              statement: statementOf(rules, ksi.id, profile.class),
            }),
          );
    const recommended = list(found.recommended);
    const optional = list(found.optional);
    const apart = found.apart.filter((r) => inFamily(r.family)).map((r) => ({ id: r.id, family: r.family, name: r.name, affects: r.affects }));
    const missing = missingReliedRules(rules);
    const state = (s: EffectiveState['state']) => listedRules.filter((r) => r.effective.state === s).length;
    return compact({
      release: compact({ version: rules.info.version, date: rules.info.date, file: input.rulesFile }),
      profile: { ...profile, defaults },
      now: isoSeconds(now),
      family,
      counts: {
        rules: listedRules.length,
        ksis: ksis.length,
        recommended: recommended.length,
        optional: optional.length,
        apart: apart.length,
        in_force: state('in_force'),
        later: state('required_from'),
        not_yet_defined: state('not_yet_defined'),
      },
      rules: listedRules,
      ksis,
      recommended,
      optional,
      apart,
      missing_rules: missing.length === 0 ? undefined : missing,
    });
  }
}

/** `--family` as one of the release's family ids, or KSI; else a usage error listing them. */
function familyOf(value: string, rules: Cr26Rules): string {
  const id = value.trim().toUpperCase();
  const known = [...rules.families.map((f) => f.id), KSI_FAMILY];
  if (!known.includes(id))
    throw new UsageError('unknown-family', `--family ${value}: not a family of CR26 ${rules.info.version}; use one of ${known.join(', ')}`);
  return id;
}

function listed(a: ApplicableRule, rules: Cr26Rules, cls: Cr26Class): ListedRule {
  const { rule } = a;
  return compact({
    id: rule.id,
    family: rule.family,
    subset: rule.subset,
    type: rule.type,
    name: rule.name,
    force: a.force,
    timeframe: a.timeframe,
    by_rating: a.by_rating ? (true as const) : undefined,
    varies_by_class: rule.varies_by_class !== undefined,
    effective: a.effective,
    via: a.via,
    related: rule.related,
    statement: statementOf(rules, rule.id, cls),
  });
}

/** FedRAMP's sentence for the class where there is one, else the rule's; only an official file carries them. */
function statementOf(rules: Cr26Rules, id: string, cls: Cr26Class): string | undefined {
  const statement = rules.statements?.[id];
  return statement?.classes?.[cls] ?? statement?.text;
}

function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
