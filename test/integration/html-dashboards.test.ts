import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DRIFT_CLASSES, type DriftClass } from '../../src/domain/drift/drift-finding';
import { SEVERITIES, severityRank, type Severity } from '../../src/domain/governance/severity';
import type { Status } from '../../src/domain/ksi/status';
import {
  SLA_BUCKETS,
  type GovernanceRow,
  type RunDashboardModel,
  type SlaBucket,
  type TrendDashboardModel,
  type TrendPoint,
} from '../../src/domain/reporting/dashboard-model';
import { HtmlDashboardRenderer } from '../../src/infrastructure/renderers/html/html-dashboard-renderer';
import { openBrowser, visitHtml } from '../support/browser';

const HOSTILE = `<script>alert(1)</script> & "quoted" 'single'`;
const AREAS: [string, string][] = [
  ['AC', 'Access Control'],
  ['AU', 'Audit and Accountability'],
  ['CM', 'Configuration Management'],
  ['CP', 'Contingency Planning'],
  ['IA', 'Identification and Authentication'],
  ['IR', 'Incident Response'],
  ['RA', 'Risk Assessment'],
  ['SC', 'System and Communications Protection'],
  ['SI', 'System and Information Integrity'],
  ['UNMAPPED', 'UNMAPPED'],
];
const STATUS_CYCLE: Status[] = ['PASS', 'WARN', 'FAIL', 'PASS', 'FAIL', 'WARN', 'PASS'];
const SLA_DAYS: Record<Severity, number> = { Critical: 7, High: 30, Medium: 90, Low: 180 };
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const hex = (seed: string) => createHash('sha256').update(seed).digest('hex');

/** A run of `size` results over the ten areas, with every status and severity, a hostile title and hostile owners. */
function aRunModel(size: number): RunDashboardModel {
  const asOf = '2025-06-30';
  const rows = Array.from({ length: size }, (_, i): GovernanceRow => {
    const [area] = AREAS[i % AREAS.length];
    const status = STATUS_CYCLE[i % STATUS_CYCLE.length];
    const severity = SEVERITIES[(i * 3 + Math.floor(i / 4)) % SEVERITIES.length];
    return {
      ksi_id: `KSI-${area === 'UNMAPPED' ? 'XYZ' : area}-${String(i + 1).padStart(2, '0')}`,
      title: i === 5 ? HOSTILE : `Control objective ${i + 1} for ${area}`,
      area,
      status,
      action: status === 'PASS' ? 'MONITOR' : 'REMEDIATE',
      severity,
      owner: i % 9 === 4 ? `O'Brien & "Ops" <ops@example.gov>` : `team-${i % 4}@example.gov`,
      sla_days: SLA_DAYS[severity],
      due: status === 'PASS' ? null : addDays(asOf, ((i * 11) % 80) - 15),
      controls: [`${area.toLowerCase()}-2`, `${area.toLowerCase()}-6.1`],
    };
  }).sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || (a.ksi_id < b.ksi_id ? -1 : 1));
  const count = (status: Status, list = rows) => list.filter((r) => r.status === status).length;
  const unmapped = rows.filter((r) => r.area === 'UNMAPPED').length;
  const bucket = (due: string): SlaBucket => {
    const days = (Date.parse(due) - Date.parse(asOf)) / 86_400_000;
    return days < 0 ? 'Overdue' : days <= 7 ? 'Due within 7 days' : days <= 30 ? 'Due within 30 days' : 'Due later';
  };
  return {
    title: `Run dashboard ${HOSTILE}`,
    generated_at: '2025-07-01T08:00:00Z',
    as_of: asOf,
    input: { name: 'baseline & "june".json', sha256: hex('input') },
    merkle_root: hex('merkle'),
    tool: { name: 'svc', version: '0.5.0' },
    counts: { results: size, pass: count('PASS'), warn: count('WARN'), fail: count('FAIL'), mapped: size - unmapped, unmapped },
    areas: AREAS.map(([area, title]) => ({ area, title, list: rows.filter((r) => r.area === area) }))
      .filter((a) => a.list.length > 0)
      .map(({ area, title, list }) => ({ area, title, pass: count('PASS', list), warn: count('WARN', list), fail: count('FAIL', list) })),
    severities: SEVERITIES.map((severity) => ({
      severity,
      remediate: rows.filter((r) => r.severity === severity && r.action === 'REMEDIATE').length,
      monitor: rows.filter((r) => r.severity === severity && r.action === 'MONITOR').length,
    })),
    sla: SLA_BUCKETS.map((b) => ({ bucket: b, count: rows.filter((r) => r.due !== null && bucket(r.due) === b).length })),
    governance: rows,
  };
}

