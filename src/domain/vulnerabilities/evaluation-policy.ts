import type { ContentDigest } from '../evidence/content-digest';
import { describe, isPlainObject } from '../encoding/json-values';
import { InvalidInputError } from '../errors';
import type { Evaluation, KevEntry, NRating } from './lifecycle';

/**
 * The evaluation policy of the `vulnerabilities` section of svc.config.json (DESIGN §12.4): what svc may decide on
 * its own when a group is first detected, recorded as an evaluation `by: "policy:<hash>"` that a person's evaluation
 * (`svc vuln evaluate`) later refines.
 */
export interface EvaluationPolicy {
  /** Resource patterns (`*` any run of characters) that are internet-reachable (VER-EVA-EIR). */
  internet_reachable: string[];
  /** Scanner severity (lower case) → N-rating (VER-EVA-EPA); a severity not listed gets `default_n`. */
  n_by_severity: Record<string, NRating>;
  default_n: NRating;
}

/** The defaults: nothing is assumed internet-reachable; critical N5, high N4, medium N3, low N2, informational N1. */
export const DEFAULT_POLICY: EvaluationPolicy = {
  internet_reachable: [],
  n_by_severity: { critical: 5, high: 4, medium: 3, moderate: 3, low: 2, info: 1, informational: 1, none: 1, must: 4, should: 3 },
  default_n: 3,
};

/** What an evaluation says of KEV membership when no CISA KEV catalog is configured: svc did not check it. */
export const NO_KEV_CATALOG = 'KEV status unknown: no CISA KEV catalog was configured';

/** What the policy sees of a newly detected group. */
export interface NewGroup {
  finding_id: string;
  resources: readonly string[];
  severities: readonly string[];
  first_detected: string;
  /** The as_of of the run that first records the group: when svc, and so the policy, first learns of it. */
  recorded: string;
}

/** `policy:` and the first 12 hex digits of the SHA-256 of the policy's canonical JSON: who evaluated, by which rules. */
export function policyId(policy: EvaluationPolicy, canonical: (value: unknown) => string, digest: Pick<ContentDigest, 'sha256'>): string {
  return `policy:${digest.sha256(canonical(policy)).slice(0, 12)}`;
}

/**
 * The policy's evaluation of a new group, made when the run that first records it is recorded (at its as_of, or at
 * the detection when that is later): a detection reported long after it was made is evaluated late, and VER-TFR-EVU
 * says so. Internet-reachable when a resource matches a
 * pattern; likely exploitable when the CISA KEV catalog lists its finding (exploitation is assumed automatable,
 * VER-EVA-AIA, so KEV membership is what svc can know without a person); the N-rating of its most severe scanner
 * severity. The reason says each, and only what svc checked: without a configured KEV catalog (`kev` undefined) the
 * KEV status is unknown, said so, and LEV stays false until a person's evaluation says otherwise.
 */
export function policyEvaluation(group: NewGroup, policy: EvaluationPolicy, by: string, kev: ReadonlyMap<string, KevEntry> | undefined): Evaluation {
  const entry = kev?.get(group.finding_id);
  const reachable = group.resources.find((r) => policy.internet_reachable.some((p) => globMatch(p, r)));
  const ratings = group.severities.map((s) => policy.n_by_severity[s.trim().toLowerCase()] ?? policy.default_n);
  const n = (ratings.length === 0 ? 1 : Math.max(...ratings)) as NRating;
  return {
    at: Date.parse(group.recorded) > Date.parse(group.first_detected) ? group.recorded : group.first_detected,
    by,
    irv: reachable !== undefined,
    lev: entry !== undefined,
    n,
    reason: [
      reachable === undefined ? 'no resource matches an internet-reachable pattern' : `${reachable} matches an internet-reachable pattern`,
      kev === undefined ? NO_KEV_CATALOG : entry === undefined ? 'not in the CISA KEV catalog' : `in the CISA KEV catalog (due ${entry.dueDate})`,
      `N${n} from scanner severity ${[...new Set(group.severities)].join(', ') || 'none'}`,
    ].join('; '),
  };
}

/** A pattern with `*` wildcards against the whole text, case-insensitively. */
export function globMatch(pattern: string, text: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return re.test(text);
}

/**
 * Reads the `vulnerabilities.policy` object of svc.config.json; `fail(path, problem)` reports a wrong value with its
 * fix. Missing keys take DEFAULT_POLICY's values.
 */
