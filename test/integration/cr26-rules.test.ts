import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCr26Consistency } from '../../src/domain/fedramp/cr26-consistency';
import type { Cr26Data } from '../../src/domain/fedramp/cr26-data';
import { readCr26Rules, type Cr26Rules } from '../../src/domain/fedramp/cr26-rules';
import { builtInRules } from '../fakes/fixed-rules-source';

// The derivation script runs the compiled domain (npm test builds first): the same parser this suite checks.

const { derive, TARGET } = require('../../scripts/build-cr26.js') as { derive: (ref: string) => Cr26Data; TARGET: string };

const REFERENCE = join(__dirname, '..', '..', '..', 'shared', 'reference');
const FILE = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json');

const raw = JSON.parse(readFileSync(FILE, 'utf8')) as any;
const model: Cr26Rules = readCr26Rules(raw, FILE);

/** Every rule of the raw file, walked directly: FRR.<family>.data.<type>.<subset>.<id>. */
const rawRules = Object.entries(raw.FRR).flatMap(([family, f]: [string, any]) =>
  Object.entries(f.data).flatMap(([type, bySubset]: [string, any]) =>
    Object.entries(bySubset).flatMap(([subset, byId]: [string, any]) =>
      Object.entries(byId).map(([id, rule]: [string, any]) => ({ id, family, type, subset, rule })),
    ),
  ),
);
const rawKsis = Object.entries(raw.KSI).flatMap(([, theme]: [string, any]) =>
  Object.entries(theme.indicators).map(([id, ksi]: [string, any]) => ({ id, theme: theme.short_name, ksi })),
);
const rawSubsets = Object.values(raw.FRR).flatMap((f: any) =>
  [f.info.subsets, f.info['20x']?.subsets, f.info.rev5?.subsets].flatMap((s) => Object.keys(s ?? {})),
);
const rule = (id: string) => model.rules.find((r) => r.id === id)!;