/** `size` weekly runs over eight areas with drifting rates; CP only from the 11th run on (a gap in its line). */
function aTrendModel(size: number): TrendDashboardModel {
  const areas = AREAS.slice(0, 8).map(([area, title]) => ({ area, title }));
  const runs: TrendPoint[] = Array.from({ length: size }, (_, i) => {
    const results = 120 + (i % 7);
    const rate = 0.55 + 0.35 * (i / Math.max(1, size - 1)) + 0.05 * Math.sin(i);
    const pass = Math.round(results * rate);
    const warn = Math.round((results - pass) / 3);
    const drift = Object.fromEntries(DRIFT_CLASSES.map((c, k) => [c, i === 0 ? 0 : (i * (k + 1)) % 4])) as Record<DriftClass, number>;
    return {
      seq: i + 1,
      id: hex(`run-${i}`),
      as_of: addDays('2024-07-01', 7 * i),
      pass_rate: pass / results,
      areas: Object.fromEntries(
        areas.filter(({ area }) => area !== 'CP' || i >= 10).map(({ area }, k) => [area, Math.min(1, Math.max(0, rate + 0.1 * Math.cos(i + k)))]),
      ),
      counts: { results, pass, warn, fail: results - pass - warn, mapped: results, unmapped: 0 },
      open: results - pass,
      overdue: Math.round((results - pass) / 4) + (i % 3),
      drift,
    };
  });
  return {
    title: `Continuous monitoring ${HOSTILE}`,
    generated_at: '2025-07-01T08:00:00Z',
    store: 'postgres://svc@db.internal/conmon',
    tool: { name: 'svc', version: '0.5.0' },
    areas,
    runs,
  };
}

const emptyRun = (): RunDashboardModel => ({
  ...aRunModel(0),
  title: 'Empty run',
  severities: SEVERITIES.map((severity) => ({ severity, remediate: 0, monitor: 0 })),
});
const emptyTrend = (): TrendDashboardModel => ({ ...aTrendModel(0), title: 'Empty store', areas: [] });

const renderer = new HtmlDashboardRenderer();

