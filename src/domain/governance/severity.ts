/** Governance severities, most severe first. */
export const SEVERITIES = ['Critical', 'High', 'Medium', 'Low'] as const;
export type Severity = (typeof SEVERITIES)[number];

const RANK: Record<Severity, number> = { Critical: 3, High: 2, Medium: 1, Low: 0 };

export function isSeverity(value: unknown): value is Severity {
  return typeof value === 'string' && (SEVERITIES as readonly string[]).includes(value);
}

export function severityRank(severity: Severity): number {
  return RANK[severity];
}

/** One step less severe; Low stays Low (a WARN is remediated one step below the KSI's FAIL severity). */
export function lowerSeverity(severity: Severity): Severity {
  return SEVERITIES[Math.min(SEVERITIES.indexOf(severity) + 1, SEVERITIES.length - 1)];
}

/** The more severe of two. */
export function maxSeverity(a: Severity, b: Severity): Severity {
  return RANK[a] >= RANK[b] ? a : b;
}
