import { createHash } from 'node:crypto';
import { OngoingJournal } from '../../../src/application/fedramp/ongoing-journal';
import { FindEvidence } from '../../../src/application/trust/find-evidence';
import { jsonText } from '../../../src/domain/encoding/json-chunks';
import { OCR_KIND } from '../../../src/domain/fedramp/ongoing-records';
import { EVIDENCE_LIST, indexDocumentName, LIST_PAGE_SIZE, pageDocumentName, pagedListIndex, pageEntry, type ListItem } from '../../../src/domain/paging/paged-list';
import type { RunDocumentSource } from '../../../src/ports/run-store';
import { FixedClock } from '../../fakes/fixed-clock';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { recordFor, runIdOf, storedRunFor } from '../../support/stored-runs';

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

/** The store, noting each document opened as `<run seq or id>/<name>`. */
class ReadNotingStore extends InMemoryRunStore {
  readonly opened: string[] = [];

  override openDocument(key: string | number, name: string) {
    this.opened.push(`${key}/${name}`);
    return super.openDocument(key, name);
  }

  /** The names opened since the last call. */
  take(): string[] {
    return this.opened.splice(0).map((o) => o.slice(o.indexOf('/') + 1));
  }
}

/** An evidence entry as a page holds one: its content hash is `hash` (64 hex). */
const entry = (ksi: number, hash: string, observedAt = '2026-11-02T08:00:00Z'): ListItem => ({
  content_hash: `sha256:${hash}`,
  controls: ['ia-2'],
  ksi_id: `KSI-T${String(ksi).padStart(5, '0')}`,
  mapped: true,
  observed_at: observedAt,
  status: ksi % 3 === 0 ? 'FAIL' : 'PASS',
});

/** The evidence pages and index svc conmon process stores with a run (LIST_PAGE_SIZE items a page). */
function evidencePages(entries: readonly ListItem[]): RunDocumentSource[] {
  const pages: ListItem[][] = [];
  for (let i = 0; i < entries.length; i += LIST_PAGE_SIZE) pages.push(entries.slice(i, i + LIST_PAGE_SIZE));
  const index = pagedListIndex(EVIDENCE_LIST, pages.map((items) => pageEntry(EVIDENCE_LIST, items)));
  return [
    ...pages.map((items, n) => ({ name: pageDocumentName(EVIDENCE_LIST, n), media_type: 'application/json', chunks: [jsonText(items, 'canonical')] })),
    { name: indexDocumentName(EVIDENCE_LIST), media_type: 'application/json', chunks: [jsonText(index, 'canonical')] },
  ];
}

/** Records run `n` with these entries (no documents at all for `undefined`: a run of svc 0.5.0). */
async function record(store: InMemoryRunStore, n: number, entries: readonly ListItem[] | undefined): Promise<void> {
  const rec = recordFor(n);
  const id = runIdOf(rec);
  await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record: rec }), entries && (() => evidencePages(entries)));
}

/** `fedramp ocr`'s journal entry freezing run `runSeq` for the period ending `to`. */
async function recordOcr(store: InMemoryRunStore, to: string, runSeq: number): Promise<void> {
  await store.appendJournal(OCR_KIND, { period: { from: '2026-09-01', to }, next_report_date: '2027-03-01', document: {}, snapshot: { run_seq: runSeq, journal_seq: 0 } }, `${to}T12:00:00Z`);
}

function finder(store: InMemoryRunStore, clock = new FixedClock()) {
  return { find: new FindEvidence(store, new PureJsHashing(), clock, new OngoingJournal(store)), clock };
}

const hashOf = (item: ListItem) => (item.content_hash as string).slice('sha256:'.length);
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
/** Runs of distinct entries, `count` each, their hashes from `tag`. */
const entriesOf = (tag: string, count: number) => Array.from({ length: count }, (_, i) => entry(i, sha(`${tag} ${i}`)));

