import fc from 'fast-check';
import {
  KSI_HISTORY_DAYS,
  ksiHistoryChunks,
  nextKsiHistory,
  readKsiHistory,
  replayKsiHistory,
  type CountedRun,
  type HistoryRun,
  type KsiHistory,
} from '../../../../src/domain/conmon/ksi-history';
import type { KsiCounts } from '../../../../src/domain/conmon/ksi-counts';
import { jsonText } from '../../../../src/domain/encoding/json-chunks';

const DAY = 86_400_000;
const START = Date.parse('2026-01-01T06:00:00Z');

function run(seq: number, day: number, source = 'scanner'): HistoryRun {
  return { id: seq.toString(16).padStart(64, '0'), seq, as_of: new Date(START + (day - 1) * DAY).toISOString(), source };
}

function row(ksi_id: string, pass: number, fail = 0, other = 0): KsiCounts {
  return { ksi_id, pass, fail, other };
}

/** Each run's rows as the replay stands at it, sorted by id (undefined for an uncounted run). */
function replayed(history: KsiHistory): (KsiCounts[] | undefined)[] {
  const each: (KsiCounts[] | undefined)[] = [];
  // A run's rows are its source's as the replay stands at it: read before it goes on.
  for (const { rows } of replayKsiHistory(history.runs)) each.push(rows && [...rows.values()].sort((a, b) => (a.ksi_id < b.ksi_id ? -1 : 1)));
  return each;
}

/** The history of `runs` recorded one at a time, as conmon process records them. */
function recorded(runs: readonly CountedRun[]): KsiHistory {
  return runs.reduce<KsiHistory | undefined>((history, counted) => nextKsiHistory(history, [counted]), undefined)!;
}

function textOf(history: KsiHistory): string {
  return [...ksiHistoryChunks(history)].join('');
}

