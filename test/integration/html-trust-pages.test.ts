import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import rulesData from '../../src/domain/fedramp/data/cr26-rules.json';
import { trustPage } from '../../src/domain/trust/trust-page';
import { HtmlTrustPages } from '../../src/infrastructure/renderers/html/html-trust-pages';
import { openBrowser, visitHtml } from '../support/browser';
import { aTrustSdr, aTrustVdr, HOSTILE_TEXT, RULE_NAMES } from '../support/trust-center';

const pages = new HtmlTrustPages();
const FACTS = [
  { label: 'FedRAMP ID', value: 'FR2611250001', code: true },
  { label: 'JSON (same data)', value: `sha256:${'ab'.repeat(32)}`, code: true },
];
const render = (title: string, document: unknown) =>
  pages.page(trustPage({ title, facts: FACTS, document, names: RULE_NAMES, generatedAt: '2026-11-25T08:00:00Z', tool: { name: 'svc', version: '0.5.0' } }));

const KSIS = rulesData.ksis.map((k) => k.id);
const RULES = rulesData.rules.slice(0, 60);
const VDR_COLUMNS = [
  'Provider tracking ID',
  'Vulnerability description',
  'Current rating',
  'Detection',
  'Evaluation completed at',
  'Is internet reachable',
  'Is likely exploitable',
  'Overdue status',
  'Potential agency impact',
  'Projected next reduction',
  'Supplementary risk information',
];

describe('HtmlTrustPages markup', () => {
  it('gives the same bytes for the same document, everything from it escaped, nothing loaded', () => {
    const html = render('Security Decision Record', aTrustSdr());
    expect(render('Security Decision Record', structuredClone(aTrustSdr()))).toBe(html);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;</p>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/\ssrc=|url\(|@import/);
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
  });

  it("shows a Class C KSI's days under its chart, folded", () => {
    const daily = [{ date: '2026-11-24', status: 'Implemented' }, { date: '2026-11-25' }];
    const summary = { days: 30, implemented: 1, noEvidence: 29, notImplemented: 0, partially: 0 };
    const html = render('Key Security Indicator Metrics (SDR-CSX-KMT)', {
      ksiMetrics: { 'KSI-IAM-APM': { daily, last30Days: summary, lastYear: { ...summary, days: 2, noEvidence: 1 } } },
    });
    expect(html).toContain(
      '<details><summary>Each day (2)</summary><ol class="daily"><li><time datetime="2026-11-24">2026-11-24</time> Implemented</li><li><time datetime="2026-11-25">2026-11-25</time> no evidence</li></ol></details>',
    );
    expect(html).toContain('<figcaption>KSI-IAM-APM · Adopting Passwordless Methods</figcaption>');
  });
});