describe('the official CR26 rules file 2026.07.14.01, read by readCr26Rules', () => {
  it('holds version 2026.07.14.01, 46 KSIs in 10 themes, and as many rules, families and subsets as the raw file', () => {
    expect(model.info).toMatchObject({ version: '2026.07.14.01', date: '2026-07-14' });
    expect(model.ksis).toHaveLength(46);
    expect(model.themes).toHaveLength(10);
    expect(model.ksis).toHaveLength(rawKsis.length);
    expect(model.themes.map((t) => t.id).sort()).toEqual(Object.keys(raw.KSI).sort());
    expect(model.rules.map((r) => r.id)).toEqual(rawRules.map((r) => r.id).sort());
    expect(model.families.map((f) => f.id)).toEqual(Object.keys(raw.FRR).sort());
    expect(model.families.flatMap((f) => f.subsets)).toHaveLength(rawSubsets.length);
    // The same counts, as read by hand with jq: 246 rules (225 all, 9 20x, 12 rev5) in 17 families and 54 subsets.
    expect([model.rules.length, model.families.length, rawSubsets.length]).toEqual([246, 17, 54]);
    expect(['all', '20x', 'rev5'].map((t) => model.rules.filter((r) => r.type === t).length)).toEqual(
      ['all', '20x', 'rev5'].map((t) => rawRules.filter((r) => r.type === t).length),
    );
    expect(checkCr26Consistency(model)).toMatchObject({ ok: true, counts: { rules: 246, families: 17, subsets: 54, ksis: 46, themes: 10 } });
  });

  it("keeps every rule's place, name, force, timeframe, per-class force and timeframe, and pain_timeframes table as the raw file states them", () => {
    const timeframe = (x: any) => (x.timeframe_type === undefined ? undefined : { unit: x.timeframe_type, num: x.timeframe_num });
    let classes = 0;
    let cells = 0;
    for (const { id, family, type, subset, rule: r } of rawRules) {
      const read = rule(id);
      expect({ id, family: read.family, type: read.type, subset: read.subset, name: read.name, force: read.force, timeframe: read.timeframe }).toEqual({
        id,
        family,
        type,
        subset,
        name: r.name,
        force: r.force,
        timeframe: timeframe(r),
      });
      expect(read.related).toEqual(r.related ?? []);
      expect(read.schema).toEqual(r.schema);
      for (const [key, variant] of Object.entries(r.varies_by_class ?? {}) as [string, any][]) {
        classes += 1;
        const mine = read.varies_by_class![key.toUpperCase() as 'A']!;
        expect({ id, key, force: mine.force, timeframe: mine.timeframe }).toEqual({ id, key, force: variant.force, timeframe: timeframe(variant) });
        for (const [rating, row] of Object.entries(variant.pain_timeframes ?? {}) as [string, any][]) {
          expect(Object.keys(mine.pain_timeframes![rating]).sort()).toEqual(Object.keys(row).sort());
          for (const [category, cell] of Object.entries(row) as [string, any][]) {
            cells += 1;
            expect(mine.pain_timeframes![rating][category]).toEqual({ unit: cell.timeframe_type, num: cell.timeframe_num, name: cell.description });
          }
        }
      }
    }
    expect(classes).toBe(model.rules.reduce((n, r) => n + Object.keys(r.varies_by_class ?? {}).length, 0));
    expect(cells).toBeGreaterThan(0);
  });

  it("keeps every KSI's theme, name and controls as the raw file states them", () => {
    for (const { id, theme, ksi } of rawKsis) {
      const read = model.ksis.find((k) => k.id === id)!;
      expect({ id, theme: read.theme, name: read.name, controls: read.controls, classes: Object.keys(read.varies_by_class ?? {}) }).toEqual({
        id,
        theme,
        name: ksi.name,
        controls: ksi.controls,
        classes: Object.keys(ksi.varies_by_class ?? {}).map((c) => c.toUpperCase()),
      });
    }
  });

  it('reads the facts of a few rules as FedRAMP wrote them (checked by reading the file)', () => {
    expect(rule('VDR-TFR-MVX')).toMatchObject({
      family: 'VDR',
      subset: 'TFR',
      type: '20x',
      name: 'Persistent Machine Verification and Validation for 20x',
      varies_by_class: {
        A: { force: 'SHOULD', timeframe: { unit: 'months', num: 1 } },
        B: { force: 'MUST', timeframe: { unit: 'days', num: 7 } },
        C: { force: 'MUST', timeframe: { unit: 'days', num: 3 } },
      },
    });
    expect(rule('VDR-TFR-MVX').varies_by_class?.D).toBeUndefined();
    const pvr = rule('VDR-TFR-PVR');
    expect(pvr).toMatchObject({ type: 'all', related: ['VER-EVA-EPA'] });
    expect(pvr.force).toBeUndefined();
    expect(Object.values(pvr.varies_by_class!).map((c) => c.force)).toEqual(['SHOULD', 'SHOULD', 'SHOULD', 'SHOULD']);
    const d = pvr.varies_by_class!.D!.pain_timeframes!;
    expect(d['1']).toEqual({});
    expect(d['5']).toEqual({
      irv_lev: { unit: 'hours', num: 12, name: 'Internet-Reachable Vulnerability + Likely Exploitable Vulnerability' },
      nirv_lev: { unit: 'days', num: 1, name: 'Not Internet-Reachable Vulnerability + Likely Exploitable Vulnerability' },
      nlev: { unit: 'days', num: 8, name: 'Not Likely Exploitable Vulnerability' },
    });
    expect(pvr.varies_by_class!.C!.pain_timeframes!['2'].irv_lev).toMatchObject({ unit: 'days', num: 48 });
    expect(rule('IEC-CSO-IIR').varies_by_class!.D!.pain_timeframes!['3'].iir).toEqual({ unit: 'hours', num: 0.25, name: 'Initial Incident Report' });
    expect(rule('VDR-TFR-NMV')).toMatchObject({ force: 'MUST', type: 'all' });
    expect(model.ksis.find((k) => k.id === 'KSI-IAM-APM')).toEqual({
      id: 'KSI-IAM-APM',
      theme: 'IAM',
      name: 'Adopting Passwordless Methods',
      controls: ['ac-3', 'ia-5.1', 'ia-5.2', 'ia-5.6', 'ia-6', 'ac-2', 'ia-2', 'ia-2.1', 'ia-2.2', 'ia-2.8', 'ia-5', 'ia-8', 'sc-23'],
    });
  });

  it('finds the one class whose statement defers to a pilot: SDR-CSX-KMT Class D, the 20x Phase 4 Pilot', () => {
    const deferred = model.rules.flatMap((r) =>
      Object.entries(r.varies_by_class ?? {})
        .filter(([, v]) => v.deferred_to !== undefined)
        .map(([c, v]) => `${r.id} ${c}: ${v.deferred_to}`),
    );
    expect(deferred).toEqual(['SDR-CSX-KMT D: 20x Phase 4 Pilot']);
    expect(raw.FRR.SDR.data['20x'].CSX['SDR-CSX-KMT'].varies_by_class.d.statement).toContain('specifics to be set during the 20x Phase 4 Pilot');
    expect(builtInRules().rules.find((r) => r.id === 'SDR-CSX-KMT')!.varies_by_class!.D!.deferred_to).toBe('20x Phase 4 Pilot');
  });

  it("reads the families' effective dates, per type where given, and the subsets' applicability", () => {
    const family = (id: string) => model.families.find((f) => f.id === id)!;
    expect(family('VDR').effective).toEqual({
      all: {
        is: 'required',
        current_status: 'Mandated by CISA BOD 26-04',
        optional_adoption: '2026-07-04',
        obtain: '2026-12-07',
        maintain: '2026-12-07',
        grace: '2027-03-07',
        grace_until_next_assessment: false,
      },
    });
    expect(family('CCM').effective['20x']).toMatchObject({
      obtain: '2026-07-04',
      maintain: '2027-01-01',
      grace: '2027-01-01',
      grace_until_next_assessment: true,
    });
    expect(family('CDS').effective.rev5).toMatchObject({ obtain: '2027-01-01', maintain: '2027-08-01', grace: '2028-02-01' });
    expect(family('FRC').subsets.find((s) => s.id === 'CSX')).toEqual({
      id: 'CSX',
      type: '20x',
      name: '20x-Specific Provider Responsibilities',
      applicability: { types: ['20x'], paths: ['program'], classes: ['B', 'C', 'D'], affects: ['Providers'] },
    });
  });

  it('keeps the statements apart: one per rule or class that has one', () => {
    const texts = rawRules.filter((r) => r.rule.statement !== undefined);
    expect(texts.length).toBeGreaterThan(200);
    for (const { id, rule: r } of texts) expect(model.statements?.[id]?.text).toBe(r.statement);
    expect(model.statements?.['VDR-TFR-MVX']?.classes?.B).toBe(raw.FRR.VDR.data['20x'].TFR['VDR-TFR-MVX'].varies_by_class.b.statement);
  });
});

