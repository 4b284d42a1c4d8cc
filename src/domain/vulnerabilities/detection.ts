import type { ContentDigest } from '../evidence/content-digest';
import { InvalidInputError } from '../errors';
import { describe, isIsoTime, isPlainObject } from '../encoding/json-values';

/**
 * What a detected weakness is (DESIGN §12.4): a `vulnerability` (a CVE in a package, a scanner plugin, a finding in
 * code or a web application) or a `configuration` gap (a failed configuration or KSI check, which FedRAMP's VER rules
 * count as a vulnerability too).
 */
export const DETECTION_KINDS = ['vulnerability', 'configuration'] as const;
export type DetectionKind = (typeof DETECTION_KINDS)[number];

/**
 * One detection of a normalized report's `vulnerabilities[]` (DESIGN §12.4): a weakness one source found on one
 * resource. `conmon process` groups detections by `finding_id` across sources (VER-EVA-GRV).
 */
export interface Detection {
  /** Stable: the same source, finding and resource give the same id in every run (detectionId). */
  id: string;
  /** The tool that found it, as the report's `source.tool` names it (`Trivy`). */
  source: string;
  /** The CVE, plugin or rule id (`CVE-2024-3094`, `19506`, `iam_root_mfa_enabled`). */
  finding_id: string;
  /** Other ids the scanner gave for the same finding, when it gave any: the advisory (`GHSA-…`, `ALAS-…`) reported under the CVE it names. */
  aliases?: string[];
  /** What it was found on: a host, an image and package, a URL, a file and line, a cloud resource. */
  resource: string;
  title: string;
  /** The scanner's own severity label, as written (`HIGH`, `3`, `Medium`, `Unknown`): evidence, not the rating (CR26 rates by PAIN). */
  scanner_severity: string;
  /** CVSS base score, 0–10, when the scanner gives one. */
  cvss?: number;
  /** When it was detected (ISO-8601): the scanner's time for it, else the scan's. */
  detected_at: string;
  /** Whether a fix (a patched version, a vendor solution) is available, when the scanner says. */
  fix_available?: boolean;
  /** Absent: `vulnerability`. */
  kind?: DetectionKind;
}

/** `VULN-` and the first 20 hex digits of the SHA-256 of source, finding and resource: stable across runs. */
export function detectionId(source: string, findingId: string, resource: string, digest: Pick<ContentDigest, 'sha256'>): string {
  return `VULN-${digest.sha256(`${source}\n${findingId}\n${resource}`).slice(0, 20)}`;
}

const TEXT = ['id', 'source', 'finding_id', 'resource', 'title', 'scanner_severity'] as const;
const KNOWN = new Set<string>([...TEXT, 'aliases', 'cvss', 'detected_at', 'fix_available', 'kind']);

/**
 * Checks a normalized report's `vulnerabilities` (DESIGN §12.4) and returns them; throws InvalidInputError
 * `invalid-report` naming the file, the JSON path (`vulnerabilities[3].cvss`) and the fix for the first problem.
 * Ids must be unique; unknown fields are refused, so a misspelt one is not silently dropped.
 */
export function readDetections(value: unknown, file: string): Detection[] {
  const fail = (path: string, problem: string, fix: string): never => {
    throw new InvalidInputError('invalid-report', `${file}: ${path}: ${problem}; ${fix}`);
  };
  if (!Array.isArray(value)) return fail('vulnerabilities', `expected an array, got ${describe(value)}`, 'write "vulnerabilities": [ ... ] or leave it out');
  const seen = new Map<string, number>();
  value.forEach((item, i) => {
    const at = `vulnerabilities[${i}]`;
    if (!isPlainObject(item))
      fail(at, `expected an object, got ${describe(item)}`, 'write {"id", "source", "finding_id", "resource", "title", "scanner_severity", "detected_at"}');
    const d = item as Record<string, unknown>;
    for (const field of TEXT) {
      const v = d[field];
      if (typeof v !== 'string' || v.trim() === '')
        fail(
          `${at}.${field}`,
          v === undefined ? 'missing' : `expected a non-empty string, got ${describe(v)}`,
          `every detection needs "${field}" (docs/artifacts.md)`,
        );
    }
    const id = d.id as string;
    const first = seen.get(id);
    if (first !== undefined) fail(`${at}.id`, `duplicate "${id}" (first at vulnerabilities[${first}])`, 'give each detection its own id');
    seen.set(id, i);
    if (!(typeof d.detected_at === 'string' && isIsoTime(d.detected_at))) {
      fail(
        `${at}.detected_at`,
        d.detected_at === undefined ? 'missing' : `${describe(d.detected_at)} is not an ISO-8601 time`,
        'write e.g. "2026-11-01T08:00:00Z"',
      );
    }
    if (d.cvss !== undefined && !(typeof d.cvss === 'number' && d.cvss >= 0 && d.cvss <= 10))
      fail(`${at}.cvss`, `${describe(d.cvss)} is not a CVSS score`, 'write a number from 0 to 10, or leave it out');
    if (d.fix_available !== undefined && typeof d.fix_available !== 'boolean')
      fail(`${at}.fix_available`, `expected true or false, got ${describe(d.fix_available)}`, 'write true or false, or leave it out');
    if (d.aliases !== undefined && !(Array.isArray(d.aliases) && d.aliases.every((a) => typeof a === 'string' && a.trim() !== ''))) {
      fail(
        `${at}.aliases`,
        `${describe(d.aliases)} is not a list of ids`,
        'write the other ids of the finding, such as ["GHSA-p6mc-m468-83gw"], or leave it out',
      );
    }
    if (d.kind !== undefined && !DETECTION_KINDS.includes(d.kind as DetectionKind))
      fail(`${at}.kind`, `${describe(d.kind)} is not a kind of detection`, 'write "vulnerability" or "configuration", or leave it out');
    for (const key of Object.keys(d)) if (!KNOWN.has(key)) fail(`${at}.${key}`, 'unknown field', `a detection holds ${[...KNOWN].join(', ')}`);
  });
  return value as Detection[];
}
