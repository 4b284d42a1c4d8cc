import { StoreState, type TrustStoreState } from '../../../src/application/trust/store-state';
import { SnapshotStore } from '../../../src/application/trust/snapshot-store';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import { recordFor, runIdOf, storedRunFor } from '../../support/stored-runs';

const T = Date.parse('2026-12-01T00:00:00Z');
const iso = (seconds: number) => new Date(T + seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');

class SettableClock {
  constructor(public ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
}

async function addRuns(store: InMemoryRunStore, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) {
    const record = recordFor(n);
    const id = runIdOf(record);
    await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }));
  }
}

describe('StoreState: the trust center rebuilds on a store write and once when a due time passes', () => {
  it('advances to each passed change in turn, asks each state once, and starts again from a new write', async () => {
    const store = new InMemoryRunStore();
    await store.appendJournal('note', { text: 'first' }, iso(0));
    const clock = new SettableClock(T + 10_000);
    const state = new StoreState(store, store, clock);
    const asked: string[] = [];
    // Changes at +5 s and +20 s after the write; none after that.
    const nextChange = async (s: TrustStoreState) => {
      asked.push(s.asOf);
      const next = [T + 5000, T + 20_000].find((t) => t > Date.parse(s.asOf));
      return next;
    };
    const first = await state.current(nextChange);
    expect(first).toMatchObject({ asOf: iso(5), key: `none:1@${iso(5)}`, written: 'none:1' });
    expect(asked).toEqual([iso(0), iso(5)]);
    clock.ms = T + 19_000;
    expect(await state.current(nextChange)).toBe(first);
    expect(asked).toHaveLength(2);
    clock.ms = T + 21_000;
    expect((await state.current(nextChange)).asOf).toBe(iso(20));
    expect(asked).toEqual([iso(0), iso(5), iso(20)]);
    // A write: the state is the write's again, and its changes are asked for anew.
    await store.appendJournal('note', { text: 'second' }, iso(30));
    clock.ms = T + 31_000;
    expect(await state.current(nextChange)).toMatchObject({ asOf: iso(30), key: 'none:2', written: 'none:2' });
    expect(asked.at(-1)).toBe(iso(30));
  });

  it('without a nextChange (a snapshot), the state is the written one whatever the time', async () => {
    const store = new InMemoryRunStore();
    await store.appendJournal('note', { text: 'first' }, iso(0));
    const state = new StoreState(store, store, new SettableClock(T + 10 ** 9));
    expect(await state.current()).toMatchObject({ asOf: iso(0), key: 'none:1' });
  });
});

describe('SnapshotStore: the run store as it stood at an OCR', () => {
  it('lists, gets and opens the runs up to run_seq and reads the journal up to journal_seq', async () => {
    const store = new InMemoryRunStore();
    await addRuns(store, 3);
    for (let i = 1; i <= 4; i++) await store.appendJournal('note', { i }, iso(i));
    const view = new SnapshotStore(store, { run_seq: 2, journal_seq: 3 }, store);
    expect((await view.list()).map((s) => s.seq)).toEqual([1, 2]);
    expect((await view.latest())?.summary.seq).toBe(2);
    const third = (await store.get(3))!;
    expect(await view.get(3)).toBeUndefined();
    expect(await view.get(third.summary.id)).toBeUndefined();
    expect((await view.get((await store.get(2))!.summary.id))?.summary.seq).toBe(2);
    expect(await view.openDocument(3, 'sar.json')).toBeUndefined();
    expect((await view.journal()).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await view.journal('note')).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(view.location).toBe(store.location);
  });

  it("gives a document's bytes in pieces of at most 64 KiB, a turn of the event loop between two, and still catches a changed byte", async () => {
    const store = new InMemoryRunStore();
    const record = recordFor(1);
    const id = runIdOf(record);
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 100, 'x');
    bytes.write('the first line', 0);
    await store.append(
      id,
      (_latest, seq) => storedRunFor(id, seq, { record }),
      () => [{ name: 'big.json', media_type: 'application/json', chunks: [bytes] }],
    );
    const view = new SnapshotStore(store, { run_seq: 1, journal_seq: 0 }, store);
    const opened = (await view.openDocument(1, 'big.json'))!;
    expect(opened.document).toMatchObject({ name: 'big.json', bytes: bytes.length });
    // Turns of the event loop while the document is read by a reader that never waits for one itself.
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns += 1;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const pieces: Buffer[] = [];
    for await (const piece of opened.chunks) pieces.push(Buffer.from(piece));
    reading = false;
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    expect(pieces.map((p) => p.length)).toEqual([...Array.from({ length: 48 }, () => 64 * 1024), 100]);
    // The fake store gives the document as one chunk: each piece after the first came on a turn of its own.
    expect(turns).toBeGreaterThanOrEqual(48);
    store.shared.runs[0].bytes.set('big.json', Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('y')]));
    const changed = (await view.openDocument(1, 'big.json'))!;
    await expect(
      (async () => {
        for await (const _piece of changed.chunks);
      })(),
    ).rejects.toMatchObject({ code: 'run-store-tampered' });
  });

  it('holds no run when none was recorded at the OCR, and refuses writes', async () => {
    const store = new InMemoryRunStore();
    await addRuns(store, 1);
    const view = new SnapshotStore(store, { journal_seq: 0 }, store);
    expect([await view.list(), await view.latest(), await view.get(1), await view.journal()]).toEqual([[], undefined, undefined, []]);
    expect(() => view.appendJournal()).toThrow('a snapshot of the run store is read-only: record runs and journal entries in the store itself');
    expect(() => view.append()).toThrow(/read-only/);
  });
});