describe('the checked-in CR26 data file (src/domain/fedramp/data/cr26-rules.json)', () => {
  const text = readFileSync(TARGET, 'utf8');
  // Built from the newest release in the reference directory (docs/fedramp.md, "FedRAMP releases").
  const NEWEST = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json');
  const model: Cr26Rules = readCr26Rules(JSON.parse(readFileSync(NEWEST, 'utf8')), NEWEST);

  it('is what scripts/build-cr26.js derives from the reference files now, byte for byte, every time', () => {
    const derived = `${JSON.stringify(derive(REFERENCE), null, 2)}\n`;
    expect(derived).toBe(text);
    expect(`${JSON.stringify(derive(REFERENCE), null, 2)}\n`).toBe(derived);
    expect(() =>
      execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-cr26.js'), REFERENCE, '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('names its source with its sha256, and reads back into the official model without statements', () => {
    const data = JSON.parse(text) as Cr26Data;
    expect(data.source).toEqual({
      file: 'fedramp-consolidated-rules.2026.10.05.01.json',
      version: '2026.10.05.01',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { statements, ...official } = model;
    expect(statements).toBeDefined();
    const bundled = builtInRules();
    expect({ ...bundled, aliases: {}, retired: [], source: undefined }).toEqual({ ...official, source: undefined });
  });

  it('holds no statement sentence of FedRAMP', () => {
    const sentences = Object.values(model.statements ?? {})
      .flatMap((s) => [s.text, ...Object.values(s.classes ?? {})])
      .filter((s): s is string => s !== undefined && s.length >= 40);
    expect(sentences.length).toBeGreaterThan(300);
    const leaked = sentences.filter((s) => text.includes(JSON.stringify(s).slice(1, -1)));
    expect(leaked).toEqual([]);
    expect(text).not.toContain('"statement"');
  });

  it('maps the numeric and 0.9.x ids through fka links, and lists the ids CR26 retired with the reason', () => {
    const { aliases, retired } = builtInRules();
    expect([Object.keys(aliases).length, retired.length]).toEqual([86, 273]);
    expect(Object.keys(aliases).filter((id) => id.startsWith('KSI-'))).toHaveLength(44);
    expect(aliases).toMatchObject({ 'KSI-IAM-02': 'KSI-IAM-APM', 'KSI-TPR-04': 'KSI-SCR-MON', 'FRR-VDR-TF-02': 'VDR-TFR-KEV', 'FRR-SCN-TR-01': 'SCN-TRF-TPR' });
    const entry = (id: string) => retired.find((r) => r.id === id);
    expect(entry('KSI-IAM-01')).toEqual({ id: 'KSI-IAM-01', kind: 'ksi', last_release: '25.12A', reason: 'not-in-cr26', via: 'KSI-IAM-MFA' });
    expect(entry('KSI-IAM-MFA')).toEqual({ id: 'KSI-IAM-MFA', kind: 'ksi', last_release: '0.9.43-beta', reason: 'not-in-cr26' });
    expect(entry('KSI-SVC-03')).toEqual({ id: 'KSI-SVC-03', kind: 'ksi', last_release: '25.12A', reason: 'flagged-retired' });
    expect(entry('KSI-AUD-01')).toEqual({ id: 'KSI-AUD-01', kind: 'ksi', last_release: '25.05A', reason: 'no-successor' });
    expect(entry('KSI-CSX-SUM')).toMatchObject({ kind: 'rule', reason: 'not-in-cr26' });
    // Every 0.9.43-beta KSI either is in CR26 or is retired, and every fka of a CR26 KSI is its alias.
    const frmr = JSON.parse(readFileSync(join(REFERENCE, 'fedramp', 'FRMR.documentation.0.9.43-beta.json'), 'utf8'));
    const current = new Set(model.ksis.map((k) => k.id));
    for (const theme of Object.values(frmr.KSI) as any[]) {
      for (const [id, ksi] of Object.entries(theme.indicators) as [string, any][]) {
        if (current.has(id)) expect(aliases[ksi.fka]).toBe(id);
        else expect([id, entry(id)?.reason, entry(ksi.fka)?.via]).toEqual([id, 'not-in-cr26', id]);
      }
    }
    expect(checkCr26Consistency(builtInRules())).toMatchObject({ ok: true, counts: { aliases: 86, retired: 273 } });
  });
});
