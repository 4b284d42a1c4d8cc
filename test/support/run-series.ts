import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import catalogData from '../../src/domain/catalog/data/ksi-catalog.json';

export const SERIES_TENANT = 'contoso.onmicrosoft.com';
/** The first run's day; runs follow every three days (the machine-check frequency). */
export const SERIES_START = '2026-06-01';

/** Day `n` (1-based) of the series: YYYY-MM-DD. */
export function seriesDay(n: number): string {
  const date = new Date(`${SERIES_START}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + (n - 1) * 3);
  return date.toISOString().slice(0, 10);
}

/**
 * Writes `count` normalized reports of one tenant, three days apart, as a scanner would over months of continuous
 * monitoring. Deterministic: a seeded generator flips a few statuses per run, and a script of known events lets tests
 * assert the lifecycle exactly:
 * - KSI-IA-02 fails from run 5 to run 12 (24 days, past its 7-day SLA: overdue at run 8), passes from run 13;
 * - KSI-AC-02 passes, goes WARN at run 20 and FAIL at run 21 (risk change), passes again at run 30;
 * - KSI-AU-03 is missing from run 30 on; KSI-ZZ-01 (outside the catalog) fails throughout;
 * - the scanner's version changes at run 25.
 * Returns the file paths in order.
 */
export function writeRunSeries(dir: string, count = 50, ksiCount = 40): string[] {
  const ids = (catalogData.ksis as { id: string }[])
    .map((k) => k.id)
    .filter((id) => !['KSI-IA-02', 'KSI-AC-02', 'KSI-AU-03'].includes(id))
    .slice(0, ksiCount - 3);
  let seed = 20261121;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const status = new Map<string, string>(ids.map((id) => [id, 'PASS']));
  const files: string[] = [];
  for (let n = 1; n <= count; n++) {
    for (const id of ids) {
      const r = random();
      const now = status.get(id);
      status.set(id, now === 'PASS' ? (r < 0.03 ? 'FAIL' : r < 0.06 ? 'WARN' : 'PASS') : r < 0.35 ? 'PASS' : (now as string));
    }
    const day = seriesDay(n);
    const scripted: [string, string][] = [
      ['KSI-IA-02', n >= 5 && n <= 12 ? 'FAIL' : 'PASS'],
      ['KSI-AC-02', n === 20 ? 'WARN' : n >= 21 && n < 30 ? 'FAIL' : 'PASS'],
      ...(n < 30 ? ([['KSI-AU-03', 'PASS']] as [string, string][]) : []),
      ['KSI-ZZ-01', 'FAIL'],
    ];
    const results = [...ids.map((id) => [id, status.get(id) as string] as [string, string]), ...scripted].map(([ksi_id, s], i) => ({
      ksi_id,
      status: s,
      observed_at: `${day}T06:${String(i % 60).padStart(2, '0')}:00Z`,
      source: 'ScubaGear',
      evidence: { run: n % 7 === 0 && ksi_id === 'KSI-SC-08' ? 'rotated' : 'steady', finding: s },
    }));
    const file = join(dir, `run-${String(n).padStart(2, '0')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          schema_version: '1',
          generated_at: `${day}T07:00:00Z`,
          source: { tool: 'ScubaGear', version: n < 25 ? '1.5.1' : '1.6.0', tenant: SERIES_TENANT },
          results,
        },
        null,
        1,
      ),
    );
    files.push(file);
  }
  return files;
}
