import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { AgencyStatusResult } from '../../../src/application/agency/agency-status';
import type { AgencyFinding, AgencyPull, PulledDocumentName } from '../../../src/domain/agency/pulled-documents';
import { recordPull as recordAgencyPull } from '../../support/agency-pulls';
import { FileAgencyStore } from '../../../src/infrastructure/agency/file-agency-store';
import { openBrowser, visitHtml } from '../../support/browser';
import { svc } from '../../support/run-svc';

const NOW = '2027-01-21T08:00:00Z';
const SCRIPT = `<script>alert("x")</script>`;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Records a pull of `provider` from `base` bringing `documents` (as JSON bytes) into a real file agency store. */
function recordPull(
  store: FileAgencyStore,
  provider: string,
  base: string,
  finished: string,
  documents: Partial<Record<PulledDocumentName, unknown>>,
  findings: AgencyFinding[] = [],
): Promise<AgencyPull> {
  return recordAgencyPull(store, provider, finished, documents, { base, findings });
}

const vuln = (id: string, extra: Record<string, unknown>) => ({ providerTrackingId: id, detection: { detectedAt: '2026-09-20T00:00:00Z' }, ...extra });
const VG_A = vuln('VG-A', { evaluationCompletedAt: '2026-09-21T00:00:00Z', isInternetReachable: true, isLikelyExploitable: true, currentRating: 4 });
const VG_B = vuln('VG-B', { evaluationCompletedAt: '2026-09-21T00:00:00Z', isInternetReachable: false, isLikelyExploitable: false, currentRating: 2 });
const sdr = (statuses: string[]) => ({ keySecurityIndicators: statuses.map((s, i) => ({ ksiId: `KSI-X-${i + 1}`, ksiImplementationStatus: s })) });
const cpo = (id: string, type: string) => ({ serviceIdentification: { fedRampPackageId: id, certificationType: type } });

/** Three providers: acme (class B, three pulls, one unreachable), evil (class C, hostile strings), quiet (class A, nothing to act on). */
async function fillStore(dir: string): Promise<void> {
  const store = new FileAgencyStore(dir);
  const acme = 'https://trust.acme.example';
  await recordPull(store, 'acme', acme, '2026-09-22T00:00:00Z', {
    cpo: cpo('FR2611250001', '20x'),
    sdr: sdr(['Implemented', 'Partially Implemented', 'Not Implemented']),
    ocr: { reportPeriod: { from: '2026-07-01', to: '2026-09-30' } },
    vdr: { vulnerabilities: [VG_A, VG_B] },
  });
  const first = (await store.pulls('acme'))[0];
  await store.appendPull({
    ...first,
    started: '2026-10-15T00:00:00Z',
    finished: '2026-10-15T00:00:00Z',
    outcome: 'failed',
    error: 'connect ECONNREFUSED 127.0.0.1:443',
    documents: first.documents.map((d) => ({ ...d, outcome: 'failed', attempts: 3, error: 'connect ECONNREFUSED 127.0.0.1:443' })),
  });
  await recordPull(store, 'acme', acme, '2027-01-20T00:00:00Z', {
    cpo: cpo('FR2611250001', '20x'),
    sdr: sdr(['Implemented', 'Implemented', 'Not Implemented']),
    vdr: { vulnerabilities: [{ ...VG_A, finalDisposition: 'Remediated' }, VG_B] },
  });
  await recordPull(
    store,
    'evil',
    'https://trust.evil.example',
    '2027-01-19T00:00:00Z',
    {
      cpo: cpo(`FR"'${SCRIPT}`, `${SCRIPT} & 'Rev5'`),
      sdr: sdr(['Implemented']),
      vdr: { vulnerabilities: [{ ...VG_A, providerTrackingId: `"><img src=x onerror=alert(1)>` }] },
      incidents: [{ providerTrackingId: `INC-${SCRIPT}`, reportType: `Initial"'`, incidentDescription: SCRIPT }],
    },
    [{ level: 'action', rule: 'CDS-CSO-FID', code: 'fedramp-id-mismatch', message: `the CPO says </script><script>alert(2)</script>` }],
  );
  await recordPull(store, 'quiet', 'https://trust.quiet.example', '2027-01-20T00:00:00Z', {
    cpo: cpo('FR2611250003', 'Rev5'),
    sdr: sdr(['Implemented', 'Implemented']),
    vdr: { vulnerabilities: [] },
  });
}