describe('HtmlTrustPages: the SDR and VDR pages in headless Chromium at 1280 px', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    // Kept after the run, so the screenshots can be looked at.
    dir = mkdtempSync(join(tmpdir(), 'svc-trust-pages-'));
    browser = await openBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** What is wider than the page: the document, and each table that would need its own sideways scrolling. */
  const overflow = async (page: Page) => ({
    page: await page.locator('html').evaluate((html) => html.scrollWidth),
    tables: await page
      .locator('.table-wrap')
      .evaluateAll((wraps) => wraps.filter((wrap) => wrap.scrollWidth > wrap.clientWidth).map((wrap) => wrap.querySelector('table')?.id)),
    cells: await page.locator('td').evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent)),
  });
  const headers = (page: Page, table: string) => page.locator(`#${table} thead th`).allTextContents();
  const column = (page: Page, table: string, n: number, inner = '') => page.locator(`#${table} tbody td:nth-child(${n}) ${inner}`.trim()).allTextContents();

  it('shows the SDR as tables of rule or KSI and name, status and statement, and one chart per KSI, nothing wider than the page', async () => {
    const png = await visitHtml(browser, dir, 'sdr', render('Security Decision Record', aTrustSdr()), async (page) => {
      const { page: width, tables, cells } = await overflow(page);
      expect(width).toBeLessThanOrEqual(1280);
      expect({ tables, cells }).toEqual({ tables: [], cells: [] });
      expect(await page.locator('h2').allTextContents()).toEqual([
        'Summary',
        'FedRAMP requirements',
        'Key security indicators',
        'KSI evidence',
        'KSI metrics',
        'Metadata',
      ]);

      const rules = 's-fed-ramp-requirements-t';
      expect(await headers(page, rules)).toEqual(['Rule', 'Status', 'Statement']);
      expect(await column(page, rules, 1, 'code')).toEqual(RULES.map((r) => r.id));
      expect(await column(page, rules, 1, '.name')).toEqual(RULES.map((r) => r.name));
      expect(await column(page, rules, 2)).toEqual(RULES.map((_, i) => ['Implemented', 'Partially Implemented', 'Not Implemented', ''][i % 4]));
      expect(await page.locator(`#${rules} tbody td:nth-child(2) .badge`).evaluateAll((badges) => badges.slice(0, 3).map((b) => b.className))).toEqual([
        'badge badge-PASS',
        'badge badge-WARN',
        'badge badge-FAIL',
      ]);
      expect(await page.locator(`#${rules} td`, { hasText: 'alert(1)' }).textContent()).toBe(HOSTILE_TEXT);
      expect((await column(page, rules, 3))[5]).toBe(
        `The provider meets ${RULES[5].name} through its documented process (statements file, section ${RULES[5].id}).Validation: svc: checked on every run against ${RULES[5].id}.`,
      );
      await page.locator(`#${rules} thead th:nth-child(2) button`).click();
      expect(await page.locator(`#${rules} thead th:nth-child(2)`).getAttribute('aria-sort')).toBe('descending');
      const sorted = await column(page, rules, 2);
      expect(sorted).toEqual([
        ...Array<string>(15).fill('Not Implemented'),
        ...Array<string>(15).fill('Partially Implemented'),
        ...Array<string>(15).fill('Implemented'),
        ...Array<string>(15).fill(''),
      ]);

      const ksis = 's-key-security-indicators-t';
      expect(await headers(page, ksis)).toEqual(['KSI', 'Status', 'Statement']);
      expect(await column(page, ksis, 1, 'code')).toEqual(KSIS);
      expect(await page.locator(`#${ksis} tbody tr:first-child td:nth-child(3) p b`).allTextContents()).toEqual(['Validation:', 'Tests:']);
      expect(await headers(page, 's-ksi-evidence-t')).toEqual(['KSI', 'Evidence description', 'Evidence location', 'Evidence type', 'Last updated']);
      expect(await page.locator('#s-ksi-evidence-t tbody tr').count()).toBe(3 * KSIS.length);

      const sortedKsis = [...KSIS].sort();
      expect(await page.locator('svg').count()).toBe(KSIS.length);
      expect(await page.locator('#s-ksi-metrics svg[data-chart^="ksi-metrics-"][role="img"]').count()).toBe(KSIS.length);
      expect(await page.locator('#s-ksi-metrics figcaption').allTextContents()).toEqual(sortedKsis.map((id) => `${id} · ${RULE_NAMES.get(id)}`));
      expect(await page.locator('#s-ksi-metrics .legend .badge').allTextContents()).toEqual([
        'Implemented',
        'Partially implemented',
        'Not implemented',
        'No evidence',
      ]);
      const chart = (id: string) => page.locator(`svg[data-chart="ksi-metrics-${id}"]`);
      // Each bar spans the width whatever its days (30, 365): the rectangles of both bars add up to the same width.
      const widths = await chart(sortedKsis[1])
        .locator('g[data-bar]')
        .evaluateAll((bars) => bars.map((bar) => [...bar.querySelectorAll('rect')].reduce((sum, r) => sum + Number(r.getAttribute('width')), 0)));
      expect(widths).toHaveLength(2);
      expect(Math.abs(widths[0] - widths[1])).toBeLessThan(0.5);
      expect(await chart(sortedKsis[1]).locator('g[data-bar] > text:last-child').allTextContents()).toEqual(['30 days', '365 days']);
      expect(
        await chart(sortedKsis[1])
          .locator('rect[data-key]')
          .evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-key'), r.getAttribute('data-value')])),
      ).toEqual([
        ['implemented', '11'],
        ['partially', '1'],
        ['not-implemented', '1'],
        ['no-evidence', '17'],
        ['implemented', '201'],
        ['partially', '21'],
        ['not-implemented', '11'],
        ['no-evidence', '132'],
      ]);
      // A KSI new this month has no year yet: its second bar is empty.
      expect(await chart(sortedKsis[7]).locator('g[data-bar="lastYear"] rect').count()).toBe(0);
      expect(await chart(sortedKsis[7]).locator('g[data-bar="lastYear"] > text:last-child').textContent()).toBe('0 days');
    });
    console.log(`SDR page screenshot: ${png}`);
  });

  it('shows the VDR with the tracking id and the description first, long digests and URLs wrapped inside the page', async () => {
    const vdr = aTrustVdr(8);
    const png = await visitHtml(browser, dir, 'vdr', render('Vulnerability Detail Report', vdr), async (page) => {
      const { page: width, tables, cells } = await overflow(page);
      expect(width).toBeLessThanOrEqual(1280);
      expect({ tables, cells }).toEqual({ tables: [], cells: [] });
      const table = 's-vulnerabilities-t';
      expect(await headers(page, table)).toEqual(VDR_COLUMNS);
      const groups = vdr.vulnerabilities;
      expect(await column(page, table, 1, 'code')).toEqual(groups.map((v) => v.providerTrackingId));
      expect(await column(page, table, 2)).toEqual(groups.map((v) => v.vulnerabilityDescription));
      expect((await column(page, table, 2))[3]).toBe(`CVE-2026-4000: ${HOSTILE_TEXT} (on 1 resource: db-1)`);
      expect((await column(page, table, 4))[0]).toBe('Detected at: 2026-11-10T08:00:00ZDetection source: Trivy');
      expect((await column(page, table, 8))[2]).toBe(
        'Is overdue: YesExplanation: not mitigated within 32 days of detection (VDR-TFR-PVR, Class B, N4 internet-reachable)',
      );
      // The longest description (three resources) is broken across lines, not cut or scrolled.
      const longest = page.locator(`#${table} tbody tr:nth-child(3) td:nth-child(2)`);
      expect(((await longest.boundingBox())?.height ?? 0) > 100).toBe(true);
    });
    console.log(`VDR page screenshot: ${png}`);
  });
});
