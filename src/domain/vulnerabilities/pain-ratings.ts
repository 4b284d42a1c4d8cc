import type { Cr26Rules } from '../fedramp/cr26-rules';
import { InvalidInputError } from '../errors';
import type { NRating } from './lifecycle';

/** The rule whose bullets name the Potential Agency Impact N-ratings (PAIN) a release offers. */
export const PAIN_RULE = 'VER-EVA-EPA';

/** What svc rates when the release in use does not say: N1 to N5, as every release before 2026.10.05.01 lists. */
export const FALLBACK_RATINGS: readonly NRating[] = [1, 2, 3, 4, 5];

/**
 * The N-ratings FedRAMP's CR26 schemas can carry (`nRating` of the common definitions, `enum` [1..5] in all three
 * generations svc knows): what svc may write as an integer rating in a VDR, AVI, history or incident report.
 */
export const SCHEMA_RATINGS: readonly NRating[] = [1, 2, 3, 4, 5];

/** The N-ratings a release offers, lowest first, and where that comes from. */
export interface PainRatings {
  ratings: NRating[];
  /** `CR26 <version>`. */
  release: string;
  /** Why the fallback N1 to N5 is used (the rule is missing, or names no N-rating); absent when read from the rule. */
  fallback?: string;
}

/**
 * The N-ratings of the release in use, read from VER-EVA-EPA's bullets (`**N<k>**: …`, kept as the rule's
 * `bullet_labels`): 2026.07.14.01 gives N1–N5, 2026.10.05.01 N0–N5. Without the rule, or when its bullets name no
 * N-rating, N1 to N5 and `fallback` says which.
 */
export function painRatings(rules: Pick<Cr26Rules, 'rules' | 'info'>): PainRatings {
  const release = `CR26 ${rules.info.version}`;
  const rule = rules.rules.find((r) => r.id === PAIN_RULE);
  if (rule === undefined) return { ratings: [...FALLBACK_RATINGS], release, fallback: `has no rule ${PAIN_RULE}` };
  const ratings = [...new Set((rule.bullet_labels ?? []).flatMap((label) => (/^N[0-5]$/i.test(label) ? [Number(label.slice(1)) as NRating] : [])))].sort(
    (a, b) => a - b,
  );
  if (ratings.length === 0) return { ratings: [...FALLBACK_RATINGS], release, fallback: `${PAIN_RULE}'s bullets name no N-rating (**N<k>**)` };
  return { ratings, release };
}

/** `N1 to N5`, or `N1, N3` where the list has a gap. */
export function ratingRange(ratings: readonly NRating[]): string {
  const contiguous = ratings.every((n, i) => i === 0 || n === ratings[i - 1]! + 1);
  return contiguous && ratings.length > 1 ? `N${ratings[0]} to N${ratings.at(-1)}` : ratings.map((n) => `N${n}`).join(', ');
}

/**
 * InvalidInputError `rating-not-offered` when the release in use does not offer `n`: `<what> <n>: CR26 <version>
 * rates N1 to N5 (VER-EVA-EPA); use <what> 1, or a release that offers N0 (SVC_FEDRAMP_RULES)`. `what` is the flag or
 * the config path that gave it (`--n`, `vulnerabilities.policy.default_n:`).
 */
export function requireOffered(n: NRating, offered: PainRatings, what: string): NRating {
  if (offered.ratings.includes(n)) return n;
  const closest = offered.ratings.reduce((best, r) => (Math.abs(r - n) < Math.abs(best - n) ? r : best));
  const source =
    offered.fallback === undefined
      ? `rates ${ratingRange(offered.ratings)} (${PAIN_RULE})`
      : `${offered.fallback}, so svc rates ${ratingRange(offered.ratings)}`;
  throw new InvalidInputError(
    'rating-not-offered',
    `${what} ${n}: ${offered.release} ${source}; use ${what} ${closest}, or a release that offers N${n} (SVC_FEDRAMP_RULES)`,
  );
}
