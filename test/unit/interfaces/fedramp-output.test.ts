import type { CheckFedrampReadinessResult, ReadinessSource } from '../../../src/application/fedramp/check-fedramp-readiness';
import { renderReadiness } from '../../../src/interfaces/cli/fedramp-output';

const none = { total: 0, met: 0, not_met: 0, needs_statement: 0, not_yet_required: 0 };

/** A readiness result of a store whose state is `sources`, with no rule or KSI judged. */
const readiness = (sources: ReadinessSource[]): CheckFedrampReadinessResult => ({
  profile: { type: '20x', class: 'B', path: 'program', status: 'applying', defaults: [] },
  now: '2026-11-30T12:00:00Z',
  rules_version: '2026.10.05.01',
  run: { seq: 1, id: 'a'.repeat(64), as_of: '2026-11-23T08:00:00Z', results: 3, sources },
  store: '/home/.svc/store',
  rules: [],
  ksis: [],
  recommended: [],
  optional: [],
  counts: { rules: none, ksis: none },
  must_not_met: [],
});

describe('renderReadiness: the Sources line', () => {
  const scuba: ReadinessSource = { source: 'ScubaGear', seq: 1, as_of: '2026-11-23T08:00:00Z', results: 3 };

  it('is left out for one source on time', () => {
    expect(renderReadiness(readiness([scuba])).filter((line) => line.startsWith('Sources:'))).toEqual([]);
  });

  it('names a stale source even when it is the only one: the rule, its cadence and when its next run was due', () => {
    const stale = { ...scuba, stale: { rule: 'VDR-TFR-MVX', every: '7 days', due: '2026-11-30T08:00:00Z' } };
    expect(renderReadiness(readiness([stale]))[2]).toBe(
      'Sources: ScubaGear (run 1, as of 2026-11-23T08:00:00Z, stale: VDR-TFR-MVX asks every 7 days, due 2026-11-30T08:00:00Z)',
    );
  });
});
