import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc, type SvcRun } from '../support/run-svc';

const REPORT = 'fixtures/freshness-cr26.json';
const NOW = '2026-11-21T00:00:00Z';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-cr26-freshness-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** svc in a directory of its own, with the svc.config.json given (none when undefined). */
const inDir = (name: string, args: string[], config?: unknown): SvcRun => {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return svc(args, { cwd: dir });
};

describe('svc ksi list --catalog cr26', () => {
  it('names the release, then lists the 46 KSIs under their 10 themes', () => {
    const run = svc(['ksi', 'list', '--catalog', 'cr26']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'CR26 2026.10.05.01: 46 KSIs in 10 themes',
      '',
      'CED Cybersecurity Education: 1 KSI',
      'KSI-CED-RAT  Reviewing All Training [cp-3, ir-2, ps-6, at-2, at-2.2, at-2.3, at-3.5, at-4, ir-2.3, at-3, sr-11.1]',
      '',
    ]);
    expect(lines.filter((l) => l.startsWith('KSI-'))).toHaveLength(46);
    expect(lines.filter((l) => /^[A-Z]{3} .*: \d+ KSIs?$/.test(l))).toHaveLength(10);
  });

  it('filters by theme (--area) and by a control the KSI lists (--control)', () => {
    expect(svc(['ksi', 'list', '--catalog', 'cr26', '--area', 'iam', '--control', 'IA-2(1)']).stdout).toBe(
      [
        'CR26 2026.10.05.01: 1 of 46 KSIs match, in 1 theme',
        '',
        'IAM Identity and Access Management: 1 KSI',
        'KSI-IAM-APM  Adopting Passwordless Methods [ac-3, ia-5.1, ia-5.2, ia-5.6, ia-6, ac-2, ia-2, ia-2.1, ia-2.2, ia-2.8, ia-5, ia-8, sc-23]',
        '',
      ].join('\n'),
    );
    expect(svc(['ksi', 'list', '--catalog', 'cr26', '--area', 'AC'])).toEqual({
      stdout: '',
      stderr: 'Error: --area AC: not a theme of CR26 2026.10.05.01; use one of CED, CMT, CNA, IAM, INR, MLA, PIY, RPL, SCR, SVC\n',
      status: 2,
    });
  });

  it('--json: the release, the counts, the themes shown and the KSIs', () => {
    const json = JSON.parse(svc(['ksi', 'list', '--catalog', 'cr26', '--json']).stdout);
    expect(Object.keys(json)).toEqual(['catalog', 'release', 'counts', 'themes', 'ksis']);
    expect(json).toMatchObject({ catalog: 'cr26', release: { version: '2026.10.05.01', date: '2026-10-05' }, counts: { ksis: 46, themes: 10, matched: 46 } });
    expect(json.themes[0]).toEqual({ id: 'CED', name: 'Cybersecurity Education' });
    expect(json.ksis).toHaveLength(46);
    expect(json.ksis[0]).toEqual({
      id: 'KSI-CED-RAT',
      theme: 'CED',
      name: 'Reviewing All Training',
      controls: ['cp-3', 'ir-2', 'ps-6', 'at-2', 'at-2.2', 'at-2.3', 'at-3.5', 'at-4', 'ir-2.3', 'at-3', 'sr-11.1'],
    });
  });

  it('keeps the 163 catalog without --catalog or with --catalog 163, and refuses another word (exit 2)', () => {
    expect(svc(['ksi', 'list', '--catalog', '163', '--control', 'ia-2.1']).stdout).toBe(svc(['ksi', 'list', '--control', 'ia-2.1']).stdout);
    expect(svc(['ksi', 'list', '--catalog', 'frmr.json'])).toMatchObject({
      stdout: '',
      stderr: expect.stringMatching(/^Error: Expected --catalog=frmr\.json to be one of: 163, cr26\n/),
      status: 2,
    });
  });
});