export function readEvaluationPolicy(value: unknown, fail: (path: string, problem: string) => never): EvaluationPolicy {
  if (!isPlainObject(value)) return fail('vulnerabilities.policy', `expected an object, got ${describe(value)}`);
  const policy: EvaluationPolicy = { ...DEFAULT_POLICY, n_by_severity: { ...DEFAULT_POLICY.n_by_severity } };
  for (const [key, v] of Object.entries(value)) {
    const at = `vulnerabilities.policy.${key}`;
    if (key === 'internet_reachable') {
      if (!Array.isArray(v) || v.some((p) => typeof p !== 'string' || p.trim() === ''))
        fail(at, `${describe(v)} is not a list of patterns; write resource patterns such as "*.example.com" or "arn:aws:elasticloadbalancing:*"`);
      policy.internet_reachable = v as string[];
    } else if (key === 'n_by_severity') {
      if (!isPlainObject(v)) fail(at, `${describe(v)} is not an object; write {"critical": 5, "high": 4, ...}`);
      for (const [severity, n] of Object.entries(v as Record<string, unknown>))
        policy.n_by_severity[severity.toLowerCase()] = rating(n, `${at}.${severity}`, fail);
    } else if (key === 'default_n') {
      policy.default_n = rating(v, at, fail);
    } else {
      fail(at, "unknown key; the policy's keys are internet_reachable, n_by_severity, default_n");
    }
  }
  return policy;
}

/** The `vulnerabilities` section of svc.config.json: the KEV catalog's path (resolved by the reader) and the policy. */
export interface VulnerabilitySettings {
  kev_catalog?: string;
  policy: EvaluationPolicy;
}

/** Reads the `vulnerabilities` section; `resolvePath` resolves the catalog's path against the config file's directory. */
export function readVulnerabilitySettings(
  value: unknown,
  fail: (path: string, problem: string) => never,
  resolvePath: (path: string) => string = (p) => p,
): VulnerabilitySettings {
  if (!isPlainObject(value)) return fail('vulnerabilities', `expected an object, got ${describe(value)}`);
  const settings: VulnerabilitySettings = { policy: DEFAULT_POLICY };
  for (const [key, v] of Object.entries(value)) {
    if (key === 'kev_catalog') {
      if (typeof v !== 'string' || v.trim() === '')
        fail('vulnerabilities.kev_catalog', `${describe(v)} is not a file path; write the path of CISA's known_exploited_vulnerabilities.json`);
      settings.kev_catalog = resolvePath(v as string);
    } else if (key === 'policy') {
      settings.policy = readEvaluationPolicy(v, fail);
    } else {
      fail(`vulnerabilities.${key}`, "unknown key; the section's keys are kev_catalog and policy");
    }
  }
  return settings;
}

/**
 * `value` as an N-rating: `lowest`–5, or "N<lowest>"–"N5". `lowest` 1 (the default) where only N1–N5 can be meant
 * (IEC-CSO-EFI's incident ratings); 0 where VER-EVA-EPA's N0 may be, which the release in use must then offer
 * (pain-ratings.ts requireOffered).
 */
export function parseNRating(value: unknown, lowest: 0 | 1 = 1): NRating | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim().replace(/^n/i, '')) : NaN;
  return Number.isInteger(n) && n >= lowest && n <= 5 ? (n as NRating) : undefined;
}

function rating(value: unknown, at: string, fail: (path: string, problem: string) => never): NRating {
  return (
    parseNRating(value, 0) ?? fail(at, `${describe(value)} is not an N-rating; write 0 to 5 (or "N0" to "N5"; N0 where the CR26 release in use offers it)`)
  );
}

/** Every N-rating the policy gives, with the config path that gives it (to check against the release in use). */
export function policyRatings(policy: EvaluationPolicy): { at: string; n: NRating }[] {
  return [
    ...Object.entries(policy.n_by_severity).map(([severity, n]) => ({ at: `vulnerabilities.policy.n_by_severity.${severity}`, n })),
    { at: 'vulnerabilities.policy.default_n', n: policy.default_n },
  ];
}

/**
 * Reads a CISA Known Exploited Vulnerabilities catalog in CISA's JSON format (`{"catalogVersion", "vulnerabilities":
 * [{"cveID", "dueDate", ...}]}`); returns its entries by CVE id. Throws InvalidInputError `invalid-kev` naming the
 * file and the path of the first bad entry.
 */
export function readKevCatalog(document: unknown, file: string): { version?: string; entries: Map<string, KevEntry> } {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-kev', `${file}: ${path}: ${problem}; pass CISA's known_exploited_vulnerabilities.json`);
  };
  if (!isPlainObject(document)) return fail('$', `expected an object, got ${describe(document)}`);
  const list = document.vulnerabilities;
  if (!Array.isArray(list)) return fail('vulnerabilities', `expected an array, got ${describe(list)}`);
  const entries = new Map<string, KevEntry>();
  list.forEach((item, i) => {
    const at = `vulnerabilities[${i}]`;
    if (!isPlainObject(item)) fail(at, `expected an object, got ${describe(item)}`);
    const { cveID, dueDate } = item as Record<string, unknown>;
    if (typeof cveID !== 'string' || !/^CVE-\d{4}-\d{4,}$/.test(cveID)) fail(`${at}.cveID`, `${describe(cveID)} is not a CVE id`);
    if (typeof dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(dueDate) || Number.isNaN(Date.parse(`${dueDate}T00:00:00Z`)))
      fail(`${at}.dueDate`, `${describe(dueDate)} is not a date`);
    entries.set(cveID as string, { cveID: cveID as string, dueDate: dueDate as string });
  });
  return { ...(typeof document.catalogVersion === 'string' ? { version: document.catalogVersion } : {}), entries };
}
