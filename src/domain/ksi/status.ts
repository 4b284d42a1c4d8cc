/** KSI result values. They are outcomes of one run, not lifecycle states. */
export const STATUSES = ['PASS', 'WARN', 'FAIL'] as const;
export type Status = (typeof STATUSES)[number];

const RANK: Record<Status, number> = { PASS: 0, WARN: 1, FAIL: 2 };

export function isStatus(value: unknown): value is Status {
  return value === 'PASS' || value === 'WARN' || value === 'FAIL';
}

/** The worse of two statuses: FAIL beats WARN beats PASS. */
export function worstStatus(a: Status, b: Status): Status {
  return RANK[a] >= RANK[b] ? a : b;
}

export interface StatusCounts {
  PASS: number;
  WARN: number;
  FAIL: number;
}

export function countStatuses(statuses: Iterable<{ status: Status }>): StatusCounts {
  const counts: StatusCounts = { PASS: 0, WARN: 0, FAIL: 0 };
  for (const item of statuses) counts[item.status] += 1;
  return counts;
}
