import { createHash } from 'node:crypto';
import { OngoingJournal } from '../../../src/application/fedramp/ongoing-journal';
import { evidenceIndexSources } from '../../../src/application/conmon/evidence-index-sources';
import { EVIDENCE_BUCKET_BYTES, FindEvidence } from '../../../src/application/trust/find-evidence';
import { jsonText } from '../../../src/domain/encoding/json-chunks';
import { OCR_KIND } from '../../../src/domain/fedramp/ongoing-records';
import {
  EVIDENCE_LIST,
  indexDocumentName,
  LIST_PAGE_SIZE,
  pageDocumentName,
  pagedListIndex,
  pageEntry,
  type ListItem,
} from '../../../src/domain/paging/paged-list';
import { bucketDocumentName, bucketOf, EVIDENCE_INDEX_DOCUMENT } from '../../../src/domain/trust/evidence-index';
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
  const index = pagedListIndex(
    EVIDENCE_LIST,
    pages.map((items) => pageEntry(EVIDENCE_LIST, items)),
  );
  return [
    ...pages.map((items, n) => ({ name: pageDocumentName(EVIDENCE_LIST, n), media_type: 'application/json', chunks: [jsonText(items, 'canonical')] })),
    { name: indexDocumentName(EVIDENCE_LIST), media_type: 'application/json', chunks: [jsonText(index, 'canonical')] },
  ];
}

/** The stored index `svc conmon process` writes beside the pages (evidenceIndexSources). */
const indexOf = (entries: readonly ListItem[]): RunDocumentSource[] =>
  evidenceIndexSources({ length: entries.length, hashAt: (i) => (entries[i].content_hash as string).slice('sha256:'.length) });

/**
 * Records run `n` with these entries, as svc records a run now: its evidence pages and their stored index. `legacy`:
 * the pages alone, as an svc before the stored index recorded them; no documents at all for `undefined` entries (svc
 * 0.5.0).
 */
async function record(
  store: InMemoryRunStore,
  n: number,
  entries: readonly ListItem[] | undefined,
  options: { legacy?: boolean; sources?: (entries: readonly ListItem[]) => RunDocumentSource[] } = {},
): Promise<void> {
  const rec = recordFor(n);
  const id = runIdOf(rec);
  const sources = options.sources ?? ((e: readonly ListItem[]) => [...evidencePages(e), ...(options.legacy ? [] : indexOf(e))]);
  await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record: rec }), entries && (() => sources(entries)));
}

/** `fedramp ocr`'s journal entry freezing run `runSeq` for the period ending `to`. */
async function recordOcr(store: InMemoryRunStore, to: string, runSeq: number): Promise<void> {
  await store.appendJournal(
    OCR_KIND,
    { period: { from: '2026-09-01', to }, next_report_date: '2027-03-01', document: {}, snapshot: { run_seq: runSeq, journal_seq: 0 } },
    `${to}T12:00:00Z`,
  );
}

/** A FindEvidence over `store`; `bucketBytes` 0 keeps no bucket, so every lookup's reads show. */
function finder(store: InMemoryRunStore, clock = new FixedClock(), bucketBytes = 0) {
  const find = new FindEvidence(store, new PureJsHashing(), clock, new OngoingJournal(store));
  find.bucketBytes = bucketBytes;
  return { find, clock };
}

const hashOf = (item: ListItem) => (item.content_hash as string).slice('sha256:'.length);
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
/** Runs of distinct entries, `count` each, their hashes from `tag`. */
const entriesOf = (tag: string, count: number) => Array.from({ length: count }, (_, i) => entry(i, sha(`${tag} ${i}`)));

