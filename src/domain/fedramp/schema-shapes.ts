import type { NRating } from '../vulnerabilities/lifecycle';
import { SCHEMA_RATINGS } from '../vulnerabilities/pain-ratings';

/**
 * The shapes of CR26 documents that FedRAMP's schema generations decide, read from the schemas in use (never from a
 * file name or date: FedRAMP keeps the names and changes the bytes). Every document svc writes takes its shape from
 * here (docs/fedramp.md, "FedRAMP releases").
 */
export interface Cr26Shapes {
  /** The incident report's `potentialImpact`: a string (incident 0.1.x) or an object (0.2.0 on). */
  potentialImpact: 'string' | 'object';
  /** `Remediated` among a vulnerability's final dispositions (common definitions 0.3.0 on). */
  remediated: boolean;
  /** A vulnerability's `painReductionEvents` (common definitions 0.3.0 on). */
  reductionEvents: boolean;
  /** The N-ratings FedRAMP's `nRating` enumerates (1 to 5 in every generation so far: no N0). */
  ratings: readonly NRating[];
  /** The CPO's `advisors` (CPO 0.1.6 on). */
  advisors: boolean;
}

/** What FedRAMP's first schemas (2026-06-24) offer: the shapes svc writes when no schema is at hand. */
export const FIRST_SHAPES: Cr26Shapes = { potentialImpact: 'string', remediated: false, reductionEvents: false, ratings: SCHEMA_RATINGS, advisors: false };

/** The schema documents the shapes are read from, parsed; each undefined when the set has none. */
export interface ShapeSchemas {
  incident?: unknown;
  cpo?: unknown;
  /** The common definitions (fedramp-common-definitions-schema-<date>.json). */
  definitions?: unknown;
}

/**
 * The shapes the schemas declare. A schema that is missing or declares nothing about a shape leaves FIRST_SHAPES's
 * answer (what every generation accepts).
 */
export function cr26Shapes(schemas: ShapeSchemas): Cr26Shapes {
  const detail = at(schemas.definitions, '$defs', 'vulnerabilityDetail', 'properties');
  const disposition = at(detail, 'finalDisposition', 'enum');
  const ratings = at(schemas.definitions, '$defs', 'nRating', 'enum');
  return {
    potentialImpact: at(schemas.incident, 'properties', 'potentialImpact', 'type') === 'object' ? 'object' : 'string',
    remediated: Array.isArray(disposition) && disposition.includes('Remediated'),
    reductionEvents: at(detail, 'painReductionEvents') !== undefined,
    ratings: Array.isArray(ratings) ? ratings.filter((n): n is NRating => Number.isInteger(n) && n >= 0 && n <= 5) : FIRST_SHAPES.ratings,
    advisors: at(schemas.cpo, 'properties', 'advisors') !== undefined,
  };
}

function at(value: unknown, ...path: string[]): unknown {
  let here = value;
  for (const key of path) {
    if (here === null || typeof here !== 'object' || Array.isArray(here)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}