describe('svc ir freshness --class', () => {
  it('judges machine evidence by VDR-TFR-MVX for 20x Class B and non-machine by VDR-TFR-NMV; a stale MUST exits 1', () => {
    expect(svc(['ir', 'freshness', REPORT, '--class', 'B', '--type', '20x', '--now', NOW])).toEqual({
      stdout: [
        `Checking freshness of ${REPORT} at ${NOW} by CR26 2026.10.05.01, 20x Class B`,
        'Machine-based evidence: every 7 days (VDR-TFR-MVX, MUST)',
        'Non-machine evidence: every 3 months (VDR-TFR-NMV, MUST)',
        'KSIs: 3',
        'Fresh: 2',
        'Stale: 1 (KSI-IA-02)',
        'Undated: 0',
        '',
        '| KSI | Kind | Observed | Age (days) | Every | Rule | Force | Due | Owner |',
        '|---|---|---|---|---|---|---|---|---|',
        '| KSI-IA-02 | machine | 2026-11-10T09:00:00Z | 10.6 | 7 days | VDR-TFR-MVX | MUST | 2026-11-17T09:00:00Z | identity-team@agency.example |',
        '',
      ].join('\n'),
      stderr: '',
      status: 1,
    });
  });

  it("takes the type from the profile, says when Class D borrows Class C's cadence, and marks staleness under a SHOULD", () => {
    const d = inDir('d', ['ir', 'freshness', join(process.cwd(), REPORT), '--class', 'D', '--now', NOW], { fedramp: { type: '20x' } });
    expect(d.stdout.split('\n').slice(1, 4)).toEqual([
      'Machine-based evidence: every 3 days (VDR-TFR-MVX, MUST)',
      'Non-machine evidence: every 3 months (VDR-TFR-NMV, MUST)',
      "Note: VDR-TFR-MVX gives no Class D value in CR26 2026.10.05.01; svc uses Class C's (every 3 days, MUST)",
    ]);
    const rev5 = svc(['ir', 'freshness', REPORT, '--class', 'B', '--type', 'rev5', '--now', '2026-12-21T00:00:00Z']);
    expect(rev5.status).toBe(1);
    expect(rev5.stdout.split('\n').slice(1, 7)).toEqual([
      'Machine-based evidence: every 1 month (VDR-TFR-MVF, SHOULD)',
      'Non-machine evidence: every 3 months (VDR-TFR-NMV, MUST)',
      'KSIs: 3',
      'Fresh: 0',
      'Stale: 3 (KSI-AC-02 [SHOULD], KSI-AT-02, KSI-IA-02 [SHOULD])',
      'Undated: 0',
    ]);
  });

  it('--json: the cadences, and each entry with its kind and cadence', () => {
    const json = JSON.parse(svc(['ir', 'freshness', REPORT, '--class', 'B', '--type', '20x', '--now', NOW, '--json']).stdout);
    expect(json.cr26).toEqual({
      version: '2026.10.05.01',
      type: '20x',
      class: 'B',
      cadences: {
        machine: { kind: 'machine', rule: 'VDR-TFR-MVX', force: 'MUST', every: { unit: 'days', num: 7 } },
        non_machine: { kind: 'non-machine', rule: 'VDR-TFR-NMV', force: 'MUST', every: { unit: 'months', num: 3 } },
      },
      notes: [],
    });
    expect(json.counts).toEqual({ total: 3, fresh: 2, stale: 1, undated: 0 });
    expect(json.entries[1]).toEqual({
      ksi_id: 'KSI-AT-02',
      title: 'Security awareness training records',
      owner: 'grc-team@agency.example',
      evidence_kind: 'non-machine',
      cadence: { rule: 'VDR-TFR-NMV', force: 'MUST', every: { unit: 'months', num: 3 } },
      observed_at: '2026-09-01T00:00:00Z',
      dated_by: 'observed_at',
      age_seconds: 6998400,
      due_at: '2026-12-01T00:00:00Z',
      state: 'fresh',
    });
  });

  it('refuses a bad --class (exit 2), a profile with no type (exit 3), and a Rev5 Class A the data gives no cadence for (exit 3)', () => {
    expect(svc(['ir', 'freshness', REPORT, '--class', 'E'])).toEqual({
      stdout: '',
      stderr: 'Error: --class E: not a Certification Class; write A, B, C or D\n',
      status: 2,
    });
    expect(inDir('none', ['ir', 'freshness', join(process.cwd(), REPORT), '--class', 'B'])).toEqual({
      stdout: '',
      stderr:
        'Error: svc.config.json: fedramp.type: missing; svc ir freshness --class needs it: write "20x" or "rev5", or pass --type; see docs/configuration.md\n',
      status: 3,
    });
    expect(svc(['ir', 'freshness', REPORT, '--class', 'A', '--type', 'rev5'])).toMatchObject({
      stdout: '',
      stderr: expect.stringMatching(/^Error: CR26 2026\.10\.05\.01: VDR-TFR-MVF gives no timeframe for Class A, [^\n]*\n$/),
      status: 3,
    });
  });

  it('refuses an evidence_kind that is neither machine nor non-machine (exit 3, one line naming the result)', () => {
    const file = join(tmp, 'bad-kind.json');
    writeFileSync(
      file,
      JSON.stringify({
        results: [
          { ksi_id: 'KSI-AC-02', status: 'PASS' },
          { ksi_id: 'KSI-AT-02', status: 'PASS', evidence_kind: 'paper' },
        ],
      }),
    );
    expect(svc(['ir', 'freshness', file, '--class', 'B', '--type', '20x'])).toEqual({
      stdout: '',
      stderr: `Error: ${file}: results[1].evidence_kind: "paper" is not an evidence kind; write "machine" or "non-machine" (policies, procedures, training records), or leave it out for machine-based evidence\n`,
      status: 3,
    });
  });
});
