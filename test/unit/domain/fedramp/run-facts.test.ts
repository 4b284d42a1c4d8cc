import { evidenceCadence } from '../../../../src/domain/fedramp/evidence-cadence';
import { Cr26RunFacts, freshnessOf } from '../../../../src/domain/fedramp/run-facts';
import { builtInCatalog } from '../../../fakes/fixed-catalog-source';
import { builtInRules } from '../../../fakes/fixed-rules-source';

describe("Cr26RunFacts: each result against its cadence, and a KSI's results together (freshnessOf)", () => {
  const rules = builtInRules();
  const now = new Date('2026-11-25T00:00:00Z');
  const cadences = { machine: evidenceCadence(rules, '20x', 'B', 'machine'), nonMachine: evidenceCadence(rules, '20x', 'B', 'non-machine'), now };
  const facts = () =>
    new Cr26RunFacts(
      { rules, ksis: rules.ksis.filter((k) => k.id === 'KSI-IAM-APM'), class: 'B', catalog: builtInCatalog() },
      cadences,
      undefined,
      'scanner',
      new Map(),
    );
  const add = (f: Cr26RunFacts, observed_at: string | undefined, evidence_kind?: 'non-machine') =>
    f.add(
      {
        result: {
          ksi_id: 'KSI-IAM-APM',
          status: 'PASS',
          ...(observed_at === undefined ? {} : { observed_at }),
          ...(evidence_kind === undefined ? {} : { evidence_kind }),
        },
        definition: undefined,
      },
      () => 'ab'.repeat(32),
    );

  it('keeps per result whether it is fresh, stale or undated, as the run-wide counts count it', () => {
    const f = facts();
    add(f, '2026-11-24T08:00:00Z');
    add(f, '2026-11-10T08:00:00Z');
    add(f, undefined);
    add(f, '2026-06-01T00:00:00Z', 'non-machine');
    add(f, '2026-10-01T00:00:00Z', 'non-machine');
    expect([0, 1, 2, 3, 4].map((i) => f.age(i))).toEqual(['fresh', 'stale', 'undated', 'stale', 'fresh']);
    expect(f.freshness.machine).toEqual({ total: 3, fresh: 1, stale: 1, undated: 1, oldest: '2026-11-10T08:00:00Z' });
    expect(freshnessOf(f, f.tally.ksi('KSI-IAM-APM')!.indices)).toEqual({
      machine: { total: 3, fresh: 1, stale: 1, undated: 1, oldest: '2026-11-10' },
      nonMachine: { total: 2, fresh: 1, stale: 1, undated: 0, oldest: '2026-06-01' },
    });
    expect(freshnessOf(f, [0])).toEqual({
      machine: { total: 1, fresh: 1, stale: 0, undated: 0, oldest: '2026-11-24' },
      nonMachine: { total: 0, fresh: 0, stale: 0, undated: 0 },
    });
  });

  it('keeps the evidence facts it kept before (type, tool, status, kind, date)', () => {
    const f = facts();
    add(f, '2026-06-01T00:00:00Z', 'non-machine');
    expect(f.evidence(0)).toEqual({
      type: expect.any(String),
      tool: 'scanner',
      ksi_id: 'KSI-IAM-APM',
      status: 'PASS',
      kind: 'non-machine',
      date: '2026-06-01',
      hash: 'ab'.repeat(32),
    });
  });
});
