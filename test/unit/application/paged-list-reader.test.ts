import { CurrentRun } from '../../../src/application/auditor/current-run';
import { PagedListReader } from '../../../src/application/auditor/paged-list-reader';
import { jsonText } from '../../../src/domain/encoding/json-chunks';
import { EVIDENCE_LIST, pagedListIndex, pageEntry } from '../../../src/domain/paging/paged-list';
import type { RunDocumentSource } from '../../../src/ports/run-store';
import { FixedClock } from '../../fakes/fixed-clock';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import { recordFor, runIdOf, storedRunFor } from '../../support/stored-runs';

/** The store, noting the documents read. */
class ReadNotingStore extends InMemoryRunStore {
  readonly opened: string[] = [];

  override openDocument(key: string | number, name: string) {
    this.opened.push(name);
    return super.openDocument(key, name);
  }
}

const entry = (ksi_id: string, status: string) => ({ ksi_id, status, content_hash: `sha256:${ksi_id}` });
const ENTRIES = [entry('KSI-A', 'PASS'), entry('KSI-B', 'FAIL'), entry('KSI-C', 'PASS'), entry('KSI-D', 'WARN'), entry('KSI-E', 'FAIL')];
const ksis = (page: { items: Record<string, unknown>[] }) => page.items.map((i) => i.ksi_id);

/** Evidence pages of two entries (the index says so), as the reader finds them in a store. */
function pagesOfTwo(): RunDocumentSource[] {
  const pages = [ENTRIES.slice(0, 2), ENTRIES.slice(2, 4), ENTRIES.slice(4)];
  const index = {
    ...pagedListIndex(
      EVIDENCE_LIST,
      pages.map((items) => pageEntry(EVIDENCE_LIST, items)),
    ),
    page_size: 2,
  };
  return [
    ...pages.map((items, n) => ({ name: `evidence.00000${n}.json`, media_type: 'application/json', chunks: [jsonText(items, 'canonical')] })),
    { name: 'evidence.index.json', media_type: 'application/json', chunks: [jsonText(index, 'canonical')] },
  ];
}

async function readerOver(sources?: RunDocumentSource[]) {
  const store = new ReadNotingStore();
  const record = recordFor(1);
  const id = runIdOf(record);
  await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }), sources && (() => sources));
  const reader = new PagedListReader(new CurrentRun(store, new FixedClock()), store);
  return { store, reader, tag: id.slice(0, 16), id };
}

describe('PagedListReader: a page of a list from the stored pages and their index', () => {
  it('pages through the unfiltered list, the cursor carrying the position where the next page resumes', async () => {
    const { reader, tag, store } = await readerOver(pagesOfTwo());
    const first = await reader.read(EVIDENCE_LIST, { filter: {}, limit: 2 });
    expect([ksis(first), first.total, first.next_cursor]).toEqual([['KSI-A', 'KSI-B'], 5, `2.${tag}`]);
    expect(store.opened).toEqual(['evidence.index.json', 'evidence.000000.json']);
    const second = await reader.read(EVIDENCE_LIST, { filter: {}, limit: 3, cursor: first.next_cursor! });
    expect([ksis(second), second.next_cursor]).toEqual([['KSI-C', 'KSI-D', 'KSI-E'], null]);
    // The index is read once per run.
    expect(store.opened.filter((n) => n === 'evidence.index.json')).toHaveLength(1);
    const all = await reader.read(EVIDENCE_LIST, { filter: {} });
    expect([ksis(all), all.next_cursor, all.run.seq]).toEqual([ENTRIES.map((e) => e.ksi_id), null, 1]);
  });

  it('scans a filtered list forward, skipping the pages whose facets hold no match, with the total from the index', async () => {
    const { reader, tag, store } = await readerOver(pagesOfTwo());
    const first = await reader.read(EVIDENCE_LIST, { filter: { status: ['FAIL'] }, limit: 1 });
    expect([ksis(first), first.total, first.next_cursor]).toEqual([['KSI-B'], 2, `2.${tag}`]);
    store.opened.length = 0;
    const second = await reader.read(EVIDENCE_LIST, { filter: { status: ['FAIL'] }, limit: 1, cursor: first.next_cursor! });
    expect([ksis(second), second.total, second.next_cursor]).toEqual([['KSI-E'], 2, null]);
    expect(store.opened).toEqual(['evidence.000002.json']);
    // The last match fills the page exactly: no cursor to an empty page.
    const both = await reader.read(EVIDENCE_LIST, { filter: { status: ['FAIL', 'WARN'] }, limit: 3 });
    expect([ksis(both), both.total, both.next_cursor]).toEqual([['KSI-B', 'KSI-D', 'KSI-E'], 3, null]);
    const none = await reader.read(EVIDENCE_LIST, { filter: { status: ['PASS'] }, limit: 1, cursor: `5.${tag}` });
    expect([ksis(none), none.total, none.next_cursor]).toEqual([[], 2, null]);
  });

  it('finds requested keys by their pages, with a status filter and paging', async () => {
    const { reader, tag, store } = await readerOver(pagesOfTwo());
    const first = await reader.read(EVIDENCE_LIST, { filter: {}, keys: ['KSI-E', 'KSI-A', 'KSI-0', 'KSI-Z', 'KSI-A'], limit: 1 });
    expect([ksis(first), first.total, first.next_cursor]).toEqual([['KSI-A'], 2, `1.${tag}`]);
    expect(store.opened).toEqual(['evidence.index.json', 'evidence.000000.json', 'evidence.000002.json']);
    const second = await reader.read(EVIDENCE_LIST, { filter: {}, keys: ['KSI-E', 'KSI-A'], limit: 1, cursor: first.next_cursor! });
    expect([ksis(second), second.total, second.next_cursor]).toEqual([['KSI-E'], 2, null]);
    const passing = await reader.read(EVIDENCE_LIST, { filter: { status: ['PASS'] }, keys: ['KSI-C', 'KSI-D'] });
    expect([ksis(passing), passing.total, passing.next_cursor]).toEqual([['KSI-C'], 1, null]);
  });

  it('refuses a bad limit, a cursor it did not give and one of another run', async () => {
    const { reader } = await readerOver(pagesOfTwo());
    await expect(reader.read(EVIDENCE_LIST, { filter: {}, limit: 1001 })).rejects.toMatchObject({ code: 'bad-limit' });
    await expect(reader.read(EVIDENCE_LIST, { filter: {}, cursor: 'xyz' })).rejects.toMatchObject({ code: 'bad-cursor', kind: 'invalid-input' });
    await expect(reader.read(EVIDENCE_LIST, { filter: {}, cursor: '2.0123456789abcdef' })).rejects.toMatchObject({ code: 'stale-cursor', kind: 'conflict' });
  });

  it('is 404 no-run-documents for a run recorded without pages', async () => {
    const { reader, id } = await readerOver();
    await expect(reader.read(EVIDENCE_LIST, { filter: {} })).rejects.toMatchObject({
      kind: 'not-found',
      code: 'no-run-documents',
      message: `run 1 (${id.slice(0, 12)}) was recorded without its evidence pages (by an earlier svc); record a run with this svc (svc conmon process <report>) and the API serves its lists`,
    });
  });
});
