import { countsFromHistory, storedKsiHistory } from '../../../src/application/shared/stored-ksi-history';
import { ksiHistoryChunks, nextKsiHistory, type KsiHistory } from '../../../src/domain/conmon/ksi-history';
import { IntegrityError } from '../../../src/domain/errors';
import type { RunSummary } from '../../../src/domain/conmon/run-record';
import type { RunView } from '../../../src/ports/run-store';
import { oneDocumentView } from '../../support/one-document-view';

/** A store holding one run's `ksi-history.json` as `text`; or none. */
const storeWith = (text: string | undefined, failing?: Error): RunView => oneDocumentView('ksi-history.json', text, failing ? { failing } : {});

function summary(seq: number, day: number, tool: string): RunSummary {
  return { seq, id: seq.toString(16).padStart(64, '0'), as_of: `2026-03-${String(day).padStart(2, '0')}T06:00:00.000Z`, source: { tool } } as RunSummary;
}

const RUNS = [summary(1, 1, 'a'), summary(2, 1, 'b'), summary(3, 2, 'a'), summary(4, 3, 'a')];
/** Run 2 of source b counts KSI-B; source a's runs count KSI-A, then KSI-A and KSI-C, then (run 4) recorded without counts. */
const HISTORY: KsiHistory = nextKsiHistory(undefined, [
  { run: { id: RUNS[0].id, seq: 1, as_of: RUNS[0].as_of, source: 'a' }, rows: [{ ksi_id: 'KSI-A', pass: 2, fail: 1, other: 0 }] },
  { run: { id: RUNS[1].id, seq: 2, as_of: RUNS[1].as_of, source: 'b' }, rows: [{ ksi_id: 'KSI-B', pass: 0, fail: 0, other: 5 }] },
  {
    run: { id: RUNS[2].id, seq: 3, as_of: RUNS[2].as_of, source: 'a' },
    rows: [
      { ksi_id: 'KSI-A', pass: 3, fail: 0, other: 0 },
      { ksi_id: 'KSI-C', pass: 0, fail: 4, other: 0 },
    ],
  },
  { run: { id: RUNS[3].id, seq: 4, as_of: RUNS[3].as_of, source: 'a' }, rows: undefined },
]);
const text = (history: KsiHistory) => [...ksiHistoryChunks(history)].join('');

/** KSI-1 is reached from KSI-A and KSI-B, KSI-2 from KSI-A and KSI-C. */
const ROUTER = { reach: (id: string) => ({ 'KSI-A': ['KSI-1', 'KSI-2'], 'KSI-B': ['KSI-1'], 'KSI-C': ['KSI-2'] })[id] ?? [] };
const KSIS = [{ id: 'KSI-1' }, { id: 'KSI-2' }];
const tampered = (problem: string) => new IntegrityError('run-store-tampered', problem);

describe('storedKsiHistory', () => {
  it('reads the history a run keeps, and nothing for a run recorded before svc kept one', async () => {
    expect(await storedKsiHistory(storeWith(text(HISTORY)), RUNS[3])).toEqual(HISTORY);
    expect(await storedKsiHistory(storeWith(undefined), RUNS[3])).toBeUndefined();
  });

  it('reports a history that is not one svc wrote, or does not end with its run, as run-store-tampered, naming the run', async () => {
    for (const [document, run, problem] of [
      ['{"runs":[],"schema":"svc.other/v1"}', RUNS[3], 'it is not a svc.ksi-history/v1 document'],
      ['{"runs":[', RUNS[3], 'Unexpected end of JSON input'],
      [text(HISTORY), RUNS[2], 'its last run is not run 3'],
    ] as const) {
      const reading = storedKsiHistory(storeWith(document), run);
      await expect(reading).rejects.toBeInstanceOf(IntegrityError);
      await expect(reading).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: `/srv/store run ${run.seq} ksi-history.json: ${problem}; the store was modified outside svc. Restore it from backup`,
      });
    }
  });

  it('passes the store’s own finding on as it is', async () => {
    const changed = new IntegrityError('run-store-tampered', '/srv/store/documents/x/ksi-history.json.pieces: the document ksi-history.json no longer matches');
    await expect(storedKsiHistory(storeWith(text(HISTORY), changed), RUNS[3])).rejects.toBe(changed);
  });
});

describe('countsFromHistory', () => {
  it('gives each needed run its source’s counts per KSI as they stood at it, leaving out a run recorded without counts', () => {
    const counted = countsFromHistory(HISTORY, RUNS, KSIS, ROUTER, tampered);
    expect(Object.fromEntries([...counted].map(([id, counts]) => [RUNS.find((r) => r.id === id)!.seq, Object.fromEntries(counts)]))).toEqual({
      1: { 'KSI-1': { pass: 2, fail: 1, other: 0 }, 'KSI-2': { pass: 2, fail: 1, other: 0 } },
      2: { 'KSI-1': { pass: 0, fail: 0, other: 5 }, 'KSI-2': { pass: 0, fail: 0, other: 0 } },
      3: { 'KSI-1': { pass: 3, fail: 0, other: 0 }, 'KSI-2': { pass: 3, fail: 4, other: 0 } },
    });
    // Only those asked for.
    expect([...countsFromHistory(HISTORY, [RUNS[2]], KSIS, ROUTER, tampered).keys()]).toEqual([RUNS[2].id]);
  });

  it('refuses a history that names a needed run otherwise than the store lists it, or not at all', () => {
    const moved = { ...RUNS[2], as_of: '2026-03-09T06:00:00.000Z' };
    expect(() => countsFromHistory(HISTORY, [moved], KSIS, ROUTER, tampered)).toThrow('it names run 3 otherwise than the store lists run 3');
    expect(() => countsFromHistory(HISTORY, [{ ...RUNS[2], source: { tool: 'b' } }], KSIS, ROUTER, tampered)).toThrow(
      'it names run 3 otherwise than the store lists run 3',
    );
    expect(() => countsFromHistory(HISTORY, [summary(5, 4, 'a')], KSIS, ROUTER, tampered)).toThrow('it does not name run 5');
  });
});