describe('FindEvidence: one evidence entry by its content hash, through the index each run carries', () => {
  it("finds entries on every page of a run through its stored index: the header once, then one bucket and the entry's page a lookup, never a pass", async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('big', 9 * LIST_PAGE_SIZE + 500);
    await record(store, 1, entries);
    const { find } = finder(store);
    store.take();
    const bucket = (i: number) => bucketDocumentName(bucketOf(hashOf(entries[i]), 2));
    const first = await find.execute({ sha256: hashOf(entries[0]) });
    expect(text(first.body)).toBe(jsonText(entries[0], 'canonical'));
    expect([first.sha256, first.run.seq]).toEqual([sha(first.body), 1]);
    expect(store.take()).toEqual([EVIDENCE_INDEX_DOCUMENT, bucket(0), 'evidence.000000.json']);
    for (const i of [1, 999, 1000, 4999, 9000, 9499]) {
      const found = await find.execute({ sha256: hashOf(entries[i]) });
      expect([i, text(found.body)]).toEqual([i, jsonText(entries[i], 'canonical')]);
      expect(store.take()).toEqual([bucket(i), pageDocumentName(EVIDENCE_LIST, Math.floor(i / LIST_PAGE_SIZE))]);
    }
    expect(find.counts).toEqual({ built: 0, bucketsRead: 7, pagesRead: 7 });
    // 9,500 entries: four buckets by the first two bits of the hash, each read as a whole document.
    expect(new Set([0, 1, 999, 1000, 4999, 9000, 9499].map(bucket)).size).toBeGreaterThan(1);
  });

  it("tells entries that share the hash prefix apart by the full hash, reading each candidate's page; a prefix no entry has reads the bucket alone", async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('collide', 2 * LIST_PAGE_SIZE + 10);
    const prefix = 'abcdef01';
    const early = `${prefix}${sha('early').slice(8)}`;
    const late = `${prefix}${sha('late').slice(8)}`;
    entries[10] = entry(10, early);
    entries[2005] = entry(2005, late);
    await record(store, 1, entries);
    const { find } = finder(store);
    expect(text((await find.execute({ sha256: early })).body)).toBe(jsonText(entries[10], 'canonical'));
    store.take();
    const found = await find.execute({ sha256: late });
    expect(text(found.body)).toBe(jsonText(entries[2005], 'canonical'));
    expect(store.take()).toEqual(['evidence-index.0000.bin', 'evidence.000000.json', 'evidence.000002.json']);
    await expect(find.execute({ sha256: `${prefix}${sha('neither').slice(8)}` })).rejects.toMatchObject({ code: 'no-such-evidence' });
    store.take();
    await expect(find.execute({ sha256: `0000abcd${sha('none').slice(8)}` })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(store.take()).toEqual(['evidence-index.0000.bin']);
  });

  it('gives the first of an entry recorded twice in a run (the same content hash at two positions)', async () => {
    const store = new ReadNotingStore();
    const twice = sha('twice');
    const entries = [entry(1, sha('one')), entry(2, twice, '2026-11-02T08:00:00Z'), entry(3, twice, '2026-11-03T08:00:00Z')];
    await record(store, 1, entries);
    expect(JSON.parse(text((await finder(store).find.execute({ sha256: twice })).body)).observed_at).toBe('2026-11-02T08:00:00Z');
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
      message: `no evidence entry has content hash ${hashOf(only('run 2'))} in run 4 (the latest) or run 3 (the OCR snapshot of 2026-11-30) or run 1 (the OCR snapshot of 2026-08-31): evidence links resolve to the evidence of the latest run of every source and of the runs that recorded OCRs froze`,
    });
    // One bucket of each run searched; no page (no candidate), no header again.
    expect(store.opened.splice(0)).toEqual([
      `${(await store.list())[3].id}/evidence-index.0000.bin`,
      `${(await store.list())[2].id}/evidence-index.0000.bin`,
      `${(await store.list())[0].id}/evidence-index.0000.bin`,
    ]);
  });

  it("searches the latest run of every source (the store's state), newest first: another scanner's run does not hide a source's evidence", async () => {
    const store = new ReadNotingStore();
    const only = (tag: string) => entry(1, sha(tag));
    const recordAs = async (n: number, tool: string, entries: ListItem[]) => {
      const base = recordFor(n);
      const rec = { ...base, report: { ...base.report, source: { tool } } };
      const id = runIdOf(rec);
      await store.append(
        id,
        (_latest, seq) => storedRunFor(id, seq, { record: rec }),
        () => [...evidencePages(entries), ...indexOf(entries)],
      );
    };
    await recordAs(1, 'Nessus', [only('nessus monday')]);
    await recordAs(2, 'ScubaGear', [only('scuba')]);
    await recordAs(3, 'Nessus', [only('nessus tuesday')]);
    await recordAs(4, 'Trivy', [only('trivy')]);
    const { find } = finder(store);
    for (const [tag, seq] of [
      ['scuba', 2],
      ['nessus tuesday', 3],
      ['trivy', 4],
    ] as const)
      expect((await find.execute({ sha256: hashOf(only(tag)) })).run.seq).toBe(seq);
    await expect(find.execute({ sha256: hashOf(only('nessus monday')) })).rejects.toMatchObject({
      code: 'no-such-evidence',
      message: `no evidence entry has content hash ${hashOf(only('nessus monday'))} in run 4 (the latest of Trivy) or run 3 (the latest of Nessus) or run 2 (the latest of ScubaGear): evidence links resolve to the evidence of the latest run of every source and of the runs that recorded OCRs froze`,
    });
  });

  it('more runs than any cache holds: every lookup reads one bucket per run searched and builds nothing, however often', async () => {
    const store = new ReadNotingStore();
    const runs = 40;
    for (let n = 1; n <= runs; n++) {
      await record(store, n, entriesOf(`run ${n}`, 1200));
      await recordOcr(store, `2026-${String(1 + Math.floor((n - 1) / 4)).padStart(2, '0')}-${String(1 + ((n - 1) % 4) * 7).padStart(2, '0')}`, n);
    }
    const { find } = finder(store);
    await expect(find.execute({ sha256: sha('nowhere') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(store.take().filter((name) => name === EVIDENCE_INDEX_DOCUMENT)).toHaveLength(runs);
    for (let round = 0; round < 3; round++) {
      await expect(find.execute({ sha256: sha(`nowhere ${round}`) })).rejects.toMatchObject({ code: 'no-such-evidence' });
      expect(store.take()).toEqual(Array.from({ length: runs }, () => 'evidence-index.0000.bin'));
      // A hit in the oldest frozen run: searched last, its page read alone.
      expect((await find.execute({ sha256: sha(`run 1 ${700 + round}`) })).run.seq).toBe(1);
      expect(store.take()).toEqual([...Array.from({ length: runs }, () => 'evidence-index.0000.bin'), 'evidence.000000.json']);
    }
    expect(find.counts.built).toBe(0);
  });

  it('keeps the buckets it read, up to bucketBytes, the least recently used dropped first: a lookup in a kept bucket reads no index; none is built', async () => {
    const store = new ReadNotingStore();
    const clock = new FixedClock();
    for (let n = 1; n <= 3; n++) {
      await record(store, n, entriesOf(`run ${n}`, 100));
      await recordOcr(store, `2026-0${n}-28`, n);
    }
    // Room for two runs' buckets of 800 bytes (100 entries of 8 bytes).
    const { find } = finder(store, clock, 1600);
    expect(find.bucketBytes).toBe(1600);
    await expect(find.execute({ sha256: sha('nowhere 1') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(store.take()).toEqual([
      EVIDENCE_INDEX_DOCUMENT,
      'evidence-index.0000.bin',
      EVIDENCE_INDEX_DOCUMENT,
      'evidence-index.0000.bin',
      EVIDENCE_INDEX_DOCUMENT,
      'evidence-index.0000.bin',
    ]);
    expect(find.kept).toEqual({ headers: 3, built: 0, buckets: 2, bucketBytes: 1600 });
    // Runs 3, 2, 1 searched in that order: run 3's bucket was dropped for run 1's, then run 2's for run 3's, ….
    await expect(find.execute({ sha256: sha('nowhere 2') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(store.take()).toEqual(['evidence-index.0000.bin', 'evidence-index.0000.bin', 'evidence-index.0000.bin']);
    find.bucketBytes = 2400;
    await expect(find.execute({ sha256: sha('nowhere 3') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    store.take();
    for (let i = 0; i < 3; i++) await expect(find.execute({ sha256: sha(`nowhere again ${i}`) })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(store.take()).toEqual([]);
    expect((await find.execute({ sha256: sha('run 1 42') })).run.seq).toBe(1);
    expect(store.take()).toEqual(['evidence.000000.json']);
    expect(find.counts).toEqual({ built: 0, bucketsRead: 7, pagesRead: 1 });
    // Run 4 is the latest for a while, then run 5: what was kept of run 4, no longer searched, is dropped.
    find.bucketBytes = 10_000;
    await record(store, 4, entriesOf('run 4', 100));
    clock.time = new Date(clock.time.getTime() + 1000);
    await expect(find.execute({ sha256: sha('nowhere 4') })).rejects.toMatchObject({ code: 'no-such-evidence' });
    expect(find.kept).toEqual({ headers: 4, built: 0, buckets: 4, bucketBytes: 3200 });
    await record(store, 5, entriesOf('run 5', 10));
    clock.time = new Date(clock.time.getTime() + 1000);
    await expect(find.execute({ sha256: sha('nowhere 5') })).rejects.toMatchObject({
      message: expect.stringContaining('in run 5 (the latest) or run 3 (the OCR snapshot of 2026-03-28)'),
    });
    expect(find.kept).toEqual({ headers: 4, built: 0, buckets: 4, bucketBytes: 2480 });
  });

  it('reads a bucket once for concurrent lookups that need it', async () => {
    const store = new ReadNotingStore();
    const entries = entriesOf('concurrent', 1500);
    await record(store, 1, entries);
    const { find } = finder(store, new FixedClock(), EVIDENCE_BUCKET_BYTES);
    store.take();
    const found = await Promise.all(entries.slice(0, 20).map((e) => find.execute({ sha256: hashOf(e) })));
    expect(found.map((f) => text(f.body))).toEqual(entries.slice(0, 20).map((e) => jsonText(e, 'canonical')));
    expect(store.take().filter((name) => name.startsWith('evidence-index'))).toEqual([EVIDENCE_INDEX_DOCUMENT, 'evidence-index.0000.bin']);
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

  it('a run of no results carries an empty index: no bucket to read', async () => {
    const store = new ReadNotingStore();
    await record(store, 1, [], { sources: (e) => indexOf(e) });
    const { find } = finder(store);
    await expect(find.execute({ sha256: sha('x') })).rejects.toMatchObject({
      code: 'no-such-evidence',
      message: expect.stringContaining('in run 1 (the latest):'),
    });
    expect(store.take()).toEqual([EVIDENCE_INDEX_DOCUMENT]);
  });

  describe('runs recorded before svc stored the index (their evidence pages alone)', () => {
    it("builds such a run's index once, from one pass over its pages, shared by concurrent lookups, and says so once", async () => {
      const store = new ReadNotingStore();
      const entries = entriesOf('legacy', 2 * LIST_PAGE_SIZE + 500);
      await record(store, 1, entries, { legacy: true });
      const { find } = finder(store);
      const told: [number, number][] = [];
      find.onIndexBuilt = (run, size) => told.push([run.seq, size]);
      store.take();
      const found = await Promise.all(entries.slice(0, 20).map((e) => find.execute({ sha256: hashOf(e) })));
      expect(found.map((f) => text(f.body))).toEqual(entries.slice(0, 20).map((e) => jsonText(e, 'canonical')));
      const opened = store.take();
      expect(opened.filter((name) => name === 'evidence.index.json')).toHaveLength(1);
      expect(opened.filter((name) => name === EVIDENCE_INDEX_DOCUMENT)).toHaveLength(1);
      for (const i of [1, 999, 1000, 1999, 2000, 2499]) {
        expect(text((await find.execute({ sha256: hashOf(entries[i]) })).body)).toBe(jsonText(entries[i], 'canonical'));
        expect(store.take()).toEqual([pageDocumentName(EVIDENCE_LIST, Math.floor(i / LIST_PAGE_SIZE))]);
      }
      expect(told).toEqual([[1, 2500]]);
      expect(find.counts.built).toBe(1);
    });

    it('keeps a built index while its run is searched, and drops it when the run no longer is', async () => {
      const store = new ReadNotingStore();
      const clock = new FixedClock();
      await record(store, 1, entriesOf('old 1', 10), { legacy: true });
      await record(store, 2, entriesOf('old 2', 10), { legacy: true });
      await recordOcr(store, '2026-08-31', 1);
      const { find } = finder(store, clock);
      for (let i = 0; i < 5; i++) await expect(find.execute({ sha256: sha(`nowhere ${i}`) })).rejects.toMatchObject({ code: 'no-such-evidence' });
      expect([find.counts.built, find.kept]).toMatchObject([2, { headers: 2, built: 2 }]);
      // Run 3, recorded now, is the latest: run 2 is no longer searched, run 1 (frozen) still is.
      await record(store, 3, entriesOf('new 3', 10));
      clock.time = new Date(clock.time.getTime() + 1000);
      for (let i = 0; i < 5; i++)
        await expect(find.execute({ sha256: sha(`nowhere ${i}`) })).rejects.toMatchObject({
          message: expect.stringContaining('in run 3 (the latest) or run 1 (the OCR snapshot of 2026-08-31):'),
        });
      expect((await find.execute({ sha256: sha('old 1 3') })).run.seq).toBe(1);
      expect([find.counts.built, find.kept]).toMatchObject([2, { headers: 2, built: 1 }]);
    });

    it('searches runs with and without a stored index alike, in the same order', async () => {
      const store = new ReadNotingStore();
      await record(store, 1, entriesOf('old', 30), { legacy: true });
      await record(store, 2, entriesOf('new', 30));
      await recordOcr(store, '2026-08-31', 1);
      const { find } = finder(store);
      expect((await find.execute({ sha256: sha('old 7') })).run.seq).toBe(1);
      expect((await find.execute({ sha256: sha('new 7') })).run.seq).toBe(2);
      expect(find.counts).toMatchObject({ built: 1 });
    });

    it('does not keep a failed build: the next lookup tries again', async () => {
      const store = new ReadNotingStore();
      const entries = entriesOf('flaky', 3);
      await record(store, 1, entries, { legacy: true });
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
      expect(find.counts.built).toBe(1);
    });

    it('skips a run recorded without evidence pages and says so', async () => {
      const store = new ReadNotingStore();
      await record(store, 1, undefined);
      const { find } = finder(store);
      await expect(find.execute({ sha256: sha('x') })).rejects.toMatchObject({
        code: 'no-such-evidence',
        message: `no evidence entry has content hash ${sha('x')} in run 1 (the latest): evidence links resolve to the evidence of the latest run of every source and of the runs that recorded OCRs froze; run 1 was recorded without evidence pages (by an earlier svc)`,
      });
    });
  });

  describe('an index changed after it was stored, or stored wrong', () => {
    const entries = entriesOf('tamper', 50);
    const stored = async (change: (bytes: Map<string, Buffer>) => void, sources?: (e: readonly ListItem[]) => RunDocumentSource[]) => {
      const store = new ReadNotingStore();
      await record(store, 1, entries, sources ? { sources } : {});
      change(store.shared.runs[0].bytes);
      return finder(store).find;
    };

    it('a byte of a bucket or of the header changed outside svc is run-store-tampered, from the hash chain', async () => {
      for (const name of ['evidence-index.0000.bin', EVIDENCE_INDEX_DOCUMENT]) {
        const find = await stored((bytes) => {
          const changed = Buffer.from(bytes.get(name)!);
          changed[3] ^= 1;
          bytes.set(name, changed);
        });
        await expect(find.execute({ sha256: hashOf(entries[7]) })).rejects.toMatchObject({
          code: 'run-store-tampered',
          message: expect.stringContaining(`the document ${name} no longer matches the SHA-256 its run's link in the hash chain names`),
        });
      }
    });

    const rewritten = (name: string, bytes: (original: Buffer) => Uint8Array | string) => (e: readonly ListItem[]) =>
      [...evidencePages(e), ...indexOf(e)].map((source) =>
        source.name === name
          ? { ...source, chunks: [bytes(Buffer.concat([...(source.chunks as Iterable<Uint8Array | string>)].map((c) => Buffer.from(c))))] }
          : source,
      );

    it.each([
      [
        'a header of another schema',
        EVIDENCE_INDEX_DOCUMENT,
        () => JSON.stringify({ schema: 'svc.evidence-index/v9', list: 'evidence', entries: 50, page_size: 1000, bucket_bits: 0 }),
        `memory run 1 ${EVIDENCE_INDEX_DOCUMENT} is not a svc.evidence-index/v1 index of the evidence list; the store was modified outside svc, or by a newer svc. Restore it from backup, or serve it with that svc`,
      ],
      ['a header that is not JSON', EVIDENCE_INDEX_DOCUMENT, () => '{', `memory run 1 ${EVIDENCE_INDEX_DOCUMENT} is not a svc.evidence-index/v1 index`],
      [
        'a bucket cut mid-entry',
        'evidence-index.0000.bin',
        (b: Buffer) => b.subarray(0, 13),
        'memory run 1 evidence-index.0000.bin is 13 bytes, not a whole number of 8-byte entries; the store was modified outside svc. Restore it from backup',
      ],
      [
        'a bucket out of order',
        'evidence-index.0000.bin',
        (b: Buffer) => Buffer.concat([b.subarray(8, 16), b.subarray(0, 8), b.subarray(16)]),
        'memory run 1 evidence-index.0000.bin is not in order',
      ],
      [
        'a position past the list',
        'evidence-index.0000.bin',
        (b: Buffer) => Buffer.concat([b.subarray(0, 4), Buffer.from([0, 0, 0, 99])]),
        'memory run 1 evidence-index.0000.bin names position 99, past the 50 entries of the list',
      ],
    ])('%s is run-store-tampered, naming the document', async (_what, name, bytes, message) => {
      const find = await stored(() => undefined, rewritten(name, bytes as (b: Buffer) => Uint8Array | string));
      await expect(find.execute({ sha256: hashOf(entries[7]) })).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(message),
      });
    });

    it('a position that points past the page it names is run-store-tampered', async () => {
      const target = hashOf(entries[7]);
      const find = await stored(
        () => undefined,
        (e) => [...evidencePages(e.slice(0, 5)), ...indexOf(e)],
      );
      await expect(find.execute({ sha256: target })).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining('memory run 1 evidence-index.0000.bin names position 7, which evidence.000000.json does not hold'),
      });
    });
  });

  it('answers no-run-recorded for an empty store, and refuses a hash that is not 64 lower-case hex digits', async () => {
    const { find } = finder(new InMemoryRunStore());
    await expect(find.execute({ sha256: sha('x') })).rejects.toMatchObject({
      code: 'no-run-recorded',
      message: 'no run is recorded yet, so there is no evidence entry; the provider records one with svc conmon process <report>',
    });
    await expect(find.execute({ sha256: sha('x').toUpperCase() })).rejects.toMatchObject({ code: 'bad-content-hash' });
  });
});
