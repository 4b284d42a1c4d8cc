import { assess } from '../../../src/domain/assessment/assessment';
import type { RunSummary } from '../../../src/domain/conmon/run-record';
import { briefingModel } from '../../../src/domain/documents/briefing-model';
import { assessFreshness } from '../../../src/domain/freshness/freshness';
import { DEFAULT_GOVERNANCE_POLICY } from '../../../src/domain/governance/governance-policy';
import { runDashboardModel } from '../../../src/domain/reporting/run-dashboard';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { aResult } from '../../support/builders';

const catalog = builtInCatalog();
const runAt = new Date('2026-11-21T12:00:00Z');
const context = { input: { name: 'r.json', sha256: 'ab'.repeat(32) }, source: { tenant: 'contoso.example' }, generatedAt: '2026-11-20T00:00:00Z', runAt };
const assessment = assess(
  [
    aResult('KSI-AC-02', 'FAIL', { observed_at: '2026-11-19T12:00:00Z' }),
    aResult('KSI-AU-02', 'WARN', { observed_at: '2026-11-18T11:59:59Z' }),
    aResult('KSI-IA-02', 'FAIL', { observed_at: '2026-06-01T00:00:00Z' }),
    aResult('KSI-SC-08', 'PASS', { observed_at: '2026-11-19T00:00:00Z' }),
    aResult('KSI-CM-02', 'FAIL'),
    aResult('KSI-AT-02', 'WARN', { observed_at: '2026-09-01T00:00:00Z' }),
    aResult('KSI-CP-02', 'FAIL', { observed_at: '2026-11-01T00:00:00Z' }),
    aResult('KSI-ZZ-01', 'FAIL'),
  ],
  catalog,
  DEFAULT_GOVERNANCE_POLICY,
);
const dashboard = runDashboardModel({
  items: assessment.items,
  context,
  catalog,
  merkleRoot: 'cd'.repeat(32),
  counts: assessment.counts,
  tool: { name: 'svc', version: '9.9.9' },
  asOf: '2026-11-20',
});
const freshness = assessFreshness(assessment.items, context.generatedAt, runAt);
const summary = (seq: number, as_of: string, open: number, overdue: number) =>
  ({ seq, as_of, poam: { open, overdue, closed: 0, opened: 0, closed_now: 0 } }) as RunSummary;

describe('briefingModel', () => {
  const model = briefingModel({ dashboard, system: 'contoso.example', summaries: [], freshness });

  it("takes the run's facts and status by area from the dashboard model", () => {
    expect(model).toMatchObject({
      title: 'Executive briefing: contoso.example',
      system: 'contoso.example',
      generated_at: '2026-11-21T12:00:00Z',
      as_of: '2026-11-20',
      input: context.input,
      tool: { name: 'svc', version: '9.9.9' },
    });
    expect(model.counts).toEqual({ results: 8, pass: 1, warn: 2, fail: 5, mapped: 7, unmapped: 1 });
    expect(model.areas).toBe(dashboard.areas);
  });

  it('lists the five most severe rows that need remediation, in governance order', () => {
    const remediate = dashboard.governance.filter((r) => r.action === 'REMEDIATE');
    expect(remediate.length).toBeGreaterThan(5);
    expect(model.top_risks).toEqual(remediate.slice(0, 5));
    expect(model.top_risks.map((r) => [r.ksi_id, r.severity])).toEqual([
      ['KSI-AC-02', 'Critical'],
      ['KSI-IA-02', 'Critical'],
      ['KSI-CM-02', 'High'],
      ['KSI-CP-02', 'High'],
      ['KSI-AU-02', 'Medium'],
    ]);
  });

  it('plots this run alone when the store has no runs: every FAIL/WARN is open, overdue when due before as_of', () => {
    expect(dashboard.governance.filter((r) => r.due !== null && r.due < '2026-11-20').map((r) => r.ksi_id)).toEqual(['KSI-IA-02', 'KSI-CP-02', 'KSI-AT-02']);
    expect(model.poam_trend).toEqual({ source: 'run', points: [{ as_of: '2026-11-20', open: 7, overdue: 3 }] });
  });

  it("plots the store's runs, oldest first, when it has any", () => {
    const stored = briefingModel({
      dashboard,
      system: 'x',
      summaries: [summary(1, '2026-10-01T00:00:00Z', 4, 0), summary(2, '2026-11-01T09:30:00Z', 6, 2)],
      freshness,
    });
    expect(stored.poam_trend).toEqual({
      source: 'store',
      points: [
        { as_of: '2026-10-01', open: 4, overdue: 0 },
        { as_of: '2026-11-01', open: 6, overdue: 2 },
      ],
    });
  });

  it('lists the first five entries of the freshness schedule, in due order, leaving the unmapped KSI out', () => {
    expect(model.next_due.map((e) => [e.ksi_id, e.due_at])).toEqual([
      ['KSI-IA-02', '2026-06-04T00:00:00Z'],
      ['KSI-AU-02', '2026-11-21T11:59:59Z'],
      ['KSI-SC-08', '2026-11-22T00:00:00Z'],
      ['KSI-AC-02', '2026-11-22T12:00:00Z'],
      ['KSI-CM-02', '2026-11-23T00:00:00Z'],
    ]);
  });
});