describe('svc agency report in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let status: AgencyStatusResult;
  let out: string;
  let stdout: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-portfolio-'));
    const config = {
      agency: {
        name: 'Dept of Examples',
        providers: [
          { name: 'acme', url: 'https://trust.acme.example', fedramp_id: 'FR2611250001', class: 'B' },
          { name: 'evil', url: 'https://trust.evil.example', class: 'C' },
          { name: 'quiet', url: 'https://trust.quiet.example', class: 'A' },
        ],
      },
    };
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
    await fillStore(join(dir, '.svc', 'agency'));
    out = join(dir, 'portfolio.html');
    const run = svc(['agency', 'report', '--out', out, '--now', NOW], { cwd: dir });
    expect([run.status, run.stderr]).toEqual([0, '']);
    stdout = run.stdout;
    const json = svc(['agency', 'status', '--json', '--now', NOW], { cwd: dir });
    status = JSON.parse(json.stdout) as AgencyStatusResult;
    browser = await openBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const visit = (name: string, check: (page: Page) => Promise<void>) => visitHtml(browser, dir, name, readFileSync(out, 'utf8'), check);
  const texts = (page: Page, table: string, column: number) => page.locator(`#${table} tbody tr td:nth-child(${column})`).allTextContents();
  const sortBy = (page: Page, table: string, column: number) => page.locator(`#${table} thead th:nth-child(${column}) button`).click();

  it('says where it wrote the page and its digest, and gives the same as JSON', () => {
    const sha256 = createHash('sha256').update(readFileSync(out)).digest('hex');
    expect(stdout).toBe(`Portfolio of 3 providers written to ${out} (sha256:${sha256})\n`);
    const again = svc(['agency', 'report', '--out', out, '--now', NOW, '--json'], { cwd: dir });
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      out,
      providers: 3,
      needingAction: 2,
      file: { name: 'portfolio.html', sha256: `sha256:${sha256}`, bytes: readFileSync(out).length },
    });
  });

  it('is one offline document allowing exactly its one script, with every provider string escaped', () => {
    const html = readFileSync(out, 'utf8');
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(html.match(/<script/g)).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0][1], 'utf8').digest('base64');
    expect(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`,
    );
    expect(html).not.toMatch(/\s(?:src|href|action)="(?!data:)/);
    expect(html).not.toMatch(/url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg|trust\.[a-z]+\.example)/);
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Rev5&#39;');
  });

  it('shows the portfolio: one row per provider as svc agency status has it, sortable and filterable', async () => {
    await visit('portfolio', async (page) => {
      expect(await page.title()).toBe('Portfolio of Dept of Examples');
      expect(await page.locator('.facts dd').allTextContents()).toEqual(['Dept of Examples', status.now, status.rules, '3', '2']);
      const tile = (key: string) => page.locator(`[data-tile="${key}"] b`).textContent();
      expect([await tile('providers'), await tile('needing-action'), await tile('overdue'), await tile('incidents')]).toEqual(['3', '2', '1', '1']);

      const table = 'portfolio-table';
      expect(await page.locator(`#${table} thead th`).allTextContents()).toEqual([
        'Provider',
        'FedRAMP ID',
        'Class',
        'Type',
        'Last pull',
        'Pull',
        'Last OCR',
        'Reviewed',
        'Unreviewed OCRs',
        'Next OCR due',
        'Open vulnerabilities',
        'Overdue',
        'Accepted',
        'Open incidents',
        'SCNs',
        'KSI changes',
        'Invalid or stale',
        'Actions',
      ]);
      expect(await page.locator(`#${table} tbody tr td:nth-child(1) .name`).allTextContents()).toEqual(['acme', 'evil', 'quiet']);
      expect(await texts(page, table, 2)).toEqual(status.providers.map((r) => r.fedrampId));
      expect((await texts(page, table, 2))[1]).toBe(`FR"'${SCRIPT}`);
      expect(await texts(page, table, 4)).toEqual(['20x', `${SCRIPT} & 'Rev5'`, 'Rev5']);
      expect(await texts(page, table, 18)).toEqual(status.providers.map((r) => String(r.actions.length)));
      expect(await texts(page, table, 12)).toEqual(['0', '1 (N4 1)', '0']);

      await sortBy(page, table, 18);
      const counts = status.providers.map((r) => r.actions.length).sort((a, b) => b - a);
      expect((await texts(page, table, 18)).map(Number)).toEqual(counts);
      expect(await page.locator(`#${table} thead th:nth-child(18)`).getAttribute('aria-sort')).toBe('descending');
      await sortBy(page, table, 1);
      expect(await page.locator(`#${table} tbody tr td:nth-child(1) .name`).allTextContents()).toEqual(['acme', 'evil', 'quiet'].sort(collator.compare));
      await sortBy(page, table, 1);
      expect(await page.locator(`#${table} tbody tr td:nth-child(1) .name`).allTextContents()).toEqual(['quiet', 'evil', 'acme']);

      await page.locator(`input[data-filter="${table}"]`).fill('rev5');
      expect(await page.locator(`#${table} tbody tr:visible .name`).allTextContents()).toEqual(['quiet', 'evil']);
      expect(await page.locator(`[data-count-for="${table}"]`).textContent()).toBe('2 of 3 rows');
    });
  });

  it("lists every row's actions as svc agency status words them, the hostile ones as text", async () => {
    await visit('portfolio-actions', async (page) => {
      const rows = status.providers.flatMap((r) => r.actions.map((a) => [r.provider, a]));
      expect(rows.length).toBeGreaterThan(3);
      expect(await texts(page, 'actions-table', 1)).toEqual(rows.map(([p]) => p));
      expect(await texts(page, 'actions-table', 2)).toEqual(rows.map(([, a]) => a));
      expect(await texts(page, 'actions-table', 2)).toContain('CDS-CSO-FID: the CPO says </script><script>alert(2)</script>');
      expect(await texts(page, 'actions-table', 2)).toContain(`incident INC-${SCRIPT} open (Initial"' report)`);
      expect(await page.locator('script').count()).toBe(1);
      expect(await page.locator('img').count()).toBe(0);
    });
  });

  it("draws each provider's trend over its pulls: KSIs implemented, open and overdue vulnerabilities", async () => {
    await visit('portfolio-trends', async (page) => {
      expect(await page.locator('#trends h3').allTextContents()).toEqual(['acme', 'evil', 'quiet']);
      const chart = (id: string) => page.locator(`svg[data-chart="${id}"][role="img"]`);
      expect(await chart('ksis-1').locator('g[data-legend] text').allTextContents()).toEqual(['Implemented', 'Listed']);
      expect(await chart('ksis-1').locator('path[data-series="implemented"]').getAttribute('data-points')).toBe('3');
      expect(await chart('ksis-1').locator('g[data-axis="x"] text').allTextContents()).toEqual(['1: 2026-09-22', '2: 2026-10-15', '3: 2027-01-20']);
      expect(await chart('ksis-1').locator('desc').textContent()).toBe('3 points from 1: 2026-09-22 to 3: 2027-01-20. Last values: Implemented 2, Listed 3.');
      expect(await chart('vulnerabilities-1').locator('desc').textContent()).toBe(
        '3 points from 1: 2026-09-22 to 3: 2027-01-20. Last values: Open 1, Overdue 0.',
      );
      expect(await chart('vulnerabilities-1').locator('g[data-series="overdue"] circle').count()).toBe(3);
      expect(await chart('vulnerabilities-2').locator('desc').textContent()).toBe(
        '1 point from 1: 2027-01-19 to 1: 2027-01-19. Last values: Open 1, Overdue 1.',
      );
      expect(await chart('vulnerabilities-3').locator('desc').textContent()).toBe(
        '1 point from 1: 2027-01-20 to 1: 2027-01-20. Last values: Open 0, Overdue 0.',
      );
      expect(await page.locator('#trends svg[role="img"]').count()).toBe(6);
      expect(await page.locator('#trends .no-data').count()).toBe(0);
    });
  });
});

describe('svc agency report refuses', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-portfolio-bad-'));
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ agency: { providers: [{ name: 'acme', url: 'https://trust.acme.example' }] } }));
    mkdirSync(join(dir, 'taken'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['agency', 'report'], 2, 'Missing required flag out'],
    [
      ['agency', 'report', '--out', 'p.html', '--now', 'yesterday'],
      2,
      '--now yesterday: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21',
    ],
  ])('svc %j: exit %i', (args, code, message) => {
    const run = svc(args, { cwd: dir });
    expect(run.status).toBe(code);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });

  it('refuses an --out that is a directory (exit 3)', () => {
    const run = svc(['agency', 'report', '--out', 'taken'], { cwd: dir });
    expect([run.status, run.stdout]).toEqual([3, '']);
    expect(run.stderr).toContain('taken: is a directory, expected a file path; name the file to write');
  });

  it('names a configuration without providers, and writes nothing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-portfolio-empty-'));
    try {
      const run = svc(['agency', 'report', '--out', 'p.html'], { cwd: empty });
      expect([run.status, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toContain('agency.providers names no provider; add one with svc agency add <name> --url <trust center>');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