describe('KSI history (issue 35)', () => {
  it('writes a source’s first run whole and each later one as the rows that changed, an id gone as a row counting nothing', () => {
    const history = recorded([
      { run: run(1, 1), rows: [row('KSI-A', 1), row('KSI-B', 0, 2), row('KSI-C', 3)] },
      { run: run(2, 2, 'other'), rows: [row('KSI-A', 0, 1)] },
      { run: run(3, 2), rows: [row('KSI-A', 1), row('KSI-B', 1, 1), row('KSI-D', 0, 0, 1)] },
      { run: run(4, 3), rows: undefined },
      { run: run(5, 4), rows: [row('KSI-A', 1), row('KSI-B', 1, 1), row('KSI-D', 0, 0, 1)] },
    ]);
    expect(textOf(history)).toBe(
      '{"runs":[' +
        `{"as_of":"2026-01-01T06:00:00.000Z","changed":[{"fail":0,"ksi_id":"KSI-A","other":0,"pass":1},{"fail":2,"ksi_id":"KSI-B","other":0,"pass":0},{"fail":0,"ksi_id":"KSI-C","other":0,"pass":3}],"id":"${run(1, 1).id}","seq":1,"source":"scanner"},` +
        `{"as_of":"2026-01-02T06:00:00.000Z","changed":[{"fail":1,"ksi_id":"KSI-A","other":0,"pass":0}],"id":"${run(2, 2).id}","seq":2,"source":"other"},` +
        `{"as_of":"2026-01-02T06:00:00.000Z","changed":[{"fail":1,"ksi_id":"KSI-B","other":0,"pass":1},{"fail":0,"ksi_id":"KSI-C","other":0,"pass":0},{"fail":0,"ksi_id":"KSI-D","other":1,"pass":0}],"id":"${run(3, 2).id}","seq":3,"source":"scanner"},` +
        `{"as_of":"2026-01-03T06:00:00.000Z","id":"${run(4, 3).id}","seq":4,"source":"scanner","uncounted":true},` +
        `{"as_of":"2026-01-04T06:00:00.000Z","changed":[],"id":"${run(5, 4).id}","seq":5,"source":"scanner"}` +
        '],"schema":"svc.ksi-history/v1"}',
    );
    expect(readKsiHistory(JSON.parse(textOf(history)))).toEqual(history);
    expect(replayed(history)).toEqual([
      [row('KSI-A', 1), row('KSI-B', 0, 2), row('KSI-C', 3)],
      [row('KSI-A', 0, 1)],
      [row('KSI-A', 1), row('KSI-B', 1, 1), row('KSI-D', 0, 0, 1)],
      undefined,
      [row('KSI-A', 1), row('KSI-B', 1, 1), row('KSI-D', 0, 0, 1)],
    ]);
  });

  it('leaves out the runs more than KSI_HISTORY_DAYS before the newest, but each source’s last one before then, and says from where it is whole', () => {
    const runs: CountedRun[] = [
      { run: run(1, 1, 'a'), rows: [row('KSI-A', 1)] },
      { run: run(2, 2, 'b'), rows: [row('KSI-A', 0, 1)] },
      { run: run(3, 3, 'a'), rows: [row('KSI-A', 2)] },
      { run: run(4, 10, 'a'), rows: [row('KSI-A', 3), row('KSI-B', 1)] },
      // A report of an earlier day, recorded later: its source's last run before the cutoff by as_of is run 4.
      { run: run(5, 5, 'a'), rows: [row('KSI-A', 9)] },
      { run: run(6, 11 + KSI_HISTORY_DAYS, 'a'), rows: [row('KSI-A', 4), row('KSI-B', 1)] },
    ];
    const history = recorded(runs);
    expect(history.from).toBe(new Date(START + (10 + KSI_HISTORY_DAYS) * DAY - KSI_HISTORY_DAYS * DAY).toISOString());
    expect(history.runs.map((r) => r.seq)).toEqual([2, 4, 6]);
    // Run 4 is written whole (the runs before it of its source are gone), run 6 against it.
    expect(history.runs.map((r) => r.changed)).toEqual([[row('KSI-A', 0, 1)], [row('KSI-A', 3), row('KSI-B', 1)], [row('KSI-A', 4)]]);
    expect(replayed(history)).toEqual([[row('KSI-A', 0, 1)], [row('KSI-A', 3), row('KSI-B', 1)], [row('KSI-A', 4), row('KSI-B', 1)]]);
    // Made at once (a store's first history, from its runs' counts) it is the same document.
    expect(textOf(nextKsiHistory(undefined, runs))).toBe(textOf(history));
    // The next run, nothing more left out: `from` stays.
    expect(nextKsiHistory(history, [{ run: run(7, 12 + KSI_HISTORY_DAYS, 'b'), rows: [] }]).from).toBe(history.from);
  });

  it('replays every run’s rows as recorded, whatever the runs and sources (property)', () => {
    const ids = ['KSI-A', 'KSI-B', 'KSI-C', 'KSI-D'];
    const counts = fc.option(
      fc.uniqueArray(
        fc.record({ ksi_id: fc.constantFrom(...ids), pass: fc.nat(3), fail: fc.nat(3), other: fc.nat(3) }).filter((r) => r.pass + r.fail + r.other > 0),
        { selector: (r) => r.ksi_id, maxLength: 4 },
      ),
      { nil: undefined },
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ source: fc.constantFrom('a', 'b', 'c'), day: fc.integer({ min: 1, max: 30 }), rows: counts }), { minLength: 1, maxLength: 12 }),
        (steps) => {
          const runs = steps.map((s, k) => ({ run: run(k + 1, s.day, s.source), rows: s.rows }));
          const history = recorded(runs);
          expect(readKsiHistory(JSON.parse(textOf(history)))).toEqual(history);
          expect(jsonText(JSON.parse(textOf(history)), 'canonical')).toBe(textOf(history));
          const sorted = (rows: readonly KsiCounts[] | undefined) => rows && [...rows].sort((a, b) => (a.ksi_id < b.ksi_id ? -1 : 1));
          expect(replayed(history)).toEqual(runs.map((r) => sorted(r.rows)));
        },
      ),
    );
  });

  it('refuses a document svc did not write, naming what is wrong', () => {
    const good = JSON.parse(
      textOf(
        recorded([
          { run: run(1, 1), rows: [row('KSI-A', 1)] },
          { run: run(2, 2), rows: [row('KSI-A', 2)] },
        ]),
      ),
    ) as { runs: Record<string, unknown>[] };
    expect(readKsiHistory({ ...good, schema: 'svc.ksi-history/v2' })).toBe('it is not a svc.ksi-history/v1 document');
    expect(readKsiHistory({ ...good, extra: 1 })).toBe('its fields are not the ones svc writes');
    expect(readKsiHistory({ ...good, from: 'yesterday' })).toBe('its fields are not the ones svc writes');
    expect(readKsiHistory({ ...good, runs: [good.runs[1], good.runs[0]] })).toMatch(/^run 2 of it is not one svc wrote: \{"as_of"/);
    expect(readKsiHistory({ ...good, runs: [{ ...good.runs[0], changed: [{ ksi_id: 'KSI-A', pass: -1, fail: 0, other: 0 }] }] })).toMatch(
      /^run 1 of it is not one svc wrote/,
    );
    expect(readKsiHistory({ ...good, runs: [{ ...good.runs[0], id: 'x' }] })).toMatch(/^run 1 of it is not one svc wrote/);
    expect(readKsiHistory({ ...good, runs: [{ ...good.runs[0], uncounted: true }] })).toMatch(/^run 1 of it is not one svc wrote/);
  });
});
