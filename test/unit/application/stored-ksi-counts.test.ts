import { eachKsiCountOf } from '../../../src/application/shared/stored-ksi-counts';
import { KSI_COUNTS_DOCUMENT } from '../../../src/domain/conmon/ksi-counts';
import { IntegrityError } from '../../../src/domain/errors';
import type { RunSummary } from '../../../src/domain/conmon/run-record';
import type { KsiCounts } from '../../../src/domain/conmon/ksi-counts';
import type { RunView } from '../../../src/ports/run-store';
import { oneDocumentView } from '../../support/one-document-view';

/** A store holding one run's `ksi-counts.json` as `text`, given in chunks of `chunk` bytes; or none. */
const storeWith = (text: string | undefined, chunk = 1 << 16, failing?: Error): RunView =>
  oneDocumentView('ksi-counts.json', text, { chunk, ...(failing ? { failing } : {}) });

const RUN = { seq: 3, id: 'a'.repeat(64) } as RunSummary;
const rowsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ fail: i % 2, ksi_id: `KSI-AC-${String(i % 100).padStart(2, '0')}`, other: 0, pass: i % 3 }));
const documentOf = (rows: unknown[], tail = '"schema":"svc.ksi-counts/v1","unmapped":4') =>
  `{"ksis":[${rows.map((r) => JSON.stringify(r)).join(',')}],${tail}}`;

async function read(store: RunView): Promise<{ found: boolean; rows: KsiCounts[] }> {
  const rows: KsiCounts[] = [];
  const found = await eachKsiCountOf(await store.openDocument(RUN.id, KSI_COUNTS_DOCUMENT), store, RUN, (row) => rows.push(row));
  return { found, rows };
}

describe('eachKsiCountOf', () => {
  it('gives every row of a small document (read whole) and of a large one (read a chunk at a time)', async () => {
    for (const n of [3, 30_000]) {
      const rows = rowsOf(n);
      const text = documentOf(rows);
      expect(text.length > 1 << 20).toBe(n > 3);
      expect(await read(storeWith(text))).toEqual({ found: true, rows });
    }
  });

  it('reads nothing, and says so, for a run recorded before svc stored counts', async () => {
    expect(await read(storeWith(undefined))).toEqual({ found: false, rows: [] });
  });

  it.each([3, 30_000])('reports a document of %i rows that is not one svc wrote as run-store-tampered, naming the run', async (n) => {
    const bad = [
      documentOf([...rowsOf(n), { ksi_id: 'KSI-AC-01', pass: -1, fail: 0, other: 0 }]),
      documentOf(rowsOf(n), '"schema":"svc.other/v1","unmapped":4'),
    ];
    for (const text of bad) {
      const reading = read(storeWith(text));
      await expect(reading).rejects.toBeInstanceOf(IntegrityError);
      await expect(reading).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringMatching(/^\/srv\/store run 3 ksi-counts\.json: .*; the store was modified outside svc\. Restore it from backup$/),
      });
    }
  });

  it('passes the store’s own finding on as it is', async () => {
    const changed = new IntegrityError('run-store-tampered', '/srv/store/documents/x/ksi-counts.json.br: the document ksi-counts.json no longer matches');
    await expect(read(storeWith(documentOf(rowsOf(3)), 1 << 16, changed))).rejects.toBe(changed);
  });
});
