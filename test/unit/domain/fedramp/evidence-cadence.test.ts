import { InvalidInputError } from '../../../../src/domain/errors';
import { addCadence, isBusinessDay, cadenceText, evidenceCadence } from '../../../../src/domain/fedramp/evidence-cadence';
import { readCr26Rules, type Cr26Class, type Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE } from '../../../support/run-svc';
import { assessCr26Freshness, cr26FreshnessText } from '../../../../src/domain/freshness/cr26-freshness';
import type { AssessedResult } from '../../../../src/domain/assessment/assessment';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();

describe('evidenceCadence on the checked-in 2026.10.05.01 data', () => {
  const cadence = (type: '20x' | 'rev5', cls: Cr26Class) => {
    const c = evidenceCadence(rules, type, cls, 'machine');
    return [c.rule, c.force, cadenceText(c.every), c.from_class ?? '-'];
  };

  it("20x: VDR-TFR-MVX per class; Class D, which the release leaves out, takes Class C's and says so", () => {
    expect(cadence('20x', 'A')).toEqual(['VDR-TFR-MVX', 'SHOULD', '1 month', '-']);
    expect(cadence('20x', 'B')).toEqual(['VDR-TFR-MVX', 'MUST', '7 days', '-']);
    expect(cadence('20x', 'C')).toEqual(['VDR-TFR-MVX', 'MUST', '3 days', '-']);
    expect(cadence('20x', 'D')).toEqual(['VDR-TFR-MVX', 'MUST', '3 days', 'C']);
  });

  it('Rev5: VDR-TFR-MVF, monthly; SHOULD for B, MUST for C and D; no Class A value and none lower: an input error', () => {
    expect(cadence('rev5', 'B')).toEqual(['VDR-TFR-MVF', 'SHOULD', '1 month', '-']);
    expect(cadence('rev5', 'C')).toEqual(['VDR-TFR-MVF', 'MUST', '1 month', '-']);
    expect(cadence('rev5', 'D')).toEqual(['VDR-TFR-MVF', 'MUST', '1 month', '-']);
    expect(() => evidenceCadence(rules, 'rev5', 'A', 'machine')).toThrow(
      new InvalidInputError(
        'no-cadence',
        'CR26 2026.10.05.01: VDR-TFR-MVF gives no timeframe for Class A, so svc cannot judge machine-based evidence for rev5 Class A; use another --class or --type, or a release that gives it (SVC_FEDRAMP_RULES)',
      ),
    );
  });

  it('non-machine evidence: VDR-TFR-NMV, every 3 months, its force from the data, for every type and class: a field of the data since 2026.09.13.02, a prose fact in 2026.07.14.01', () => {
    const july = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json');
    const older = readCr26Rules(JSON.parse(readFileSync(july, 'utf8')), july);
    for (const type of ['20x', 'rev5'] as const) {
      for (const cls of ['A', 'B', 'C', 'D'] as const) {
        expect(evidenceCadence(rules, type, cls, 'non-machine')).toEqual({
          kind: 'non-machine',
          rule: 'VDR-TFR-NMV',
          force: 'MUST',
          every: { unit: 'months', num: 3 },
        });
        expect(evidenceCadence(older, type, cls, 'non-machine')).toEqual({
          kind: 'non-machine',
          rule: 'VDR-TFR-NMV',
          force: 'MUST',
          every: { unit: 'months', num: 3 },
          prose: true,
        });
      }
    }
  });

  it('reads the timeframe from the data, not from svc: a release that changes it changes the cadence', () => {
    const changed: Cr26Rules = structuredClone(rules);
    const mvx = changed.rules.find((r) => r.id === 'VDR-TFR-MVX')!;
    mvx.varies_by_class!.D = { force: 'MUST', timeframe: { unit: 'days', num: 1 } };
    const nmv = changed.rules.find((r) => r.id === 'VDR-TFR-NMV')!;
    nmv.timeframe = { unit: 'months', num: 6 };
    expect(evidenceCadence(changed, '20x', 'D', 'machine')).toEqual({ kind: 'machine', rule: 'VDR-TFR-MVX', force: 'MUST', every: { unit: 'days', num: 1 } });
    expect(evidenceCadence(changed, '20x', 'B', 'non-machine')).toEqual({
      kind: 'non-machine',
      rule: 'VDR-TFR-NMV',
      force: 'MUST',
      every: { unit: 'months', num: 6 },
    });
    changed.rules = changed.rules.filter((r) => r.id !== 'VDR-TFR-NMV');
    expect(() => evidenceCadence(changed, '20x', 'B', 'non-machine')).toThrow(
      /^CR26 2026\.10\.05\.01: no rule VDR-TFR-NMV, so svc cannot judge non-machine evidence/,
    );
  });
});

