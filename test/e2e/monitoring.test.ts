import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from 'exceljs';
import ICAL from 'ical.js';
import { openBrowser, withPage } from '../support/browser';
import { schemaErrors } from '../support/oscal-schemas';
import { svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const SAMPLE_B = 'fixtures/sample-baseline-b.json';
const HASH_A = 'b8b7d4941762ae257015f68359c527947707be8281e3738bc85f1bc48cd25473';
const HASH_B = '8e87a8ff514e5a4a248b2106dd08008a2c4f4dc8c8fbe5ceeb99457db9157492';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-monitoring-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string) => join(tmp, name);

describe('svc ir drift-detect', () => {
  it('prints the classified findings as a Markdown table (exit 0 without --fail-on)', () => {
    expect(svc(['ir', 'drift-detect', SAMPLE_B, SAMPLE])).toEqual({
      stdout: [
        '# Drift findings: sample-baseline-b.json -> sample-baseline.json',
        '',
        `Run A: sample-baseline-b.json (sha256:${HASH_B})`,
        `Run B: sample-baseline.json (sha256:${HASH_A})`,
        '',
        '| Severity | Class | KSI | From | To | Reason |',
        '|---|---|---|---|---|---|',
        '| P1 | DRIFT-AUTHZ | KSI-AC-02 | PASS | FAIL | status worsened PASS -> FAIL on access controls ac-2, ac-2.1, ac-2.2, ac-2.3 and 6 more (FAIL severity Critical) |',
        '| P3 | DRIFT-PROVENANCE | KSI-SC-08 | PASS | PASS | evidence changed: content hash f4490cea3d27 -> b363a378d6c6 |',
        '',
        'Findings: 2 (P1 1, P2 0, P3 1, P4 0)',
        '',
      ].join('\n'),
      stderr: '',
      status: 0,
    });
  });

  it('exits 1 under --fail-on when a finding reaches that severity, 0 when none does', () => {
    expect(svc(['ir', 'drift-detect', SAMPLE_B, SAMPLE, '--fail-on', 'P1']).status).toBe(1);
    expect(svc(['ir', 'drift-detect', SAMPLE, SAMPLE_B, '--fail-on', 'P2']).status).toBe(0);
    expect(svc(['ir', 'drift-detect', SAMPLE, SAMPLE_B, '--fail-on', 'P4']).status).toBe(1);
  });

  it('prints findings and counts under --json, and compares bundles as well as reports', () => {
    const bundle = at('bundle-a');
    expect(svc(['ir', 'auditor-bundle', SAMPLE_B, '--out-dir', bundle]).status).toBe(0);
    const run = svc(['ir', 'drift-detect', bundle, SAMPLE, '--json', '--fail-on', 'P1']);
    expect(run.status).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json.findings[0]).toEqual({
      ksi_id: 'KSI-AC-02',
      class: 'DRIFT-AUTHZ',
      severity: 'P1',
      from: 'PASS',
      to: 'FAIL',
      reason: expect.stringMatching(/^status worsened PASS -> FAIL/),
    });
    expect(json.counts).toEqual({
      total: 2,
      severity: { P1: 1, P2: 0, P3: 1, P4: 0 },
      class: { 'DRIFT-IDENTITY': 0, 'DRIFT-AUTHZ': 1, 'DRIFT-SEMANTIC': 0, 'DRIFT-PROVENANCE': 1, 'DRIFT-SCHEMA': 0 },
    });
  });

  it('refuses a severity that is not P1-P4 (exit 2) and a missing run (exit 3)', () => {
    const bad = svc(['ir', 'drift-detect', SAMPLE, SAMPLE_B, '--fail-on', 'P5']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('Expected --fail-on=P5 to be one of: P1, P2, P3, P4');
    const missing = svc(['ir', 'drift-detect', SAMPLE, 'nope.json']);
    expect([missing.status, missing.stdout]).toEqual([3, '']);
    expect(missing.stderr).toMatch(/^Error: nope\.json: .*\n$/);
  });
});

