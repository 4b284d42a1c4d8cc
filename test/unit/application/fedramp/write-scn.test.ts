import { createHash } from 'node:crypto';
import { WriteScn, type WriteScnInput } from '../../../../src/application/fedramp/write-scn';
import { unitContainer, type UnitOptions } from '../../../support/unit-container';

const PROFILE = { type: '20x' as const, class: 'B' as const, fedramp_id: 'FR2612345678', package_uri: 'https://trust.example.com/fedramp/cpo.json' };
const ADAPTIVE: WriteScnInput = {
  type: 'adaptive',
  summary: 'Move the database to a new region',
  dates: { start: '2026-11-02', finish: '2026-11-16' },
  out: '/out/scn.json',
};
// Thanksgiving: the real calendar (UsFederalHolidays) keeps it; this double keeps what a test gives it.
const THANKSGIVING = '2026-11-26';

const scn = (options: UnitOptions = {}) => {
  const d = unitContainer({ now: '2026-11-20T12:00:00Z', profile: PROFILE, holidays: [THANKSGIVING], ...options });
  return { ...d, write: (input: WriteScnInput) => d.container.resolve(WriteScn).execute(input) };
};

describe('WriteScn (svc fedramp scn), unit', () => {
  it("writes an adaptive change's SCN and its Markdown twin, dates its notice 10 business days after the finish (skipping the calendar's holidays) and records it in the journal", async () => {
    const d = scn();
    const result = await d.write(ADAPTIVE);
    expect(result).toMatchObject({
      type: 'adaptive',
      out: '/out/scn.json',
      markdown: '/out/scn.md',
      undated: [],
      passed: [],
      ksis: [],
      controls: [],
      recorded: { seq: 1 },
      now: '2026-11-20T12:00:00Z',
    });
    expect(result.notices).toEqual([
      expect.objectContaining({
        rule: 'SCN-ADP-NTF',
        notice: 'after finishing',
        date: '2026-12-01',
        due: '2026-12-01T23:59:59Z',
        timeframe: { unit: 'bizdays', num: 10 },
        on: '2026-11-16',
      }),
    ]);
    expect([...d.writer.files.keys()]).toEqual(['/out/scn.json', '/out/scn.md']);
    const json = d.writer.files.get('/out/scn.json')!;
    expect(result.sha256).toBe(`sha256:${createHash('sha256').update(json, 'utf8').digest('hex')}`);
    expect(d.writer.files.get('/out/scn.md')).toMatch(/^# Significant Change Notification\n/);
    const [entry] = await d.store.journal();
    expect(entry).toMatchObject({
      seq: 1,
      kind: 'fedramp-scn',
      recorded_at: '2026-11-20T12:00:00Z',
      record: {
        type: 'adaptive',
        summary: 'Move the database to a new region',
        start: '2026-11-02',
        finish: '2026-11-16',
        notices: [{ rule: 'SCN-ADP-NTF', notice: 'after finishing', due: '2026-12-01T23:59:59Z' }],
        ksis: [],
        controls: [],
      },
    });
    expect((entry.record as { document: unknown }).document).toEqual(JSON.parse(json));
  });

  it('dates the notice on the next business day without a holiday the calendar keeps, and says which notices have passed by now', async () => {
    const d = scn({ holidays: [], now: '2026-12-01T09:00:00Z' });
    const result = await d.write(ADAPTIVE);
    expect(result.notices.map((n) => n.date)).toEqual(['2026-11-30']);
    expect(result.passed).toEqual(['SCN-ADP-NTF']);
  });

  it('writes a draft without recording it, titled as one', async () => {
    const d = scn();
    const result = await d.write({ ...ADAPTIVE, draft: true });
    expect(result.recorded).toBeUndefined();
    expect(await d.store.journal()).toEqual([]);
    expect(d.writer.files.get('/out/scn.md')).toMatch(/^# Significant Change Notification \(DRAFT\)\n/);
  });

  it('names the file after the day of now when no --out is given', async () => {
    const result = await scn().write({ ...ADAPTIVE, out: undefined });
    expect([result.out, result.markdown]).toEqual(['scn-2026-11-20.json', 'scn-2026-11-20.md']);
  });

  it('takes the KSIs and controls a drift report touches, and names the report by its file name only', async () => {
    const drift = {
      run_a: { name: 'monday.json' },
      run_b: { name: 'tuesday.json' },
      findings: [{ ksi_id: 'KSI-IAM-APM', class: 'DRIFT-IDENTITY', severity: 'P2', from: 'PASS', to: 'FAIL', reason: 'status worsened' }],
      counts: {},
    };
    const d = scn({ files: { '/reports/drift.json': drift } });
    const result = await d.write({ ...ADAPTIVE, drift: '/reports/drift.json' });
    expect(result.drift).toEqual({ file: '/reports/drift.json', kind: 'ir drift-detect', changes: 1 });
    expect(result.ksis).toEqual(['KSI-IAM-APM']);
    expect(result.controls.length).toBeGreaterThan(0);
    expect(result.controls.every((c) => /^[a-z]{2}-\d+(\.\d+)?$/.test(c))).toBe(true);
    expect(d.writer.files.get('/out/scn.json')).not.toContain('/reports/');
  });

  describe('refuses before anything is written or recorded', () => {
    it.each<[string, Partial<WriteScnInput>, string, string]>([
      ['a routine change', { type: 'routine' }, 'routine-change', '--type routine: routine recurring changes are not notified'],
      ['a type that is none', { type: 'minor' }, 'bad-flag-value', '--type minor: not a significant change type; write adaptive or transformative'],
      ['an empty summary', { summary: '  ' }, 'bad-flag-value', '--summary: empty; write a short description of the change'],
      ['an empty statement', { statements: { reason: ' ' } }, 'bad-flag-value', '--reason is empty; write it, or leave the flag out'],
      ['a drift file that is no drift report', { drift: '/reports/other.json' }, 'invalid-drift-report', '/reports/other.json: $: not a drift report'],
    ])('%s', async (_what, change, code, message) => {
      const d = scn({ files: { '/reports/other.json': { results: [] } } });
      await expect(d.write({ ...ADAPTIVE, ...change })).rejects.toMatchObject({ code, message: expect.stringContaining(message) });
      expect(d.writer.files.size).toBe(0);
      expect(await d.store.journal()).toEqual([]);
    });

    it('a profile without package_uri, naming the key and the file', async () => {
      const d = scn({ profile: { ...PROFILE, package_uri: undefined } as never });
      await expect(d.write(ADAPTIVE)).rejects.toMatchObject({ message: expect.stringMatching(/package_uri/) });
      expect(d.writer.files.size).toBe(0);
    });

    it('a journal that no longer verifies', async () => {
      const d = scn();
      await d.store.appendJournal('ocr', { period: 'one' }, '2026-11-01T00:00:00Z');
      (d.store.shared.journal[0].record as Record<string, unknown>).period = 'edited';
      await expect(d.write(ADAPTIVE)).rejects.toMatchObject({ code: 'run-store-tampered' });
      expect(d.writer.files.size).toBe(0);
    });
  });
});
