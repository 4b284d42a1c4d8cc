import ICAL from 'ical.js';
import { assess } from '../../../src/domain/assessment/assessment';
import { assessFreshness, freshnessText, hasStaleEvidence, schedule, scheduleText } from '../../../src/domain/freshness/freshness';
import { scheduleCalendar } from '../../../src/domain/freshness/ics-calendar';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { aResult } from '../../support/builders';

const catalog = builtInCatalog();
const items = (results: KsiResult[]) => assess(results, catalog, DEFAULT_GOVERNANCE_POLICY).items;
const now = new Date('2026-11-21T12:00:00Z');

const results = [
  aResult('KSI-AC-02', 'PASS', { observed_at: '2026-11-19T12:00:00Z' }), // 2 days, every 3: fresh
  aResult('KSI-AU-02', 'FAIL', { observed_at: '2026-11-18T11:59:59Z' }), // 3 days + 1 s: stale
  aResult('KSI-AT-02', 'PASS', { observed_at: '2026-09-01T00:00:00Z' }), // 81.5 days, every 90: fresh
  aResult('KSI-CM-02', 'PASS'), // dated by the report's generated_at
  aResult('KSI-ZZ-01', 'PASS', { observed_at: '2020-01-01T00:00:00Z' }), // unmapped: no frequency
];

describe('assessFreshness', () => {
  const report = assessFreshness(items(results), '2026-11-10T00:00:00Z', now);
  const byId = Object.fromEntries(report.entries.map((e) => [e.ksi_id, e]));

  it("compares each result's age with its KSI's validation frequency, strictly", () => {
    expect(byId['KSI-AC-02']).toMatchObject({
      state: 'fresh',
      frequency_days: 3,
      age_seconds: 172_800,
      due_at: '2026-11-22T12:00:00Z',
      dated_by: 'observed_at',
    });
    expect(byId['KSI-AU-02']).toMatchObject({ state: 'stale', age_seconds: 259_201, due_at: '2026-11-21T11:59:59Z' });
    expect(byId['KSI-AT-02']).toMatchObject({ state: 'fresh', frequency_days: 90, due_at: '2026-11-30T00:00:00Z' });
    expect(byId['KSI-ZZ-01']).toMatchObject({ state: 'unmapped', frequency_days: null, due_at: null });
    const exactly = assessFreshness(items([aResult('KSI-AC-02', 'PASS', { observed_at: '2026-11-18T12:00:00Z' })]), undefined, now);
    expect(exactly.entries[0].state).toBe('fresh');
  });

  it("falls back to the report's generated_at, and calls a result with neither undated (counted as stale)", () => {
    expect(byId['KSI-CM-02']).toMatchObject({ state: 'stale', dated_by: 'generated_at', observed_at: '2026-11-10T00:00:00Z' });
    const undated = assessFreshness(items([aResult('KSI-CM-02', 'PASS')]), undefined, now);
    expect(undated.entries[0]).toMatchObject({ state: 'undated', observed_at: null, age_seconds: null, due_at: null });
    expect(hasStaleEvidence(undated)).toBe(true);
    expect(hasStaleEvidence(assessFreshness(items([aResult('KSI-AC-02', 'PASS', { observed_at: '2026-11-21T00:00:00Z' })]), undefined, now))).toBe(false);
  });

  it('counts and prints the check', () => {
    expect(report.counts).toEqual({ total: 5, fresh: 2, stale: 2, undated: 0, unmapped: 1 });
    expect(freshnessText(report, 'run.json')).toBe(
      [
        'Checking freshness of run.json at 2026-11-21T12:00:00Z',
        'KSIs: 5',
        'Fresh: 2',
        'Stale: 2 (KSI-AU-02, KSI-CM-02)',
        'Undated: 0',
        'Unmapped: 1 (KSI-ZZ-01)',
        '',
        '| KSI | Observed | Age (days) | Every (days) | Due | Owner |',
        '|---|---|---|---|---|---|',
        '| KSI-AU-02 | 2026-11-18T11:59:59Z | 3.0 | 3 | 2026-11-21T11:59:59Z | secops-team@agency.example |',
        '| KSI-CM-02 | 2026-11-10T00:00:00Z | 11.5 | 3 | 2026-11-13T00:00:00Z | platform-team@agency.example |',
        '',
      ].join('\n'),
    );
  });

  it('schedules KSIs in the order they fall due, without the unmapped ones', () => {
    expect(schedule(report).map((e) => e.ksi_id)).toEqual(['KSI-CM-02', 'KSI-AU-02', 'KSI-AC-02', 'KSI-AT-02']);
    expect(scheduleText(report, 'run.json').split('\n').slice(0, 5)).toEqual([
      'Evidence schedule of run.json at 2026-11-21T12:00:00Z',
      '',
      '| Due | KSI | Title | Every (days) | Last observed | Owner | State |',
      '|---|---|---|---|---|---|---|',
      '| 2026-11-13T00:00:00Z | KSI-CM-02 | Baseline Configuration | 3 | 2026-11-10T00:00:00Z | platform-team@agency.example | stale |',
    ]);
  });
});

describe('scheduleCalendar (RFC 5545)', () => {
  // KSI-AC-09, -10 and -13 are not in the catalog (ac-9, ac-10, ac-13 are outside the Moderate baseline): left out.
  const many = Array.from({ length: 12 }, (_, i) =>
    aResult(`KSI-AC-${String(i + 2).padStart(2, '0')}`, 'PASS', {
      observed_at: '2026-11-19T08:00:00Z',
      title: i === 0 ? 'Accounts; groups, and "roles" → é' : undefined,
    }),
  );
  const report = assessFreshness(items([...many, aResult('KSI-AT-02', 'PASS', { observed_at: '2026-09-01T00:00:00Z' })]), undefined, now);
  const text = scheduleCalendar(report, { scope: 'contoso.example', scopeKey: '0123456789abcdef', tool: { name: 'svc', version: '0.5.0' } });

  it('is CRLF text with lines folded at 75 octets', () => {
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('parses with a real iCalendar parser: one all-day VEVENT per due date with stable UIDs and a reminder', () => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//svc//svc 0.5.0//EN');
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => [e.uid, e.startDate.toString(), e.startDate.isDate, e.endDate.toString()])).toEqual([
      ['2026-11-22-0123456789abcdef@svc', '2026-11-22', true, '2026-11-23'],
      ['2026-11-30-0123456789abcdef@svc', '2026-11-30', true, '2026-12-01'],
    ]);
    expect(events[0].summary).toBe('FedRAMP evidence due: 9 KSIs (KSI-AC-02, KSI-AC-03, KSI-AC-04, …)');
    expect(events[0].description).toContain(
      'KSI-AC-02 Accounts; groups, and "roles" → é: every 3 days, last observed 2026-11-19T08:00:00Z, owner identity-team@agency.example\n',
    );
    expect(events[0].description.split('\n')).toHaveLength(11);
    const alarm = calendar.getAllSubcomponents('vevent')[0].getFirstSubcomponent('valarm');
    expect(alarm?.getFirstPropertyValue('trigger')?.toString()).toBe('-P1D');
    expect(calendar.getAllSubcomponents('vevent')[0].getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-11-21T12:00:00Z');
  });

  it('gives the same bytes for the same schedule', () => {
    expect(scheduleCalendar(report, { scope: 'contoso.example', scopeKey: '0123456789abcdef', tool: { name: 'svc', version: '0.5.0' } })).toBe(text);
  });
});