describe('svc ir freshness', () => {
  it('lists nothing stale while every KSI is within its frequency (exit 0)', () => {
    expect(svc(['ir', 'freshness', SAMPLE, '--now', '2026-11-04T00:00:00Z'])).toEqual({
      stdout:
        'Checking freshness of fixtures/sample-baseline.json at 2026-11-04T00:00:00Z\nKSIs: 5\nFresh: 4\nStale: 0\nUndated: 0\nUnmapped: 1 (KSI-CNA-01)\n',
      stderr: '',
      status: 0,
    });
  });

  it('lists stale evidence with its age and due time, and exits 1', () => {
    const run = svc(['ir', 'freshness', SAMPLE, '--now', '2026-11-06T00:00:00Z']);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n').slice(3, 11)).toEqual([
      'Stale: 4 (KSI-AC-02, KSI-AU-02, KSI-IA-02, KSI-SC-08)',
      'Undated: 0',
      'Unmapped: 1 (KSI-CNA-01)',
      '',
      '| KSI | Observed | Age (days) | Every (days) | Due | Owner |',
      '|---|---|---|---|---|---|',
      '| KSI-AC-02 | 2026-11-02T14:03:40Z | 3.4 | 3 | 2026-11-05T14:03:40Z | identity-team@agency.example |',
      '| KSI-AU-02 | 2026-11-02T14:04:02Z | 3.4 | 3 | 2026-11-05T14:04:02Z | secops-team@agency.example |',
    ]);
    const json = JSON.parse(svc(['ir', 'freshness', SAMPLE, '--now', '2026-11-06T00:00:00Z', '--json']).stdout);
    expect(json.counts).toEqual({ total: 5, fresh: 0, stale: 4, undated: 0, unmapped: 1 });
  });

  it('reads a bundle directory too: observed_at travels in the evidence entries', () => {
    const bundle = at('bundle-fresh');
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', bundle]);
    expect(svc(['ir', 'freshness', bundle, '--now', '2026-11-06T00:00:00Z']).stdout).toContain('Stale: 4 (KSI-AC-02, KSI-AU-02, KSI-IA-02, KSI-SC-08)\n');
  });

  it('refuses a --now that is not a time (exit 2)', () => {
    expect(svc(['ir', 'freshness', SAMPLE, '--now', 'tomorrow'])).toEqual({
      stdout: '',
      stderr: 'Error: --now tomorrow: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21\n',
      status: 2,
    });
  });
});

describe('svc ir freshness-schedule', () => {
  it('prints when each KSI falls due, as a table by default', () => {
    const run = svc(['ir', 'freshness-schedule', SAMPLE, '--now', '2026-11-04T00:00:00Z']);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').slice(0, 5)).toEqual([
      'Evidence schedule of fixtures/sample-baseline.json at 2026-11-04T00:00:00Z',
      '',
      '| Due | KSI | Title | Every (days) | Last observed | Owner | State |',
      '|---|---|---|---|---|---|---|',
      '| 2026-11-05T14:03:12Z | KSI-IA-02 | Phishing-resistant MFA for all users | 3 | 2026-11-02T14:03:12Z | identity-team@agency.example | fresh |',
    ]);
  });

  it('writes an iCalendar file a calendar client imports: one event per due date, stable UIDs', () => {
    const ics = svc(['ir', 'freshness-schedule', SAMPLE, '--format', 'ics']).stdout;
    const again = svc(['ir', 'freshness-schedule', SAMPLE, '--format', 'ics']).stdout;
    expect(again).toBe(ics);
    const calendar = new ICAL.Component(ICAL.parse(ics));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events).toHaveLength(1);
    expect(events[0].uid).toMatch(/^2026-11-05-[0-9a-f]{16}@svc$/);
    expect(events[0].summary).toBe('FedRAMP evidence due: 4 KSIs (KSI-IA-02, KSI-AC-02, KSI-AU-02, …)');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('FedRAMP evidence due: contoso.onmicrosoft.com');
  });

  it('prints JSON with --format json', () => {
    const json = JSON.parse(svc(['ir', 'freshness-schedule', SAMPLE, '--format', 'json', '--now', '2026-11-04T00:00:00Z']).stdout);
    expect(json.now).toBe('2026-11-04T00:00:00Z');
    expect(json.input).toEqual({ name: 'sample-baseline.json', sha256: `sha256:${HASH_A}` });
    expect(json.entries.map((e: { ksi_id: string }) => e.ksi_id)).toEqual(['KSI-IA-02', 'KSI-AC-02', 'KSI-AU-02', 'KSI-SC-08']);
  });
});