describe('FindEvidence: one evidence entry by its content hash, from an index of each run searched', () => {
  it('finds entries on every page of a run of several pages, the entry as the page holds it, reading one page a lookup', async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('big', 2 * LIST_PAGE_SIZE + 500);
    await record(store, 1, entries);
    const { find } = finder(store);
    store.take();
    const first = await find.execute({ sha256: hashOf(entries[0]) });
    expect(text(first.body)).toBe(jsonText(entries[0], 'canonical'));
    expect([first.sha256, first.run.seq]).toEqual([sha(first.body), 1]);
    // One pass over the pages builds the index; the lookup reads the page the entry is on again.
    expect(store.take()).toEqual(['evidence.index.json', 'evidence.000000.json', 'evidence.000001.json', 'evidence.000002.json', 'evidence.000000.json']);
    for (const i of [1, 999, 1000, 1999, 2000, 2499]) {
      const found = await find.execute({ sha256: hashOf(entries[i]) });
      expect([i, text(found.body)]).toEqual([i, jsonText(entries[i], 'canonical')]);
      expect(store.take()).toEqual([pageDocumentName(EVIDENCE_LIST, Math.floor(i / LIST_PAGE_SIZE))]);
    }
  });

  it('tells entries that share the hash prefix apart by the full hash, reading each candidate page', async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('collide', 2 * LIST_PAGE_SIZE + 10);
    const prefix = 'abcdef01';
    const early = `${prefix}${sha('early').slice(8)}`;
    const late = `${prefix}${sha('late').slice(8)}`;
    entries[10] = entry(10, early);
    entries[2005] = entry(2005, late);
    await record(store, 1, entries);
    const { find } = finder(store);
    await find.execute({ sha256: early });
    store.take();
    const found = await find.execute({ sha256: late });
    expect(text(found.body)).toBe(jsonText(entries[2005], 'canonical'));
    expect(store.take()).toEqual(['evidence.000000.json', 'evidence.000002.json']);
    await expect(find.execute({ sha256: `${prefix}${sha('neither').slice(8)}` })).rejects.toMatchObject({ code: 'no-such-evidence' });
    // A prefix no entry has reads no page.
    store.take();
    await expect(find.execute({ sha256: `0000abcd${sha('none').slice(8)}` })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(store.take()).toEqual([]);
  });

  it('builds a run\'s index once for concurrent lookups', async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('shared', 1500);
    await record(store, 1, entries);
    const { find } = finder(store);
    store.take();
    const found = await Promise.all(entries.slice(0, 20).map((e) => find.execute({ sha256: hashOf(e) })));
    expect(found.map((f) => text(f.body))).toEqual(entries.slice(0, 20).map((e) => jsonText(e, 'canonical')));
    expect(store.take().filter((name) => name === 'evidence.index.json')).toHaveLength(1);
  });

  it('searches the latest run, then the runs OCRs froze, newest OCR first; not the other runs', async () => {
    const store = new ReadNotingStore();
    const clock = new FixedClock();
    const only = (tag: string) => entry(1, sha(tag));
    const shared = sha('in every run');
    await record(store, 1, [only('run 1'), entry(2, shared, '2026-11-01T08:00:00Z')]);
    await record(store, 2, [only('run 2'), entry(2, shared, '2026-11-02T08:00:00Z')]);
    await record(store, 3, [only('run 3'), entry(2, shared, '2026-11-03T08:00:00Z')]);
    await record(store, 4, [only('run 4'), entry(2, shared, '2026-11-04T08:00:00Z')]);
    await recordOcr(store, '2026-08-31', 1);
    await recordOcr(store, '2026-11-30', 3);
    const { find } = finder(store, clock);
    // The same content hash in several runs: the latest run's entry, with its own observed_at.
    expect(JSON.parse(text((await find.execute({ sha256: shared })).body)).observed_at).toBe('2026-11-04T08:00:00Z');
    expect((await find.execute({ sha256: hashOf(only('run 1')) })).run.seq).toBe(1);
    expect((await find.execute({ sha256: hashOf(only('run 3')) })).run.seq).toBe(3);
    store.take();
    await expect(find.execute({ sha256: hashOf(only('run 2')) })).rejects.toMatchObject({
      code: 'no-such-evidence',
      message: `no evidence entry has content hash ${hashOf(only('run 2'))} in run 4 (the latest) or run 3 (the OCR snapshot of 2026-11-30) or run 1 (the OCR snapshot of 2026-08-31): evidence links resolve to the evidence of the latest run and of the runs that recorded OCRs froze`,
    });
    // Every index built already: the miss reads no page.
    expect(store.take()).toEqual([]);
  });

  it('notices a new run and a new OCR at the next recheck (a second later)', async () => {
    const store = new ReadNotingStore();
    const clock = new FixedClock();
    const first = entry(1, sha('first run'));
    await record(store, 1, [first]);
    const { find } = finder(store, clock);
    expect((await find.execute({ sha256: hashOf(first) })).run.seq).toBe(1);
    await record(store, 2, [entry(1, sha('second run'))]);
    // Within the second, run 1 is still the latest.
    expect((await find.execute({ sha256: hashOf(first) })).run.seq).toBe(1);
    clock.time = new Date(clock.time.getTime() + 1000);
    await expect(find.execute({ sha256: hashOf(first) })).rejects.toMatchObject({ message: expect.stringContaining('in run 2 (the latest):') });
    await recordOcr(store, '2026-11-30', 2);
    await record(store, 3, [entry(1, sha('third run'))]);
    clock.time = new Date(clock.time.getTime() + 1000);
    expect((await find.execute({ sha256: sha('second run') })).run.seq).toBe(2);
    await recordOcr(store, '2027-02-28', 3);
    clock.time = new Date(clock.time.getTime() + 1000);
    await expect(find.execute({ sha256: hashOf(first) })).rejects.toMatchObject({
      message: expect.stringContaining('in run 3 (the latest, and the OCR snapshot of 2027-02-28) or run 2 (the OCR snapshot of 2026-11-30):'),
    });
  });

  it('keeps indexes within its limits, the least recently used dropped and built again when asked for', async () => {
    const store = new ReadNotingStore();
    for (let n = 1; n <= 3; n++) await record(store, n, entriesOf(`run ${n}`, 10));
    await recordOcr(store, '2026-08-31', 1);
    await recordOcr(store, '2026-11-30', 2);
    const seqOf = new Map((await store.list()).map((s) => [s.id, s.seq]));
    /** The runs whose index was built since the last call, by seq. */
    const built = () => store.opened.splice(0).filter((o) => o.endsWith('/evidence.index.json')).map((o) => seqOf.get(o.split('/')[0]));
    const { find } = finder(store);
    find.limits = { entries: 1000, runs: 2 };
    await expect(find.execute({ sha256: sha('nowhere') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(built()).toEqual([3, 2, 1]);
    // Run 3's index, the least recently used, was dropped for run 1's: built again, and then kept.
    expect((await find.execute({ sha256: sha('run 3 4') })).run.seq).toBe(3);
    expect(built()).toEqual([3]);
    expect((await find.execute({ sha256: sha('run 3 5') })).run.seq).toBe(3);
    expect(built()).toEqual([]);
    // Room for every run: each built once more at most, then none.
    find.limits = { entries: 1000, runs: 16 };
    await expect(find.execute({ sha256: sha('nowhere') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(built()).toEqual([2]);
    await expect(find.execute({ sha256: sha('nowhere') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(built()).toEqual([]);
    // Bounded by entries too: room for one run of 10 entries.
    const small = finder(store).find;
    small.limits = { entries: 10, runs: 16 };
    await small.execute({ sha256: sha('run 3 1') });
    await small.execute({ sha256: sha('run 3 2') });
    expect(built()).toEqual([3]);
    await small.execute({ sha256: sha('run 2 1') });
    expect(built()).toEqual([2]);
    await small.execute({ sha256: sha('run 3 3') });
    expect(built()).toEqual([3]);
  });

  it('skips a run recorded without evidence pages and says so', async () => {
    const store = new ReadNotingStore();
    await record(store, 1, undefined);
    const { find } = finder(store);
    await expect(find.execute({ sha256: sha('x') })).rejects.toMatchObject({
      code: 'no-such-evidence',
      message: `no evidence entry has content hash ${sha('x')} in run 1 (the latest): evidence links resolve to the evidence of the latest run and of the runs that recorded OCRs froze; run 1 was recorded without evidence pages (by an earlier svc)`,
    });
  });

  it('answers no-run-recorded for an empty store, and refuses a hash that is not 64 lower-case hex digits', async () => {
    const { find } = finder(new InMemoryRunStore());
    await expect(find.execute({ sha256: sha('x') })).rejects.toMatchObject({
      code: 'no-run-recorded',
      message: 'no run is recorded in the run store at memory, so there is no evidence entry yet; the provider records one with svc conmon process <report>',
    });
    await expect(find.execute({ sha256: sha('x').toUpperCase() })).rejects.toMatchObject({ code: 'bad-content-hash' });
  });

  it('does not keep a failed build: the next lookup tries again', async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('flaky', 3);
    await record(store, 1, entries);
    const { find } = finder(store);
    const real = store.openDocument.bind(store);
    let failing = true;
    store.openDocument = async (key, name) => {
      if (failing && name === 'evidence.000000.json') throw new Error('disk went away');
      return real(key, name);
    };
    await expect(find.execute({ sha256: hashOf(entries[1]) })).rejects.toThrow('disk went away');
    failing = false;
    expect(text((await find.execute({ sha256: hashOf(entries[1]) })).body)).toBe(jsonText(entries[1], 'canonical'));
  });
});