describe('HtmlDashboardRenderer markup', () => {
  it('gives the same bytes for the same model', () => {
    expect(new HtmlDashboardRenderer().runDashboard(aRunModel(40))).toBe(renderer.runDashboard(structuredClone(aRunModel(40))));
    expect(new HtmlDashboardRenderer().trendDashboard(aTrendModel(50))).toBe(renderer.trendDashboard(structuredClone(aTrendModel(50))));
  });

  it.each([
    ['run', () => renderer.runDashboard(aRunModel(40))],
    ['trend', () => renderer.trendDashboard(aTrendModel(50))],
  ])('allows exactly its one inline script, by the SHA-256 of its text (%s page)', (_, render) => {
    const html = render();
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(html.match(/<script/g)).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0][1], 'utf8').digest('base64');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toBe(`default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`);
  });

  it('is one offline document: no external reference, no inline event handler, everything from the model escaped', () => {
    const html = renderer.runDashboard(aRunModel(40));
    expect(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(html).toMatch(/<meta name="viewport"/);
    expect(html).not.toMatch(/\s(?:src|href|action)="(?!data:)/);
    expect(html).not.toMatch(/url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;');
    expect(html).toContain('O&#39;Brien &amp; &quot;Ops&quot; &lt;ops@example.gov&gt;');
    expect(html).toContain('baseline &amp; &quot;june&quot;.json');
  });

  it('says "No data" where an empty model has nothing to chart or list', () => {
    const run = renderer.runDashboard(emptyRun());
    const trend = renderer.trendDashboard(emptyTrend());
    expect(run.match(/<p class="no-data">No data: /g)).toHaveLength(4);
    expect(trend.match(/<p class="no-data">No data: /g)).toHaveLength(4);
    expect(run).not.toContain('<svg');
    expect(trend).not.toContain('<svg');
    expect(trend).toContain('<dt>First as of</dt><dd>—</dd>');
  });

  it('keeps a 163-row run page well under 200 kB', () => {
    expect(Buffer.byteLength(renderer.runDashboard(aRunModel(163)))).toBeLessThan(150_000);
  });
});

describe('HtmlDashboardRenderer pages in headless Chromium', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-dashboards-'));
    browser = await openBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const visit = (name: string, html: string, check: (page: Page) => Promise<void>) => visitHtml(browser, dir, name, html, check);

  const texts = (page: Page, table: string, column: number) => page.locator(`#${table} tbody tr td:nth-child(${column})`).allTextContents();
  const sortBy = (page: Page, table: string, column: number) => page.locator(`#${table} thead th:nth-child(${column}) button`).click();
  const ariaSort = (page: Page, table: string, column: number) => page.locator(`#${table} thead th:nth-child(${column})`).getAttribute('aria-sort');
  const nonZero = (values: number[]) => values.filter((v) => v !== 0).length;

  it('shows the run model: tiles, three charts and the governance table, with the hostile title as text', async () => {
    const model = aRunModel(40);
    await visit('run', renderer.runDashboard(model), async (page) => {
      expect(await page.title()).toBe(model.title);
      expect(await page.locator('h1').textContent()).toBe(model.title);
      expect(await page.locator('.facts dd').allTextContents()).toEqual([model.input.name, model.input.sha256, model.merkle_root, model.as_of]);
      expect(await page.locator('script').count()).toBe(1);
      expect(await page.locator('#governance-table td', { hasText: 'alert(1)' }).textContent()).toBe(HOSTILE);

      const tile = (key: string) => page.locator(`[data-tile="${key}"] b`).textContent();
      const poam = model.governance.filter((r) => r.status !== 'PASS' && r.due !== null).length;
      expect([await tile('total'), await tile('pass'), await tile('warn'), await tile('fail'), await tile('unmapped'), await tile('poam')]).toEqual(
        [model.counts.results, model.counts.pass, model.counts.warn, model.counts.fail, model.counts.unmapped, poam].map(String),
      );
      expect(poam).toBe(model.counts.warn + model.counts.fail);

      const chart = (id: string) => page.locator(`svg[data-chart="${id}"][role="img"]`);
      expect(await chart('status-by-area').locator('g[data-bar]').count()).toBe(10);
      expect(await chart('status-by-area').locator('rect[data-key]').count()).toBe(model.areas.reduce((n, a) => n + nonZero([a.pass, a.warn, a.fail]), 0));
      expect(await chart('status-by-area').locator('rect[data-key="FAIL"]').count()).toBe(model.areas.filter((a) => a.fail > 0).length);
      expect(await chart('status-by-area').locator('g[data-legend] text').allTextContents()).toEqual(['PASS', 'WARN', 'FAIL']);
      expect(await chart('actions-by-severity').locator('rect[data-key]').count()).toBe(nonZero(model.severities.map((s) => s.remediate + s.monitor)));
      expect(await chart('poam-by-sla').locator('rect[data-key]').count()).toBe(nonZero(model.sla.map((b) => b.count)));
      expect(await chart('poam-by-sla').locator('title').first().textContent()).toBe('POA&M items by SLA, as of 2025-06-30');

      expect(await page.locator('#governance-table tbody tr').count()).toBe(40);
      expect(await page.locator('#governance-table thead th').allTextContents()).toEqual([
        'KSI',
        'Title',
        'Area',
        'Status',
        'Action',
        'Severity',
        'Owner',
        'SLA (days)',
        'Due',
        'Controls',
      ]);
      expect(await texts(page, 'governance-table', 1)).toEqual(model.governance.map((r) => r.ksi_id));
    });
  });

  it('sorts the governance table by any header and filters it by typed text', async () => {
    const model = aRunModel(40);
    const ids = model.governance.map((r) => r.ksi_id);
    await visit('run-sorted', renderer.runDashboard(model), async (page) => {
      const table = 'governance-table';
      await sortBy(page, table, 6);
      const severities = await texts(page, table, 6);
      expect(severities).toEqual([...severities].sort((a, b) => severityRank(b as Severity) - severityRank(a as Severity)));
      expect(severities[0]).toBe('Critical');
      expect(await ariaSort(page, table, 6)).toBe('descending');
      await sortBy(page, table, 6);
      expect((await texts(page, table, 6))[0]).toBe('Low');
      expect((await texts(page, table, 6)).at(-1)).toBe('Critical');
      expect(await ariaSort(page, table, 6)).toBe('ascending');

      await sortBy(page, table, 1);
      expect(await texts(page, table, 1)).toEqual([...ids].sort(collator.compare));
      expect(await ariaSort(page, table, 1)).toBe('ascending');
      expect(await ariaSort(page, table, 6)).toBeNull();
      await sortBy(page, table, 1);
      expect(await texts(page, table, 1)).toEqual([...ids].sort(collator.compare).reverse());

      await sortBy(page, table, 4);
      const statuses = await texts(page, table, 4);
      expect(statuses.indexOf('WARN')).toBeGreaterThan(statuses.lastIndexOf('FAIL'));
      expect(statuses.indexOf('PASS')).toBeGreaterThan(statuses.lastIndexOf('WARN'));

      await sortBy(page, table, 8);
      const sla = (await texts(page, table, 8)).map(Number);
      expect(sla).toEqual([...sla].sort((a, b) => a - b));
      expect(new Set(sla)).toEqual(new Set([7, 30, 90, 180]));

      await sortBy(page, table, 9);
      const due = await texts(page, table, 9);
      const dated = model.governance.flatMap((r) => (r.due === null ? [] : [r.due])).sort();
      expect(due).toEqual([...dated, ...Array<string>(40 - dated.length).fill('—')]);
      await sortBy(page, table, 9);
      expect(await texts(page, table, 9)).toEqual([...[...dated].reverse(), ...Array<string>(40 - dated.length).fill('—')]);

      const filter = page.locator('input[data-filter="governance-table"]');
      await filter.fill('ksi-ac');
      const matching = ids.filter((id) => id.startsWith('KSI-AC-'));
      expect(await page.locator('#governance-table tbody tr:visible').count()).toBe(matching.length);
      expect((await page.locator('#governance-table tbody tr:visible td:first-child').allTextContents()).sort()).toEqual(matching.sort());
      expect(await page.locator('[data-count-for="governance-table"]').textContent()).toBe(`${matching.length} of 40 rows`);
      await filter.fill("o'brien");
      expect(await page.locator('#governance-table tbody tr:visible').count()).toBe(model.governance.filter((r) => r.owner.startsWith("O'Brien")).length);
      await filter.fill('');
      expect(await page.locator('#governance-table tbody tr:visible').count()).toBe(40);

      await page.locator('#governance-table thead th:nth-child(3) button').focus();
      await page.keyboard.press('Enter');
      expect(await ariaSort(page, table, 3)).toBe('ascending');
    });
  });

  it('shows the trend model: pass-rate lines per area, POA&M lines, drift columns and the runs table', async () => {
    const model = aTrendModel(50);
    await visit('trend', renderer.trendDashboard(model), async (page) => {
      expect(await page.locator('h1').textContent()).toBe(model.title);
      expect(await page.locator('.facts dd').allTextContents()).toEqual([model.store, '50', '2024-07-01', addDays('2024-07-01', 7 * 49)]);

      const passRate = page.locator('svg[data-chart="pass-rate"][role="img"]');
      expect(await passRate.locator('path[data-series]').count()).toBe(1 + model.areas.length);
      expect(await passRate.locator('g[data-series="overall"] circle').count()).toBe(50);
      expect(await passRate.locator('g[data-series="AC"] circle').count()).toBe(50);
      expect(await passRate.locator('g[data-series="CP"] circle').count()).toBe(40);
      expect(await passRate.locator('path[data-series="CP"]').getAttribute('data-points')).toBe('40');
      expect(await passRate.locator('g[data-legend] text').allTextContents()).toEqual(['Overall', ...model.areas.map((a) => a.area)]);
      expect(await passRate.locator('text', { hasText: '100%' }).count()).toBe(1);

      const poam = page.locator('svg[data-chart="poam-trend"]');
      expect(await poam.locator('path[data-series]').count()).toBe(2);
      expect(await poam.locator('g[data-series="overdue"] circle').count()).toBe(50);

      const drift = page.locator('svg[data-chart="drift-by-class"]');
      expect(await drift.locator('g[data-column]').count()).toBe(50);
      expect(await drift.locator('rect[data-key]').count()).toBe(model.runs.reduce((n, r) => n + nonZero(DRIFT_CLASSES.map((c) => r.drift[c])), 0));
      expect(await drift.locator('g[data-legend] text').allTextContents()).toEqual([...DRIFT_CLASSES]);

      const table = 'runs-table';
      expect(await page.locator(`#${table} tbody tr`).count()).toBe(50);
      expect((await texts(page, table, 3))[0]).toBe(model.runs[0].id.slice(0, 12));
      await sortBy(page, table, 1);
      await sortBy(page, table, 1);
      expect((await texts(page, table, 1)).map(Number)).toEqual(model.runs.map((r) => r.seq).reverse());
      await sortBy(page, table, 8);
      const rates = [...model.runs].sort((a, b) => a.pass_rate - b.pass_rate).map((r) => `${(r.pass_rate * 100).toFixed(1)}%`);
      expect(await texts(page, table, 8)).toEqual(rates);
      await sortBy(page, table, 2);
      expect(await texts(page, table, 2)).toEqual(model.runs.map((r) => r.as_of));
    });
  });

  it('draws a single run as single points', async () => {
    const model = aTrendModel(1);
    await visit('trend-single', renderer.trendDashboard(model), async (page) => {
      const passRate = page.locator('svg[data-chart="pass-rate"]');
      expect(await passRate.locator('path[data-series]').count()).toBe(1 + model.areas.length);
      // Overall and every area but CP, which joins the store from the 11th run.
      expect(await passRate.locator('circle').count()).toBe(1 + model.areas.length - 1);
      expect(await page.locator('svg[data-chart="poam-trend"] circle').count()).toBe(2);
      expect(await page.locator('#runs-table tbody tr').count()).toBe(1);
      expect(await page.locator('figure', { hasText: 'Drift findings by class' }).locator('.no-data').textContent()).toBe(
        'No data: no drift between the stored runs.',
      );
    });
  });

  it('shows "No data" for models with no results and no runs', async () => {
    await visit('run-empty', renderer.runDashboard(emptyRun()), async (page) => {
      expect(await page.locator('.no-data').count()).toBe(4);
      expect(await page.locator('.no-data').first().isVisible()).toBe(true);
      expect(await page.locator('[data-tile="total"] b').textContent()).toBe('0');
      expect(await page.locator('table').count()).toBe(0);
    });
    await visit('trend-empty', renderer.trendDashboard(emptyTrend()), async (page) => {
      expect(await page.locator('.no-data').allTextContents()).toEqual([
        'No data: the store has no runs.',
        'No data: the store has no runs.',
        'No data: the store has no runs.',
        'No data: the store has no runs.',
      ]);
    });
  });
});