describe('svc ir poam-export', () => {
  it('writes the same poam.json the auditor bundle holds', () => {
    const bundle = at('bundle-poam');
    svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', bundle]);
    const run = svc(['ir', 'poam-export', SAMPLE, '--format', 'json', '--out', at('poam.json')]);
    expect(run).toEqual({ stdout: `POA&M (json) written to ${at('poam.json')}\nRows: 3\nOverdue: 0\n`, stderr: '', status: 0 });
    expect(readFileSync(at('poam.json'), 'utf8')).toBe(readFileSync(join(bundle, 'poam.json'), 'utf8'));
  });

  it('writes the FedRAMP POA&M template as .xlsx: Open and Closed sheets, the template columns', async () => {
    expect(svc(['ir', 'poam-export', SAMPLE, '--format', 'xlsx', '--out', at('poam.xlsx')]).status).toBe(0);
    const workbook = new Workbook();
    await workbook.xlsx.readFile(at('poam.xlsx'));
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Open POA&M Items', 'Closed POA&M Items']);
    const open = workbook.getWorksheet('Open POA&M Items');
    expect((open?.getRow(5).values as unknown[]).slice(1, 4)).toEqual(['POAM ID', 'Controls', 'Weakness Name']);
    expect([6, 7, 8].map((r) => open?.getRow(r).getCell(1).value)).toEqual(['POAM-KSI-AC-02', 'POAM-KSI-AU-02', 'POAM-KSI-IA-02']);
    expect(open?.getRow(6).getCell(11).value).toEqual(new Date('2026-11-02T00:00:00Z'));
    expect(workbook.getWorksheet('Closed POA&M Items')?.getRow(6).getCell(1).value ?? null).toBeNull();
  });

  it('writes CSV with the template columns, and an OSCAL POA&M valid against both releases', () => {
    expect(svc(['ir', 'poam-export', SAMPLE, '--format', 'csv', '--out', at('poam.csv')]).status).toBe(0);
    const text = readFileSync(at('poam.csv'), 'utf8');
    expect(text.startsWith('\uFEFFPOAM ID,')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0].startsWith('POAM ID,Controls,Weakness Name,Weakness Description,Weakness Detector Source,')).toBe(true);
    expect(lines[1].startsWith('POAM-KSI-AC-02,"AC-2, AC-2(1), ')).toBe(true);
    expect(svc(['ir', 'poam-export', SAMPLE, '--format', 'oscal', '--out', at('poam.oscal.json')]).status).toBe(0);
    const oscal = JSON.parse(readFileSync(at('poam.oscal.json'), 'utf8'));
    expect(schemaErrors(oscal, '1.1.3')).toEqual([]);
    expect(schemaErrors(oscal, '1.2.1')).toEqual([]);
    expect(oscal['plan-of-action-and-milestones']['poam-items']).toHaveLength(3);
  });

  it('needs --format and --out (exit 2), and leaves nothing behind when the input is bad (exit 3)', () => {
    expect(svc(['ir', 'poam-export', SAMPLE, '--format', 'pdf', '--out', at('x.pdf')]).status).toBe(2);
    expect(svc(['ir', 'poam-export', SAMPLE, '--format', 'csv']).status).toBe(2);
    writeFileSync(at('broken.json'), '{"results": [');
    const run = svc(['ir', 'poam-export', at('broken.json'), '--format', 'xlsx', '--out', at('never.xlsx')]);
    expect(run.status).toBe(3);
    expect(existsSync(at('never.xlsx'))).toBe(false);
  });
});

describe('svc ir dashboard', () => {
  it('writes one self-contained page that Chromium renders: tiles, charts, a sortable governance table', async () => {
    const out = at('dashboard.html');
    expect(svc(['ir', 'dashboard', SAMPLE, '--out', out])).toEqual({ stdout: `Dashboard written to ${out}\n`, stderr: '', status: 0 });
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="(?!data:)/);
    const browser = await openBrowser();
    try {
      await withPage(async (page) => {
        const problems: string[] = [];
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(`file://${out}`);
        expect(await page.locator('h1').innerText()).toBe('Compliance dashboard: contoso.onmicrosoft.com');
        expect(await page.locator('svg[role="img"]').count()).toBe(3);
        const ids = () => page.locator('table tbody tr td:first-child').allInnerTexts();
        expect(await ids()).toEqual(['KSI-AC-02', 'KSI-IA-02', 'KSI-AU-02', 'KSI-CNA-01', 'KSI-SC-08']);
        await page.getByRole('button', { name: /^KSI/ }).click();
        expect(await ids()).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-CNA-01', 'KSI-IA-02', 'KSI-SC-08']);
        await page.screenshot({ path: at('dashboard.png'), fullPage: true });
        expect(problems).toEqual([]);
      }, browser);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
