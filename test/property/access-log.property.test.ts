import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { AccessTallies, accessEventProblem, MAX_RAW_DENIALS, summarizeAccess, tallyAccess, type AccessEvent } from '../../src/domain/trust/access-log';
import { accessDayOf, isAgencyDenial } from '../../src/domain/trust/access-report';
import { principalNameProblem } from '../../src/domain/trust/principal-name';
import { FileRunStore } from '../../src/infrastructure/store/file-run-store';
import { InMemoryRunStore } from '../fakes/in-memory-run-store';
import { SEED } from './bad-input';

const DAYS = ['2026-11-24', '2026-11-25'];
const PRINCIPALS = ['carol@SVC.TEST', 'zoe@treasury.gov', 'dana@examples.gov', 'DOE.JOHN.1234567890'];

/** An event of one of two days, four principals, three documents, either outcome, with or without the federal flag. */
const event: fc.Arbitrary<AccessEvent> = fc
  .record({
    day: fc.constantFrom(...DAYS),
    second: fc.integer({ min: 0, max: 86_399 }),
    principal: fc.constantFrom(...PRINCIPALS),
    agency: fc.option(fc.constantFrom('Department of Examples'), { nil: undefined }),
    federal: fc.option(fc.constant(true as const), { nil: undefined }),
    document: fc.constantFrom('cpo', 'sdr', 'access'),
    denied: fc.boolean(),
  })
  .map(({ day, second, principal, agency, federal, document, denied }) => ({
    at: `${day}T${new Date(second * 1000).toISOString().slice(11, 19)}Z`,
    principal,
    ...(agency === undefined ? {} : { agency }),
    ...(federal === undefined ? {} : { federal }),
    document,
    outcome: denied ? ('denied' as const) : ('served' as const),
    status: denied ? 403 : 200,
  }));

/** Events in batches, a hostile principal's long run of denials among them. */
const batches = fc
  .tuple(fc.array(event, { maxLength: 120 }), fc.integer({ min: 0, max: 260 }), fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 8 }))
  .map(([events, flood, sizes]) => {
    const all = [
      ...events,
      ...Array.from({ length: flood }, (_, i) => ({
        at: `2026-11-25T12:00:${String(i % 60).padStart(2, '0')}Z`,
        principal: 'carol@SVC.TEST',
        document: 'cpo',
        outcome: 'denied' as const,
        status: 403,
      })),
    ];
    const out: AccessEvent[][] = [];
    for (let i = 0, k = 0; i < all.length; k += 1) {
      const size = sizes[k % sizes.length];
      out.push(all.slice(i, i + size));
      i += size;
    }
    return out;
  });

describe('the access log as events are appended in any batches (CDS-TRC-ACL)', () => {
  it('tallies merge the same whatever the grouping and order: the tallies of the parts merged are the tallies of the whole', () => {
    fc.assert(
      fc.property(batches, fc.integer({ min: 0, max: 1000 }), (parts, shuffle) => {
        const merged = new AccessTallies();
        const order = parts.map((p, i) => [p, (i * 7919 + shuffle) % 1009] as const).sort((a, b) => a[1] - b[1]);
        for (const [part] of order) for (const t of tallyAccess(part)) merged.add(t);
        expect(merged.list()).toEqual(tallyAccess(parts.flat()));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  type Stores = () => { stores: (InMemoryRunStore | FileRunStore)[]; cleanup: () => void };
  it.each<[string, Stores]>([
    ['InMemoryRunStore', () => ({ stores: [new InMemoryRunStore()], cleanup: () => undefined })],
    [
      'FileRunStore (two stores on one directory, compacting between batches)',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'svc-access-prop-'));
        return { stores: [new FileRunStore({ dir }), new FileRunStore({ dir })], cleanup: () => rmSync(dir, { recursive: true, force: true }) };
      },
    ],
  ])(
    "%s: a day's summaries are those of all its events, the report's day is the same as from the events, and raw events keep every served one and a principal's first denials",
    async (_name, make) => {
      await fc.assert(
        fc.asyncProperty(batches, fc.integer({ min: 0, max: 3 }), async (parts, compactEvery) => {
          const { stores, cleanup } = make();
          try {
            for (const [i, part] of parts.entries()) {
              await stores[i % stores.length].appendAccess(part);
              if (compactEvery > 0 && i % compactEvery === 0)
                await stores[0].pruneAccess({ raw_from: '2026-01-01', summaries_from: '2026-01-01', settled_before: '2026-11-26' });
            }
            const all = parts.flat();
            for (const day of DAYS) {
              const events = all.filter((e) => e.at.startsWith(day));
              for (const store of stores) {
                const tallies = await store.accessTallies(day);
                expect(tallies).toEqual(tallyAccess(events));
                // The report's day from summaries alone is what it was from the events (svc 0.6 read them all).
                const { summaries, denials } = accessDayOf(tallies);
                expect(summaries.map(({ federal: _f, ...s }) => s)).toEqual(summarizeAccess(events));
                expect(denials).toEqual(summarizeAccess(events.filter(isAgencyDenial)));
                const federal = new Set(events.filter((e) => e.federal).map((e) => JSON.stringify([e.principal, e.agency ?? '', e.document])));
                expect(summaries.filter((s) => s.federal).map((s) => JSON.stringify([s.principal, s.agency ?? '', s.document]))).toEqual([...federal].sort());
              }
              const raw = await stores[0].accessLog(day, day);
              expect(raw.filter((e) => e.outcome === 'served')).toEqual(events.filter((e) => e.outcome === 'served'));
              for (const principal of [...PRINCIPALS, 'carol@SVC.TEST']) {
                const denials = events.filter((e) => e.principal === principal && e.outcome === 'denied');
                expect(raw.filter((e) => e.principal === principal && e.outcome === 'denied')).toEqual(denials.slice(0, MAX_RAW_DENIALS));
              }
            }
          } finally {
            cleanup();
          }
        }),
        { seed: SEED, numRuns: 40 },
      );
    },
  );
});

describe('accessEventProblem: the log takes exactly the names authentication takes (principalNameProblem)', () => {
  const names = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc
      .array(fc.constantFrom('a', '@', 'K', '\u212A', '\u2126', 'e\u0301', '\u00E9', ' ', '\u202E', '\u200B', '\u2028', '\u0000', '\uD800', '😀', '.GOV'), {
        maxLength: 300,
      })
      .map((cs) => cs.join('')),
  );

  it('refuses a principal exactly when principalNameProblem has a problem with it, naming that problem and never the name', () => {
    fc.assert(
      fc.property(names, (principal) => {
        const problem = accessEventProblem({ at: '2026-11-25T10:00:00Z', principal, document: 'cpo', outcome: 'served', status: 200 });
        const rule = principalNameProblem(principal);
        expect(problem).toBe(rule === undefined ? undefined : `principal is not a name: ${rule}`);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});
