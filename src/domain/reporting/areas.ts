import type { AssessedResult } from '../assessment/assessment';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import type { AreaCounts } from '../conmon/run-record';

/** The NIST family of a KSI, or UNMAPPED for one outside the catalog. */
export function areaOf(item: AssessedResult): string {
  return item.definition?.family ?? 'UNMAPPED';
}

/** `Access Control` for AC; official FedRAMP areas are their own titles. */
export function areaTitle(area: string, catalog: KsiCatalog): string {
  return area === 'UNMAPPED' ? 'Outside the KSI catalog' : (catalog.family(area)?.title ?? area);
}

/** Status counts per area, areas in code-unit order. */
export function areaCounts(items: Iterable<AssessedResult>): AreaCounts {
  const areas: AreaCounts = {};
  for (const item of items) {
    const counts = (areas[areaOf(item)] ??= { pass: 0, warn: 0, fail: 0 });
    const status = item.result.status;
    counts[status === 'PASS' ? 'pass' : status === 'WARN' ? 'warn' : 'fail'] += 1;
  }
  return Object.fromEntries(
    Object.keys(areas)
      .sort()
      .map((k) => [k, areas[k]]),
  );
}