describe('addCadence', () => {
  it('adds calendar months clamped to the month, fixed days and weeks, and business days', () => {
    expect(new Date(addCadence(Date.parse('2026-01-31T10:00:00Z'), { unit: 'months', num: 1 })).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addCadence(Date.parse('2026-11-30T00:00:00Z'), { unit: 'months', num: 3 })).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(new Date(addCadence(Date.parse('2026-11-10T09:00:00Z'), { unit: 'days', num: 7 })).toISOString()).toBe('2026-11-17T09:00:00.000Z');
    expect(new Date(addCadence(Date.parse('2026-11-10T09:00:00Z'), { unit: 'weeks', num: 2 })).toISOString()).toBe('2026-11-24T09:00:00.000Z');
    // Friday + 1 business day = Monday.
    expect(new Date(addCadence(Date.parse('2026-11-20T09:00:00Z'), { unit: 'bizdays', num: 1 })).toISOString()).toBe('2026-11-23T09:00:00.000Z');
    expect(new Date(addCadence(Date.parse('2024-02-29T00:00:00Z'), { unit: 'years', num: 1 })).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });
});

describe('addCadence in business days with a holiday calendar', () => {
  const holidays = new Set(['2026-11-26', '2026-12-25', '2027-01-01']);
  const holiday = (day: string) => holidays.has(day);
  const plus = (at: string, num: number) => new Date(addCadence(Date.parse(at), { unit: 'bizdays', num }, holiday)).toISOString();

  it('skips weekends and holidays forwards, keeping the time of day', () => {
    // Wednesday before Thanksgiving + 1 business day: Friday (Thursday is a holiday).
    expect(plus('2026-11-25T15:00:00Z', 1)).toBe('2026-11-27T15:00:00.000Z');
    // Thursday Christmas Eve + 5: Dec 28, 29, 30, 31 and Jan 4 (Dec 25, Jan 1 and the weekends skipped).
    expect(plus('2026-12-24T00:00:00Z', 5)).toBe('2027-01-04T00:00:00.000Z');
  });

  it('counts backwards for a negative number: 10 business days before a start', () => {
    expect(plus('2027-01-04T00:00:00Z', -10)).toBe('2026-12-17T00:00:00.000Z');
    expect(plus('2026-11-30T00:00:00Z', -3)).toBe('2026-11-24T00:00:00.000Z');
  });

  it('says which days are business days', () => {
    expect([
      isBusinessDay(Date.parse('2026-11-26T12:00:00Z'), holiday),
      isBusinessDay(Date.parse('2026-11-26T12:00:00Z')),
      isBusinessDay(Date.parse('2026-11-28T12:00:00Z')),
    ]).toEqual([false, true, false]);
  });
});

describe('assessCr26Freshness', () => {
  const item = (ksi_id: string, observed_at: string | undefined, evidence_kind?: 'machine' | 'non-machine'): AssessedResult =>
    ({
      result: { ksi_id, status: 'PASS', ...(observed_at ? { observed_at } : {}), ...(evidence_kind ? { evidence_kind } : {}) },
      definition: undefined,
      action: { owner: 'grc@example.gov' },
    }) as unknown as AssessedResult;
  const profile = (type: '20x' | 'rev5', cls: Cr26Class) => ({
    version: rules.info.version,
    type,
    class: cls,
    machine: evidenceCadence(rules, type, cls, 'machine'),
    nonMachine: evidenceCadence(rules, type, cls, 'non-machine'),
  });
  const now = new Date('2026-12-21T00:00:00Z');
  const items = [item('KSI-AC-02', '2026-11-18T09:00:00Z'), item('KSI-AT-02', '2026-09-01T00:00:00Z', 'non-machine'), item('KSI-IAM-APM', undefined)];

  it("judges each result by its kind's cadence; a result with no time is undated; a CR26 id gets its name", () => {
    const report = assessCr26Freshness(items, undefined, now, profile('rev5', 'B'), (id) =>
      id === 'KSI-IAM-APM' ? 'Adopting Passwordless Methods' : undefined,
    );
    expect(report.entries.map((e) => [e.ksi_id, e.title, e.evidence_kind, e.cadence.rule, e.cadence.force, e.due_at, e.state])).toEqual([
      ['KSI-AC-02', 'Unmapped KSI', 'machine', 'VDR-TFR-MVF', 'SHOULD', '2026-12-18T09:00:00Z', 'stale'],
      ['KSI-AT-02', 'Unmapped KSI', 'non-machine', 'VDR-TFR-NMV', 'MUST', '2026-12-01T00:00:00Z', 'stale'],
      ['KSI-IAM-APM', 'Adopting Passwordless Methods', 'machine', 'VDR-TFR-MVF', 'SHOULD', null, 'undated'],
    ]);
    expect(report.counts).toEqual({ total: 3, fresh: 0, stale: 2, undated: 1 });
    expect(report.cr26.notes).toEqual([]);
    expect(cr26FreshnessText(report, 'r.json').split('\n').slice(0, 7)).toEqual([
      'Checking freshness of r.json at 2026-12-21T00:00:00Z by CR26 2026.10.05.01, rev5 Class B',
      'Machine-based evidence: every 1 month (VDR-TFR-MVF, SHOULD)',
      'Non-machine evidence: every 3 months (VDR-TFR-NMV, MUST)',
      'KSIs: 3',
      'Fresh: 0',
      'Stale: 2 (KSI-AC-02 [SHOULD], KSI-AT-02)',
      'Undated: 1 (KSI-IAM-APM [SHOULD])',
    ]);
  });

  it('notes the Class D fallback', () => {
    const report = assessCr26Freshness(items, '2026-12-20T00:00:00Z', now, profile('20x', 'D'));
    expect(report.cr26.notes).toEqual(["VDR-TFR-MVX gives no Class D value in CR26 2026.10.05.01; svc uses Class C's (every 3 days, MUST)"]);
    expect(report.entries[2]).toMatchObject({ dated_by: 'generated_at', state: 'fresh', due_at: '2026-12-23T00:00:00Z' });
  });
});
