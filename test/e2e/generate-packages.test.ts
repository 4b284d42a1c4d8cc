import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Workbook, type Worksheet } from 'exceljs';
import { openBrowser, withPage } from '../support/browser';
import { svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const AC2_HASH = 'sha256:eac5f9ad0539d8d4864f7dab225cd763e6fd1d35e7c4e6ae4ad7b06d619e2749';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-generate-packages-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string) => join(tmp, name);

async function readWorkbook(file: string): Promise<Workbook> {
  const workbook = new Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

function rowValues(sheet: Worksheet, row: number): unknown[] {
  return (sheet.getRow(row).values as unknown[]).slice(1);
}

/** Every file under dir, `/`-separated and sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split('\\').join('/'))
    .sort();
}

function treeBytes(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((p) => [p, readFileSync(join(dir, p), 'utf8')]));
}

describe('svc generate ssp | poam', () => {
  it('writes the OSCAL SSP that svc oscal generate --model ssp writes', () => {
    expect(svc(['generate', 'ssp', SAMPLE, '--out', at('ssp.json')])).toEqual({ stdout: `OSCAL SSP written to ${at('ssp.json')}\n`, stderr: '', status: 0 });
    svc(['oscal', 'generate', SAMPLE, '--model', 'ssp', '--out', at('ssp-oscal.json')]);
    expect(readFileSync(at('ssp.json'), 'utf8')).toBe(readFileSync(at('ssp-oscal.json'), 'utf8'));
  });

  it('writes the FedRAMP POA&M workbook that ir poam-export --format xlsx writes, byte for byte', () => {
    expect(svc(['generate', 'poam', SAMPLE, '--out', at('poam.xlsx')])).toEqual({
      stdout: `POA&M workbook written to ${at('poam.xlsx')}\n`,
      stderr: '',
      status: 0,
    });
    svc(['ir', 'poam-export', SAMPLE, '--format', 'xlsx', '--out', at('poam-export.xlsx')]);
    expect(readFileSync(at('poam.xlsx')).equals(readFileSync(at('poam-export.xlsx')))).toBe(true);
  });
});

describe('svc generate crm', () => {
  it('writes a CRM sheet (one row per baseline control) and a Summary sheet that exceljs reads back', async () => {
    expect(svc(['generate', 'crm', SAMPLE, '--out', at('crm.xlsx')])).toEqual({
      stdout: `Customer responsibility matrix written to ${at('crm.xlsx')}\n`,
      stderr: '',
      status: 0,
    });
    const workbook = await readWorkbook(at('crm.xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['CRM', 'Summary']);
    const crm = workbook.getWorksheet('CRM') as Worksheet;
    expect(rowValues(crm, 1)).toEqual([
      'Control ID',
      'Control Name',
      'Responsibility',
      'Provider responsibility',
      'Customer responsibility',
      'KSI',
      'KSI status',
      'Evidence (SHA-256)',
    ]);
    expect(crm.rowCount).toBe(1 + 323);
    const byId = new Map<string, unknown[]>();
    crm.eachRow((row, n) => n > 1 && byId.set(String(row.getCell(1).value), rowValues(crm, n)));
    expect(byId.get('ac-2')).toEqual([
      'ac-2',
      'Account Management',
      'shared',
      'Implements the control in the platform and supplies the KSI evidence.',
      'Configures and operates the control in its own tenant (accounts, settings, reviews).',
      'KSI-AC-02',
      'FAIL',
      AC2_HASH,
    ]);
    expect(byId.get('pe-3')?.slice(0, 3)).toEqual(['pe-3', 'Physical Access Control', 'provider']);
    expect(byId.get('pe-3')).toHaveLength(5); // no KSI evidence: the three KSI cells stay blank
    expect(byId.get('at-1')?.[2]).toBe('customer');
    const summary = workbook.getWorksheet('Summary') as Worksheet;
    expect(rowValues(summary, 2)).toEqual(['System', 'contoso.onmicrosoft.com']);
    const counts: unknown[][] = [];
    summary.eachRow((row, n) => ['provider', 'shared', 'customer'].includes(String(row.getCell(1).value)) && counts.push(rowValues(summary, n)));
    expect(counts).toEqual([
      ['provider', 36, 0],
      ['shared', 264, 20],
      ['customer', 23, 0],
    ]);
  });

  it('prints its result under --json, and refuses a missing input (exit 3) naming the file', () => {
    const json = JSON.parse(svc(['generate', 'crm', SAMPLE, '--out', at('crm-json.xlsx'), '--json']).stdout);
    expect({ controls: json.controls, evidenced: json.evidenced, out: json.out }).toEqual({ controls: 323, evidenced: 20, out: at('crm-json.xlsx') });
    const missing = svc(['generate', 'crm', 'nope.json', '--out', at('never.xlsx')]);
    expect([missing.status, missing.stdout, existsSync(at('never.xlsx'))]).toEqual([3, '', false]);
    expect(missing.stderr).toMatch(/^Error: nope\.json: .*\n$/);
  });
});

describe('svc generate inventory', () => {
  it('writes the FedRAMP IIW of a substrate snapshot: template columns, one row per resource', async () => {
    expect(svc(['substrate', 'walk', 'fixtures/substrate/tree-a', '--out', at('snapshot.json')]).status).toBe(0);
    const snapshot = JSON.parse(readFileSync(at('snapshot.json'), 'utf8')) as {
      resources: { id: string; kind: string; file: string; sha256: string; category: string }[];
    };
    expect(svc(['generate', 'inventory', at('snapshot.json'), '--out', at('inventory.xlsx')])).toEqual({
      stdout: `Integrated inventory workbook written to ${at('inventory.xlsx')}\n`,
      stderr: '',
      status: 0,
    });
    const workbook = await readWorkbook(at('inventory.xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Inventory', 'Summary']);
    const sheet = workbook.getWorksheet('Inventory') as Worksheet;
    const header = rowValues(sheet, 1);
    expect(header).toHaveLength(25);
    expect(header.slice(0, 3)).toEqual(['UNIQUE ASSET IDENTIFIER', 'IPv4 or IPv6 Address', 'Virtual']);
    expect(header[24]).toBe('End-of-Life');
    expect(sheet.rowCount).toBe(1 + snapshot.resources.length);
    const first = snapshot.resources[0];
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1).value;
    expect([cell('UNIQUE ASSET IDENTIFIER'), cell('Asset Type'), cell('Location'), cell('Comments'), cell('Function'), cell('IPv4 or IPv6 Address')]).toEqual([
      first.id,
      first.kind,
      `tree-a/${first.file}`,
      `Resource content sha256:${first.sha256}`,
      first.category,
      null,
    ]);
  });

  it('refuses a file that is not a snapshot (exit 3), naming the file and the fix', () => {
    expect(svc(['generate', 'inventory', SAMPLE, '--out', at('bad.xlsx')])).toEqual({
      stdout: '',
      stderr: `Error: ${SAMPLE}: schema: expected "svc.substrate-snapshot/v1", found nothing; pass a snapshot written by svc substrate walk\n`,
      status: 3,
    });
    expect(existsSync(at('bad.xlsx'))).toBe(false);
  });
});

describe('svc generate docs', () => {
  it('writes index, area, control and POA&M pages whose relative links all resolve', () => {
    const out = at('docs');
    expect(svc(['generate', 'docs', SAMPLE, '--out', out])).toEqual({ stdout: `Documentation package written to ${out}\n`, stderr: '', status: 0 });
    const files = listFiles(out);
    expect(files.filter((f) => !f.startsWith('controls/'))).toEqual([
      'areas/AC.md',
      'areas/AU.md',
      'areas/IA.md',
      'areas/SC.md',
      'areas/UNMAPPED.md',
      'index.md',
      'poam.md',
    ]);
    expect(files.filter((f) => f.startsWith('controls/'))).toHaveLength(20);
    expect(files).toContain('controls/ac-2.md');
    const links: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(out, file), 'utf8');
      expect(text.split('\n')[0]).toMatch(/^# \S/);
      for (const [, href] of text.matchAll(/\]\(([^)]+)\)/g)) {
        expect(href).not.toMatch(/^([a-z]+:|\/)/);
        const target = resolve(dirname(join(out, file)), href);
        expect(relative(out, target).startsWith('..')).toBe(false);
        expect([file, href, existsSync(target)]).toEqual([file, href, true]);
        links.push(`${file} -> ${href}`);
      }
    }
    expect(links).toEqual(
      expect.arrayContaining([
        'index.md -> areas/AC.md',
        'index.md -> controls/ac-2.md',
        'index.md -> poam.md',
        'areas/AC.md -> ../controls/ac-2.md',
        'controls/ac-2.md -> ../areas/AC.md',
        'controls/ac-2.md -> ../poam.md',
      ]),
    );
    const control = readFileSync(join(out, 'controls/ac-2.md'), 'utf8');
    expect(control).toContain('# ac-2 Account Management\n');
    expect(control).toContain('Implementation status: **planned**');
    expect(control).toContain(`| KSI-AC-02 | FAIL | 2026-11-02T14:03:40Z | ScubaGear 1.5.1 | \`${AC2_HASH}\` | [POAM-KSI-AC-02](../poam.md) |`);
    expect(readFileSync(join(out, 'poam.md'), 'utf8')).toContain(
      '| POAM-KSI-AC-02 | KSI-AC-02 Privileged and guest accounts are reviewed | [ac-2](controls/ac-2.md), ',
    );
  });
});

describe('svc generate site', () => {
  it('writes the portal pages, hashes.html and a SHA256SUMS that matches every file', () => {
    const out = at('site');
    expect(svc(['generate', 'site', SAMPLE, '--out', out])).toEqual({ stdout: `Auditor portal written to ${out}\n`, stderr: '', status: 0 });
    const files = listFiles(out);
    expect(files.filter((f) => !f.startsWith('controls/'))).toEqual(['SHA256SUMS', 'evidence.html', 'findings.html', 'hashes.html', 'index.html', 'poam.html']);
    expect(files.filter((f) => f.startsWith('controls/'))).toHaveLength(20);
    const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8').trimEnd().split('\n');
    expect(sums.map((line) => line.slice(66))).toEqual(files.filter((f) => f !== 'SHA256SUMS'));
    for (const line of sums)
      expect(
        createHash('sha256')
          .update(readFileSync(join(out, line.slice(66))))
          .digest('hex'),
      ).toBe(line.slice(0, 64));
    const evidence = readFileSync(join(out, 'evidence.html'), 'utf8');
    expect(evidence).toContain(`<code>${AC2_HASH}</code>`);
    expect(evidence).toMatch(/<code id="merkle-root">sha256:[0-9a-f]{64}<\/code>/);
    for (const file of files.filter((f) => f.endsWith('.html'))) {
      expect([file, readFileSync(join(out, file), 'utf8').match(/<(script|link|img)[^>]+(src|href)="(?!data:)[^"]*"/)]).toEqual([file, null]);
    }
  });

  it('opens from file:// in Chromium and clicks through to a control graph: no errors, no request outside the directory', async () => {
    const out = at('site');
    const base = `file://${out}/`;
    const browser = await openBrowser();
    try {
      await withPage(async (page) => {
        const problems: string[] = [];
        const outside: string[] = [];
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('request', (r) => !r.url().startsWith(base) && !r.url().startsWith('data:') && outside.push(r.url()));
        await page.goto(`${base}index.html`);
        expect(await page.locator('h1').innerText()).toBe('Auditor portal: contoso.onmicrosoft.com');
        await page.getByRole('link', { name: 'ac-2', exact: true }).first().click();
        await page.waitForURL(`${base}controls/ac-2.html`);
        expect(await page.locator('h1').innerText()).toBe('ac-2 Account Management: contoso.onmicrosoft.com');
        expect(await page.locator('ul.graph li[data-node]').evaluateAll((items) => items.map((li) => li.getAttribute('data-node')))).toEqual([
          'control',
          'ksi',
          'policy',
          'evidence',
          'action',
          'poam',
        ]);
        expect(await page.locator('ul.graph [data-node="evidence"] > code').first().innerText()).toBe(AC2_HASH);
        await page.screenshot({ path: at('site-control.png'), fullPage: true });
        await page.getByRole('link', { name: 'Findings' }).click();
        expect(await page.locator('#finding-table tbody tr td:first-child').allInnerTexts()).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-IA-02']);
        await page.getByRole('link', { name: 'Hashes' }).click();
        expect(await page.locator('#hash-table tbody tr').count()).toBe(24); // every page but hashes.html itself
        expect(problems).toEqual([]);
        expect(outside).toEqual([]);
      }, browser);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('determinism under SOURCE_DATE_EPOCH', () => {
  it('gives identical workbook bytes and identical docs and site files for the same input', () => {
    for (const run of ['1', '2']) {
      expect(svc(['generate', 'crm', SAMPLE, '--out', at(`crm-${run}.xlsx`)]).status).toBe(0);
      expect(svc(['generate', 'inventory', at('snapshot.json'), '--out', at(`inventory-${run}.xlsx`)]).status).toBe(0);
      expect(svc(['generate', 'docs', SAMPLE, '--out', at(`docs-${run}`)]).status).toBe(0);
      expect(svc(['generate', 'site', SAMPLE, '--out', at(`site-${run}`)]).status).toBe(0);
    }
    expect(readFileSync(at('crm-1.xlsx')).equals(readFileSync(at('crm-2.xlsx')))).toBe(true);
    expect(readFileSync(at('inventory-1.xlsx')).equals(readFileSync(at('inventory-2.xlsx')))).toBe(true);
    expect(treeBytes(at('docs-2'))).toEqual(treeBytes(at('docs-1')));
    expect(treeBytes(at('site-2'))).toEqual(treeBytes(at('site-1')));
  });
});
