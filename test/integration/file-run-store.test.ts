import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
import canonicalize from 'canonicalize';
import { InvalidInputError, UnavailableError } from '../../src/domain/errors';
import { FileRunStore } from '../../src/infrastructure/store/file-run-store';
import { runStoreContract, type JournalTamperTarget, type TamperTarget } from '../contracts/run-store.contract';
import type { StoredRun } from '../../src/domain/conmon/run-record';
import { bundleTextFor, recordFor, runIdOf, runIdWithBundle, storedRunFor } from '../support/stored-runs';
import {
  editStoredState,
  openedText,
  readStoredDocument,
  readStoredState,
  storedDocumentFile,
  storedStateFile,
  writeStoredDocument,
} from '../support/stored-documents';
import { decodeSpans, encodeSpans } from '../../src/domain/conmon/content-pieces';
import type { RunDocumentSource } from '../../src/ports/run-store';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-runs-'));
  roots.push(root);
  return root;
}

runStoreContract('FileRunStore', async () => {
  const dir = join(freshRoot(), 'store');
  const store = new FileRunStore({ dir });
  return {
    store,
    twin: () => new FileRunStore({ dir }),
    tamper: (target, run) => tamperFile(dir, target, run),
    tamperJournal: async (target, seq) => tamperJournalFile(dir, target, seq),
    cleanup: () => store.close(),
  };
});

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Edits one file of the store as a person would (the JSON stays valid), and says what the store must report. */
async function tamperFile(dir: string, target: TamperTarget, { id, seq }: { id: string; seq: number }): Promise<string> {
  const edit = (path: string, change: (json: Record<string, any>) => void, space: number | undefined = 2) => {
    const json = JSON.parse(readFileSync(path, 'utf8'));
    change(json);
    writeFileSync(path, JSON.stringify(json, null, space));
  };
  const index = join(dir, 'index.json');
  const state = storedStateFile(dir, seq, id);
  switch (target) {
    case 'record': {
      const path = join(dir, 'runs', `${id}.json`);
      writeFileSync(path, readFileSync(path, 'utf8').replace('ScubaGear', 'ScubaGeaR'));
      return `${path}: the hash chain does not match the record of run ${seq} (${id})`;
    }
    case 'poam':
      // Kept compact, as svc writes it: the state is read a piece at a time and the edit found as the items go by.
      editStoredState(dir, seq, id, (json) => (json.poam[0].risk_rating = 'Low'));
      return `${state}: the hash chain does not match the POA&M state of run ${seq} (${id})`;
    case 'events':
      // Pretty-printed: not the form svc writes, so the state is read whole, and the edit found as before.
      editStoredState(dir, seq, id, (json) => json.events.pop(), 2);
      return `${state}: the hash chain does not match the events of run ${seq} (${id})`;
    case 'summary':
      edit(index, (json) => (json.runs[seq - 1].summary.counts.fail = 0));
      return `${index}: the hash chain does not match the summary of run ${seq} (${id})`;
    case 'link': {
      // The POA&M hash of the link made to match an edited state file: the link's head no longer follows.
      edit(index, (json) => (json.runs[seq - 1].link.records.poam = sha('[]')));
      const next = JSON.parse(readFileSync(index, 'utf8')).runs[seq].summary.id;
      return `${index}: the chain link of run ${seq + 1} (${next}) does not follow run ${seq}`;
    }
    case 'head':
      edit(index, (json) => (json.head = sha('another head')));
      return `${index}: the chain head does not match run ${seq}, the latest run`;
    case 'latest-removed':
      edit(index, (json) => json.runs.pop());
      return `${index}: the chain head does not match run ${seq - 1}, the latest run`;
    case 'document': {
      // Kept as pieces: the document is read, edited and stored compressed in its place, as a person with brotli would.
      const documents = join(dir, 'documents', id);
      writeStoredDocument(documents, 'sar.json', readStoredDocument(documents, 'sar.json').toString('utf8').replace('"observation":7,', '"observation":8,'));
      return `${storedDocumentFile(documents, 'sar.json')}: the document sar.json no longer matches the SHA-256 its run's link in the hash chain names`;
    }
    case 'document-list': {
      const list = join(dir, 'documents', id, '.list.json.br');
      const json = JSON.parse(brotliDecompressSync(readFileSync(list)).toString('utf8'));
      json.find((d: { name: string }) => d.name === 'sar.json').sha256 = sha('forged');
      writeFileSync(list, brotliCompressSync(JSON.stringify(json, null, 2)));
      return `${list}: the hash chain does not match the document list of run ${seq} (${id})`;
    }
    case 'kept-list':
      edit(index, (json) => (json.runs[seq - 1].kept.find((d: { name: string }) => d.name === 'manifest.json').sha256 = sha('forged')));
      return `${index}: the hash chain does not match the kept document list of run ${seq} (${id})`;
  }
}

/** Edits journal.ndjson or journal.head.json as a person would (each line stays JSON), and says what the store must report. */
function tamperJournalFile(dir: string, target: JournalTamperTarget, seq: number): string {
  const journal = join(dir, 'journal.ndjson');
  const head = join(dir, 'journal.head.json');
  const lines = readFileSync(journal, 'utf8').split('\n').slice(0, -1);
  const write = (edited: string[]) => writeFileSync(journal, edited.map((line) => `${line}\n`).join(''));
  switch (target) {
    case 'record': {
      const entry = JSON.parse(lines[seq - 1]);
      entry.record.by = 'mallory@agency.example';
      lines[seq - 1] = JSON.stringify(entry);
      write(lines);
      return `${journal}: journal entry ${seq} does not match its hash`;
    }
    case 'removed':
      write(lines.filter((_, i) => i !== seq - 1));
      return `${journal}: journal entry ${seq} is missing or out of place (entry ${seq + 1} is in its place)`;
    case 'swapped':
      [lines[seq - 1], lines[seq]] = [lines[seq], lines[seq - 1]];
      write(lines);
      return `${journal}: journal entry ${seq} is missing or out of place (entry ${seq + 1} is in its place)`;
    case 'inserted':
      lines.splice(seq, 0, lines[seq - 1]);
      write(lines);
      return `${journal}: journal entry ${seq + 1} is missing or out of place (entry ${seq} is in its place)`;
    case 'latest-removed':
      write(lines.slice(0, -1));
      return `${head}: journal entry ${seq} is missing (the journal head names entry ${seq} as the latest)`;
    case 'head':
      writeFileSync(head, JSON.stringify({ ...JSON.parse(readFileSync(head, 'utf8')), hash: sha('another head') }));
      return `${head}: journal entry ${seq} is not the latest entry the journal head names`;
  }
}

/** Appends run n of the test history with the documents `produce` gives, and returns its id. */
async function appendProduced(store: FileRunStore, n: number, produce: () => RunDocumentSource[]): Promise<string> {
  const record = recordFor(n);
  const id = runIdOf(record);
  await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }), produce);
  return id;
}

/** Appends run n of the test history and returns its id. */
async function append(store: FileRunStore, n: number): Promise<string> {
  const record = recordFor(n);
  const id = runIdOf(record);
  await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }));
  return id;
}

/** A pid no process has: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('FileRunStore on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(freshRoot(), 'store');
  });

  describe('documents and states kept as pieces shared between runs (issue 35)', () => {
    /** Compressed as svc compresses them, at quality 1 (brotliCompressSync's 11 takes seconds for a document of a MiB). */
    const br = (bytes: string | Uint8Array) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } });
    // Repetitive JSON, as a SAR is: compresses well. Each run's names the run itself, as a POA&M item's last_run does.
    const sarOf = (id: string, changed = -1) =>
      JSON.stringify(
        Array.from({ length: 5_000 }, (_, i) => ({
          observation: i,
          description: i === changed ? `Changed on the day of run ${id}.` : `The evidence entry of KSI-${i % 50}: checked.`,
          last_run: id,
        })),
      );
    const appendRun = async (store: FileRunStore, n: number, changed = -1) => {
      const record = recordFor(n);
      const id = runIdOf(record);
      await store.append(
        id,
        (_latest, seq) => storedRunFor(id, seq, { record }),
        () => [{ name: 'sar.json', media_type: 'application/json', chunks: [sarOf(id, changed)] }],
      );
      return id;
    };
    const packOf = (seq: number) => join(dir, 'pieces', `${String(seq).padStart(8, '0')}.pack`);
    const listOf = (id: string) => decodeSpans(readFileSync(join(dir, 'documents', id, 'sar.json.pieces')));

    it("keeps each document as a piece list whose pieces are in its run's pack, and serves its own bytes, listed and hashed as before", async () => {
      const store = new FileRunStore({ dir });
      const id = await appendRun(store, 1);
      expect(readdirSync(join(dir, 'documents', id)).sort()).toEqual(['.list.json.br', 'sar.json.pieces']);
      expect(readdirSync(join(dir, 'pieces')).sort()).toEqual(['00000001.pack', 'salt']);
      expect(readStoredDocument(join(dir, 'documents', id), 'sar.json').toString('utf8')).toBe(sarOf(id));
      // The run's id, in every item, is kept as a token: the pack is the compressed pieces, far smaller than the text.
      expect(statSync(packOf(1)).size).toBeLessThan(sarOf(id).length / 5);
      expect(listOf(id)).toEqual({ ofList: false, spans: [{ pack: 1, first: 0, count: expect.any(Number) }] });
      const opened = await store.openDocument(1, 'sar.json');
      expect(opened?.document).toEqual({ name: 'sar.json', media_type: 'application/json', sha256: sha(sarOf(id)), bytes: sarOf(id).length });
      expect(await openedText(opened)).toBe(sarOf(id));
    });

    it("shares a later run's pieces with the source's last run where they are the same: a run naming itself, one item changed, adds a piece or two", async () => {
      const store = new FileRunStore({ dir });
      const first = await appendRun(store, 1);
      const second = await appendRun(store, 2);
      const third = await appendRun(store, 3, 2_500);
      // Run 2's document differs from run 1's in every item (its own id), yet all of it is run 1's pieces.
      const pieces = listOf(first)!.spans[0].count;
      expect(listOf(second)).toEqual({ ofList: false, spans: [{ pack: 1, first: 0, count: pieces }] });
      // Run 3 changed one item: its pack holds the pieces around it (and its state's), a small part of run 1's.
      const spans = listOf(third)!.spans;
      expect(spans.filter((span) => span.pack === 3).reduce((sum, span) => sum + span.count, 0)).toBeLessThanOrEqual(3);
      expect(statSync(packOf(3)).size).toBeLessThan(statSync(packOf(1)).size / 10);
      const reopened = new FileRunStore({ dir });
      for (const [seq, id, changed] of [
        [1, first, -1],
        [2, second, -1],
        [3, third, 2_500],
      ] as const)
        expect(await openedText(await reopened.openDocument(seq, 'sar.json'))).toBe(sarOf(id, changed));
      expect(await reopened.get(3)).toStrictEqual(await store.get(3));
    });

    it('reports a pack or a piece list changed outside svc, or a pack removed, as tampering naming the file', async () => {
      const store = new FileRunStore({ dir });
      const id = await appendRun(store, 1);
      const list = join(dir, 'documents', id, 'sar.json.pieces');
      const pack = readFileSync(packOf(1));
      // A new store each time: one keeps the frames it read.
      const read = async () => openedText(await new FileRunStore({ dir }).openDocument(1, 'sar.json'));
      // A byte of the pieces' compressed bytes changed, a piece list cut short or pointing elsewhere, the pack gone.
      const flipped = Buffer.from(pack);
      flipped[Math.floor(pack.length / 2)] ^= 0xff;
      writeFileSync(packOf(1), flipped);
      await expect(read()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringMatching(
          new RegExp(`^(${escapeRegExp(packOf(1))}: does not hold the pieces of run 1|${escapeRegExp(list)}: the document sar.json no longer matches)`),
        ),
      });
      writeFileSync(packOf(1), pack);
      const good = readFileSync(list);
      writeFileSync(list, good.subarray(0, 3));
      await expect(read()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${list}: the document sar.json no longer matches`),
      });
      writeFileSync(list, encodeSpans([{ pack: 1, first: 1, count: 1 }]));
      await expect(read()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${list}: the document sar.json no longer matches`),
      });
      writeFileSync(list, good);
      rmSync(packOf(1));
      await expect(read()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${packOf(1)}: is the pack of run 1, which a document's piece list names, but it is missing`),
      });
      writeFileSync(packOf(1), pack);
      expect(await read()).toBe(sarOf(id));
      const state = join(dir, 'states', `00000001-${id}.json.pieces`);
      writeFileSync(state, 'not a piece list');
      await expect(new FileRunStore({ dir }).get(1)).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${state}: the state of run 1 (${id}) is not the compressed state svc wrote`),
      });
    });

    it('makes a new salt when its salt is lost: the next run shares no piece, and every run still reads back', async () => {
      const store = new FileRunStore({ dir });
      const first = await appendRun(store, 1);
      rmSync(join(dir, 'pieces', 'salt'));
      const second = await appendRun(store, 2);
      expect(listOf(second)!.spans.every((span) => span.pack === 2)).toBe(true);
      expect(readFileSync(join(dir, 'pieces', 'salt'))).toHaveLength(32);
      expect(await openedText(await store.openDocument(1, 'sar.json'))).toBe(sarOf(first));
      expect(await openedText(await store.openDocument(2, 'sar.json'))).toBe(sarOf(second));
    });

    it('reads the compressed and plain documents svc stored before, and the next append converts the plain ones in place, resumably', async () => {
      const store = new FileRunStore({ dir });
      const ids = [await appendRun(store, 1), await appendRun(store, 2)];
      // As svc stored them before: plain files (documents, their list, states), no mark that the store's files are compressed.
      for (const [i, id] of ids.entries()) {
        const documents = join(dir, 'documents', id);
        writeFileSync(join(documents, 'sar.json'), readStoredDocument(documents, 'sar.json'));
        writeFileSync(join(documents, '.list.json'), brotliDecompressSync(readFileSync(join(documents, '.list.json.br'))));
        writeFileSync(join(dir, 'states', `${String(i + 1).padStart(8, '0')}-${id}.json`), JSON.stringify(readStoredState(dir, i + 1, id)));
        for (const file of [
          join(documents, 'sar.json.pieces'),
          join(documents, '.list.json.br'),
          join(dir, 'states', `${String(i + 1).padStart(8, '0')}-${id}.json.pieces`),
        ])
          unlinkSync(file);
      }
      rmSync(join(dir, 'pieces'), { recursive: true });
      const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
      expect(index.compressed_documents).toBe(true);
      delete index.compressed_documents;
      writeFileSync(join(dir, 'index.json'), canonicalize(index)!);
      const before = new FileRunStore({ dir });
      expect(await openedText(await before.openDocument(2, 'sar.json'))).toBe(sarOf(ids[1]));
      expect(await before.get(2)).toStrictEqual(await store.get(2));
      // A plain file changed is found as before, naming the plain file.
      const plain = join(dir, 'documents', ids[1], 'sar.json');
      writeFileSync(plain, sarOf(ids[1]).replace('"observation":7,', '"observation":8,'));
      await expect(openedText(await before.openDocument(2, 'sar.json'))).rejects.toMatchObject({
        message: expect.stringContaining(`${plain}: the document sar.json no longer matches`),
      });
      writeFileSync(plain, sarOf(ids[1]));
      // A conversion cut short: run 1's compressed file written but its plain one not yet removed.
      writeFileSync(join(dir, 'documents', ids[0], 'sar.json.br'), br(sarOf(ids[0])));
      const third = await appendRun(before, 3);
      // The lists svc kept plain stay so (it reads both); only documents and states are converted.
      for (const id of ids) expect(readdirSync(join(dir, 'documents', id)).sort()).toEqual(['.list.json', 'sar.json.br']);
      expect(readdirSync(join(dir, 'states')).sort()).toEqual([`00000001-${ids[0]}.json.br`, `00000002-${ids[1]}.json.br`, `00000003-${third}.json.pieces`]);
      expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).compressed_documents).toBe(true);
      for (const [seq, id] of [ids[0], ids[1], third].entries())
        expect(await openedText(await new FileRunStore({ dir }).openDocument(seq + 1, 'sar.json'))).toBe(sarOf(id));
    });

    it('converts the runs svc recorded before it kept pieces into pieces shared between them, in place, resumably; a file that does not decode stays as it is', async () => {
      const store = new FileRunStore({ dir });
      const ids = [await appendRun(store, 1), await appendRun(store, 2), await appendRun(store, 3, 2_500)];
      const runs = await Promise.all([1, 2, 3].map((seq) => store.get(seq)));
      const stateFile = (seq: number) => join(dir, 'states', `${String(seq).padStart(8, '0')}-${ids[seq - 1]}.json`);
      // As svc stored them before pieces: every document and state compressed whole, no packs, no mark in the index.
      const whole = (seq: number) => {
        const documents = join(dir, 'documents', ids[seq - 1]);
        writeFileSync(join(documents, 'sar.json.br'), br(readStoredDocument(documents, 'sar.json')));
        writeFileSync(`${stateFile(seq)}.br`, br(canonicalize(readStoredState(dir, seq, ids[seq - 1]))!));
        unlinkSync(join(documents, 'sar.json.pieces'));
        unlinkSync(`${stateFile(seq)}.pieces`);
      };
      [1, 2, 3].forEach(whole);
      rmSync(join(dir, 'pieces'), { recursive: true });
      const unmark = () => {
        const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
        delete index.piece_documents;
        writeFileSync(join(dir, 'index.json'), canonicalize(index)!);
      };
      unmark();
      // A conversion cut short before any list was written: run 1's pack, not yet named by anything, is made anew.
      mkdirSync(join(dir, 'pieces'));
      writeFileSync(packOf(1), 'an attempt cut short');
      // Run 3's document no longer decodes: it stays as it is, and reading it names it.
      const broken = join(dir, 'documents', ids[2], 'sar.json.br');
      const brokenBytes = Buffer.from('not brotli');
      writeFileSync(broken, brokenBytes);
      const fourth = await appendRun(new FileRunStore({ dir }), 4);
      expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).piece_documents).toBe(true);
      for (const id of ids.slice(0, 2)) expect(readdirSync(join(dir, 'documents', id)).sort()).toEqual(['.list.json.br', 'sar.json.pieces']);
      expect(readFileSync(broken)).toEqual(brokenBytes);
      expect(readdirSync(join(dir, 'states')).sort()).toEqual(
        [1, 2, 3].map((seq) => `${basename(stateFile(seq))}.pieces`).concat(`00000004-${fourth}.json.pieces`),
      );
      // Converted as they were recorded: run 2 (naming itself) shares all of run 1's pieces; run 4 is written against run 3.
      expect(listOf(ids[1])!.spans.every((span) => span.pack === 1)).toBe(true);
      expect(readdirSync(join(dir, 'pieces')).sort()).toEqual(['00000001.pack', '00000002.pack', '00000003.pack', '00000004.pack', 'salt']);
      const reopened = new FileRunStore({ dir });
      for (const seq of [1, 2]) expect(await openedText(await reopened.openDocument(seq, 'sar.json'))).toBe(sarOf(ids[seq - 1]));
      await expect(openedText(await reopened.openDocument(3, 'sar.json'))).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(broken),
      });
      for (const seq of [1, 2, 3]) expect(await reopened.get(seq)).toStrictEqual(runs[seq - 1]);
      // Cut short after run 2's state list, before its document's: the next conversion leaves its document whole, as
      // it left run 3's (its pack and state list written).
      writeFileSync(broken, br(sarOf(ids[2], 2_500)));
      writeFileSync(join(dir, 'documents', ids[1], 'sar.json.br'), br(sarOf(ids[1])));
      unlinkSync(join(dir, 'documents', ids[1], 'sar.json.pieces'));
      unmark();
      await appendRun(new FileRunStore({ dir }), 5);
      for (const id of ids.slice(1)) expect(readdirSync(join(dir, 'documents', id)).sort()).toEqual(['.list.json.br', 'sar.json.br']);
      const last = new FileRunStore({ dir });
      for (const seq of [1, 2, 3]) expect(await openedText(await last.openDocument(seq, 'sar.json'))).toBe(sarOf(ids[seq - 1], seq === 3 ? 2_500 : -1));
      for (const seq of [1, 2, 3]) expect(await last.get(seq)).toStrictEqual(runs[seq - 1]);
    });
  });

  describe("a run's kept documents (issue 35)", () => {
    const counts = '{"ksis":[],"schema":"svc.ksi-counts/v1","unmapped":0}';
    const produce = () => [
      { name: 'ksi-counts.json', media_type: 'application/json', chunks: [counts] },
      { name: 'sar.json', media_type: 'application/json', chunks: ['{"sar":1}'] },
    ];
    const appendWithDocuments = (store: FileRunStore, n: number) => appendProduced(store, n, produce);
    const kept = [{ name: 'ksi-counts.json', media_type: 'application/json', sha256: sha(counts), bytes: counts.length }];

    it('are kept in index.json beside the run, hashed into its link, and opened without its document list', async () => {
      const store = new FileRunStore({ dir });
      const id = await appendWithDocuments(store, 1);
      const [entry] = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).runs;
      expect(entry.kept).toEqual(kept);
      expect(entry.link.records.kept).toBe(sha(canonicalize(kept)!));
      // Without its list, the run's KSI counts still open (checked against the link), and its other documents do not.
      unlinkSync(join(dir, 'documents', id, '.list.json.br'));
      expect(await openedText(await store.openDocument(1, 'ksi-counts.json'))).toBe(counts);
      await expect(store.openDocument(1, 'sar.json')).rejects.toMatchObject({ code: 'run-store-tampered' });
    });

    it('of a run recorded before svc kept them (no `kept` in its link) are read through its document list', async () => {
      const store = new FileRunStore({ dir });
      const ids = [await appendWithDocuments(store, 1), await appendWithDocuments(store, 2)];
      // The index as svc wrote it before: no kept documents, links that do not name them, the chain made again.
      const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
      let head = '0'.repeat(64);
      for (const entry of index.runs) {
        delete entry.kept;
        delete entry.link.records.kept;
        entry.link.prev = head;
        head = sha(canonicalize(entry.link)!);
      }
      index.head = head;
      writeFileSync(join(dir, 'index.json'), canonicalize(index)!);
      const before = new FileRunStore({ dir });
      expect(await openedText(await before.openDocument(1, 'ksi-counts.json'))).toBe(counts);
      expect((await before.openDocument(2, 'ksi-counts.json'))?.document).toEqual(kept[0]);
      // Read through the list: a list changed outside svc is found as it is (by a store that has not read it yet).
      const list = join(dir, 'documents', ids[1], '.list.json.br');
      const listed = brotliDecompressSync(readFileSync(list)).toString('utf8');
      writeFileSync(list, brotliCompressSync(listed.replace(sha(counts), sha('forged'))));
      await expect(new FileRunStore({ dir }).openDocument(2, 'ksi-counts.json')).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${list}: the hash chain does not match the document list of run 2`),
      });
      // The next run recorded keeps its own, and the chain goes on.
      writeFileSync(list, brotliCompressSync(listed));
      await appendWithDocuments(before, 3);
      expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).runs[2].kept).toEqual(kept);
      expect(await openedText(await new FileRunStore({ dir }).openDocument(3, 'ksi-counts.json'))).toBe(counts);
    });
  });

  it('keeps canonical run files named by their hash, state files by seq, and the index of summaries', async () => {
    const store = new FileRunStore({ dir });
    const first = await append(store, 1);
    const second = await append(store, 2);
    expect(readdirSync(dir).sort()).toEqual(['index.json', 'pieces', 'runs', 'states']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(dir, 'runs')).sort()).toEqual([`${first}.json`, `${second}.json`].sort());
    expect(readdirSync(join(dir, 'states'))).toEqual([`00000001-${first}.json.pieces`, `00000002-${second}.json.pieces`]);
    // Each run's state is pieces (its POA&M items and events, item by item): run 2's shares those of run 1 that are the same.
    expect(readdirSync(join(dir, 'pieces')).sort()).toEqual(['00000001.pack', '00000002.pack', 'salt']);
    for (const [n, id] of [
      [1, first],
      [2, second],
    ] as const) {
      const bytes = readFileSync(join(dir, 'runs', `${id}.json`));
      expect(sha(bytes)).toBe(id);
      expect(bytes.toString('utf8')).toBe(canonicalize(recordFor(n)));
    }
    const index = readFileSync(join(dir, 'index.json'), 'utf8');
    expect(index).toBe(canonicalize(JSON.parse(index)));
    // The chain, computed here independently of run-chain.ts: each link hashes the run's records and the head before it.
    const linkOf = (run: StoredRun, prev: string) => {
      const hash = (value: unknown) => sha(canonicalize(value)!);
      const at = (iso: string) => new Date(iso).toISOString();
      const link = {
        schema: 'svc.run-link/v1',
        seq: run.summary.seq,
        id: run.summary.id,
        as_of: at(run.summary.as_of),
        recorded_at: at(run.summary.recorded_at),
        prev,
        records: { record: run.summary.id, head: hash(run.record), summary: hash(run.summary), poam: hash(run.poam), events: hash(run.events) },
      };
      return { link, head: hash(link) };
    };
    const one = linkOf(storedRunFor(first, 1), '0'.repeat(64));
    const two = linkOf(storedRunFor(second, 2), one.head);
    expect(JSON.parse(index)).toEqual({
      schema: 'svc.run-index/v2',
      head: two.head,
      compressed_documents: true,
      piece_documents: true,
      runs: [
        { summary: storedRunFor(first, 1).summary, link: one.link },
        { summary: storedRunFor(second, 2).summary, link: two.link },
      ],
    });
    expect(Object.keys(readStoredState(dir, 2, second)).sort()).toEqual(['events', 'poam', 'summary']);
  });

  it('writes nothing when the id is already recorded', async () => {
    const store = new FileRunStore({ dir });
    const id = await append(store, 1);
    const before = statSync(join(dir, 'index.json'));
    const outcome = await store.append(id, () => {
      throw new Error('decide must not be called');
    });
    expect(outcome.recorded).toBe(false);
    const after = statSync(join(dir, 'index.json'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(join(dir, 'states'))).toHaveLength(1);
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
  });

  it('does not create the directory to read it', async () => {
    const store = new FileRunStore({ dir });
    expect(await store.list()).toEqual([]);
    expect(await store.latest()).toBeUndefined();
    expect(await store.journal()).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    expect(store.location).toBe(dir);
  });

  it('takes over the lock of a process that no longer runs on this host', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'store.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), since: '2026-11-01T00:00:00.000Z' }));
    const store = new FileRunStore({ dir, lockTimeoutMs: 200 });
    await append(store, 1);
    expect(await store.list()).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(['index.json', 'pieces', 'runs', 'states']);
  });

  it('waits for a live lock and then gives up, naming the lock file and its holder', async () => {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'store.lock');
    const held = JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-01T00:00:00.000Z' });
    writeFileSync(lock, held);
    const store = new FileRunStore({ dir, lockTimeoutMs: 200 });
    const started = Date.now();
    const refused = append(store, 1);
    await expect(refused).rejects.toBeInstanceOf(UnavailableError);
    await expect(refused).rejects.toMatchObject({
      code: 'run-store-locked',
      message: `${lock}: the run store is locked by process ${process.pid} on ${hostname()} since 2026-11-01T00:00:00.000Z; wait for it to finish, or remove the lock file if that process is gone`,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(readFileSync(lock, 'utf8')).toBe(held);
    expect(await store.list()).toEqual([]);
  });

  it('respects a lease of another host whose heartbeat is within its expiry, whatever its pid', async () => {
    mkdirSync(dir, { recursive: true });
    const lease = JSON.stringify({
      pid: deadPid(),
      host: `not-${hostname()}`,
      since: '2026-11-01T00:00:00.000Z',
      heartbeat: new Date().toISOString(),
      lease_ms: 60_000,
      token: 'a'.repeat(32),
    });
    writeFileSync(join(dir, 'store.lock'), lease);
    await expect(append(new FileRunStore({ dir, lockTimeoutMs: 100 }), 1)).rejects.toMatchObject({ code: 'run-store-locked' });
    expect(readFileSync(join(dir, 'store.lock'), 'utf8')).toBe(lease);
  });

  it('takes over a lease of another host whose heartbeat is older than its expiry (a killed pod)', async () => {
    mkdirSync(dir, { recursive: true });
    const stale = {
      pid: 1,
      host: `not-${hostname()}`,
      since: '2026-11-01T00:00:00.000Z',
      heartbeat: '2026-11-01T00:00:05.000Z',
      lease_ms: 30_000,
      token: 'a'.repeat(32),
    };
    writeFileSync(join(dir, 'store.lock'), JSON.stringify(stale));
    const store = new FileRunStore({ dir, lockTimeoutMs: 100 });
    const id = await append(store, 1);
    expect((await store.list()).map((s) => s.id)).toEqual([id]);
    expect(readdirSync(dir).sort()).toEqual(['index.json', 'pieces', 'runs', 'states']);
  });

  it('takes over a lock of another host without a heartbeat (0.5.0) once it has not changed for the expiry', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'store.lock'), JSON.stringify({ pid: 1, host: `not-${hostname()}`, since: '2026-11-01T00:00:00.000Z' }));
    await expect(append(new FileRunStore({ dir, lockTimeoutMs: 100, leaseMs: 60_000 }), 1)).rejects.toMatchObject({ code: 'run-store-locked' });
    const store = new FileRunStore({ dir, lockTimeoutMs: 5000, leaseMs: 200 });
    await append(store, 1);
    expect(await store.list()).toHaveLength(1);
  });

  it('records nothing when its lease was taken over while it appended (it stalled past the expiry)', async () => {
    const store = new FileRunStore({ dir });
    const first = await append(store, 1);
    const index = readFileSync(join(dir, 'index.json'), 'utf8');
    const taker = JSON.stringify({
      pid: 1,
      host: `not-${hostname()}`,
      since: '2026-11-01T00:00:00.000Z',
      heartbeat: new Date().toISOString(),
      lease_ms: 30_000,
      token: 'b'.repeat(32),
    });
    const record = recordFor(2);
    const id = runIdOf(record);
    const lost = store.append(id, (_latest, seq) => {
      writeFileSync(join(dir, 'store.lock'), taker);
      return storedRunFor(id, seq, { record });
    });
    await expect(lost).rejects.toBeInstanceOf(UnavailableError);
    await expect(lost).rejects.toMatchObject({
      code: 'run-store-lease-lost',
      message: `${join(dir, 'store.lock')}: this process stalled past the lock's expiry and another took the run store over; nothing was recorded, run the command again`,
    });
    expect(readFileSync(join(dir, 'index.json'), 'utf8')).toBe(index);
    expect(readFileSync(join(dir, 'store.lock'), 'utf8')).toBe(taker);
    expect((await store.list()).map((s) => s.id)).toEqual([first]);
  });

  it('says once per holder that it is waiting for the lock, naming the holder', async () => {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'store.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-01T00:00:00.000Z' }));
    const lines: string[] = [];
    const store = new FileRunStore({ dir, lockTimeoutMs: 10_000, waiting: (line) => lines.push(line) });
    const appended = append(store, 1);
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    unlinkSync(lock);
    await appended;
    expect(lines).toEqual([`Waiting for the run store lock held by process ${process.pid} on ${hostname()} since 2026-11-01T00:00:00.000Z ...`]);
  });

  it('waits while another process holds the lock and appends once it is released', async () => {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'store.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
    const store = new FileRunStore({ dir, lockTimeoutMs: 5000 });
    let done = false;
    const appended = append(store, 1).then((id) => {
      done = true;
      return id;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    expect(await store.list()).toEqual([]);
    unlinkSync(lock);
    const id = await appended;
    expect((await store.latest())?.summary).toMatchObject({ id, seq: 1 });
    expect(existsSync(lock)).toBe(false);
  });

  it('ignores what a crash before the index was replaced left behind, and appends over it', async () => {
    const store = new FileRunStore({ dir });
    const first = await append(store, 1);
    const record = recordFor(2);
    const id = runIdOf(record);
    // A crash mid-append: a torn run file, a state file and a temp index, but no index entry.
    writeFileSync(join(dir, 'runs', `${id}.json`), canonicalize(record)!.slice(0, 40));
    writeFileSync(join(dir, 'states', `00000002-${id}.json`), '{"summary":');
    writeFileSync(join(dir, '.index.json.0123456789ab.tmp'), '{"schema":');
    expect((await store.list()).map((s) => s.id)).toEqual([first]);
    expect(await store.get(id)).toBeUndefined();
    expect(await store.get(2)).toBeUndefined();
    const outcome = await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }));
    expect(outcome).toMatchObject({ recorded: true, run: { summary: { seq: 2, id } } });
    expect(sha(readFileSync(join(dir, 'runs', `${id}.json`)))).toBe(id);
    expect(await store.get(2)).toStrictEqual(storedRunFor(id, 2, { record }));
  });

  it('replaces a run file a crash left (whole or cut short), and records the run', async () => {
    const store = new FileRunStore({ dir });
    const record = recordFor(1);
    const id = runIdOf(record);
    mkdirSync(join(dir, 'runs'), { recursive: true });
    writeFileSync(join(dir, 'runs', `${id}.json`), canonicalize(record)!.slice(0, 20));
    await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record }));
    expect(readFileSync(join(dir, 'runs', `${id}.json`), 'utf8')).toBe(canonicalize(record));
    expect(await store.get(id)).toStrictEqual(storedRunFor(id, 1, { record }));
  });

  it('refuses a damaged index, naming the file and the fix, and releases the lock', async () => {
    const store = new FileRunStore({ dir });
    await append(store, 1);
    const index = join(dir, 'index.json');
    writeFileSync(index, '{"schema":"svc.run-index/v1","runs":[');
    for (const attempt of [() => store.list(), () => store.latest(), () => store.get(1), () => append(store, 2)]) {
      await expect(attempt()).rejects.toBeInstanceOf(InvalidInputError);
      await expect(attempt()).rejects.toMatchObject({
        code: 'run-store-corrupt',
        message: expect.stringMatching(new RegExp(`^${index}: .*; the file was damaged outside svc, restore it from backup$`)),
      });
    }
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    writeFileSync(index, JSON.stringify({ schema: 'svc.run-index/v2', head: '0'.repeat(64), runs: [{ seq: 1, id: 'x', as_of: '2026-11-01' }] }));
    await expect(store.list()).rejects.toThrow(new RegExp(`^${index}: not a svc.run-index/v2 index; the file was damaged`));
    writeFileSync(index, JSON.stringify({ schema: 'svc.run-index/v2', head: '0'.repeat(64), runs: [{ summary: { seq: 2, id: 'x', as_of: '2026-11-01' } }] }));
    await expect(store.list()).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`${index}: the chain link of run 1 (x) is not the link of that run`),
    });
    writeFileSync(index, JSON.stringify({ schema: 'svc.run-index/v1', runs: [{ seq: 2, id: 'x', as_of: '2026-11-01' }] }));
    await expect(store.list()).rejects.toThrow(/not a svc.run-index\/v1 index with runs numbered 1, 2/);
  });

  it("sweeps what appends killed midway left (their temporaries, unindexed run and state files) and keeps a live process's temporary", async () => {
    const store = new FileRunStore({ dir });
    const first = await append(store, 1);
    const killed = runIdOf(recordFor(2));
    const hostTag = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
    const dead = `svc-tmp-${hostTag}-${deadPid()}-0-0badcafe`;
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const alive = `svc-tmp-${hostTag}-${live.pid}-0-0badcafe`;
    try {
      writeFileSync(join(dir, `.store.lock.${dead}`), '{"pid":');
      writeFileSync(join(dir, `.index.json.${dead}`), '{"schema":');
      writeFileSync(join(dir, `.index.json.${alive}`), '{"schema":');
      writeFileSync(join(dir, 'runs', `.${killed}.json.${dead}`), '{"re');
      writeFileSync(join(dir, 'runs', `${killed}.json`), canonicalize(recordFor(2))!);
      writeFileSync(join(dir, 'states', `.00000002-${killed}.json.${dead}`), '{"summary":');
      writeFileSync(join(dir, 'states', `00000002-${killed}.json`), '{"summary":{}}');
      writeFileSync(join(dir, 'states', `00000002-${killed}.json.pieces`), 'SVCP');
      // The pack of the killed run (seq 2, which the next run takes), one of a later seq, and a pack half written.
      writeFileSync(join(dir, 'pieces', '00000002.pack'), 'SVCPACK1 cut short');
      writeFileSync(join(dir, 'pieces', '00000007.pack'), 'SVCPACK1 cut short');
      writeFileSync(join(dir, 'pieces', `.00000002.pack.${dead}`), 'SVCPACK1');
      const third = await append(store, 3);
      expect(readdirSync(dir).sort()).toEqual([`.index.json.${alive}`, 'index.json', 'pieces', 'runs', 'states']);
      expect(readdirSync(join(dir, 'runs')).sort()).toEqual([`${first}.json`, `${third}.json`].sort());
      expect(readdirSync(join(dir, 'states'))).toEqual([`00000001-${first}.json.pieces`, `00000002-${third}.json.pieces`]);
      expect(readdirSync(join(dir, 'pieces')).sort()).toEqual(['00000001.pack', '00000002.pack', 'salt']);
      expect(await new FileRunStore({ dir }).get(2)).toMatchObject({ summary: { id: third } });
      expect((await store.list()).map((s) => s.id)).toEqual([first, third]);
      expect(await store.get(killed)).toBeUndefined();
    } finally {
      live.kill('SIGKILL');
    }
  });

  /**
   * A store as svc 0.5.0 wrote it: run files holding the whole record, its evidence bundle inside, state files, and an
   * index of summaries without a chain.
   */
  function writeLegacyStore(count: number): StoredRun[] {
    const runs = Array.from({ length: count }, (_, i) =>
      storedRunFor(runIdWithBundle(recordFor(i + 1), bundleTextFor(i + 1)), i + 1, { record: recordFor(i + 1) }),
    );
    mkdirSync(join(dir, 'runs'), { recursive: true });
    mkdirSync(join(dir, 'states'), { recursive: true });
    for (const run of runs) {
      writeFileSync(join(dir, 'runs', `${run.summary.id}.json`), canonicalize({ ...run.record, bundle: JSON.parse(bundleTextFor(run.summary.seq)) })!);
      writeFileSync(
        join(dir, 'states', `${String(run.summary.seq).padStart(8, '0')}-${run.summary.id}.json`),
        canonicalize({ summary: run.summary, poam: run.poam, events: run.events })!,
      );
    }
    writeFileSync(join(dir, 'index.json'), canonicalize({ schema: 'svc.run-index/v1', runs: runs.map((r) => r.summary) })!);
    return runs;
  }

  it('upgrades a store of svc 0.5.0 on first use, reading it as before and verifying every record from then on', async () => {
    const runs = writeLegacyStore(2);
    const store = new FileRunStore({ dir });
    expect(await store.list()).toStrictEqual(runs.map((r) => r.summary));
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    expect(index.schema).toBe('svc.run-index/v2');
    expect(index.runs.map((e: { link: { seq: number; prev: string } }) => e.link.seq)).toEqual([1, 2]);
    expect(await store.get(2)).toStrictEqual(runs[1]);
    // Its evidence bundle reads back as the document a later run stores it as, byte for byte.
    const opened = await store.openDocument(2, 'evidence-bundle.json');
    expect(opened?.document).toEqual({
      name: 'evidence-bundle.json',
      media_type: 'application/json',
      sha256: sha(bundleTextFor(2)),
      bytes: Buffer.byteLength(bundleTextFor(2)),
    });
    const parts: Buffer[] = [];
    for await (const chunk of opened!.chunks) parts.push(Buffer.from(chunk));
    expect(Buffer.concat(parts).toString('utf8')).toBe(bundleTextFor(2));
    const third = await append(store, 3);
    expect((await store.latest())?.summary).toMatchObject({ seq: 3, id: third });
    // The append compressed the state files 0.5.0 wrote, as it compresses every earlier run's (compressPlainFiles).
    const state = editStoredState(dir, 1, runs[0].summary.id, (edited) => (edited.poam[0].risk_rating = 'Low'));
    await expect(store.get(1)).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`${state}: the hash chain does not match the POA&M state of run 1`),
    });
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
  });

  it('refuses to upgrade a 0.5.0 store whose run file no longer matches its id, or whose state disagrees with the index', async () => {
    const runs = writeLegacyStore(2);
    const runPath = join(dir, 'runs', `${runs[1].summary.id}.json`);
    const good = readFileSync(runPath, 'utf8');
    writeFileSync(runPath, good.replace('ScubaGear', 'ScubaGeaR'));
    const store = new FileRunStore({ dir });
    await expect(store.list()).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`${runPath}: run ${runs[1].summary.id} no longer matches its SHA-256`),
    });
    writeFileSync(runPath, good);
    const state = join(dir, 'states', `00000002-${runs[1].summary.id}.json`);
    const edited = JSON.parse(readFileSync(state, 'utf8'));
    edited.summary.counts.fail = 0;
    writeFileSync(state, JSON.stringify(edited));
    await expect(store.latest()).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`${state}: the summary of run 2 (${runs[1].summary.id}) is not the one index.json lists`),
    });
    expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).schema).toBe('svc.run-index/v1');
  });

  it('reports a run removed from the middle of the index, or two runs swapped, as tampering', async () => {
    const store = new FileRunStore({ dir });
    const ids = [await append(store, 1), await append(store, 2), await append(store, 3)];
    const path = join(dir, 'index.json');
    const index = readFileSync(path, 'utf8');
    const edited = JSON.parse(index);
    edited.runs.splice(1, 1);
    writeFileSync(path, JSON.stringify(edited));
    await expect(store.list()).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`${path}: the chain link of run 2 (${ids[2]}) is not the link of that run`),
    });
    const swapped = JSON.parse(index);
    swapped.runs = [swapped.runs[1], swapped.runs[0], swapped.runs[2]];
    writeFileSync(path, JSON.stringify(swapped));
    await expect(store.get(3)).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`${path}: the chain link of run 1 (${ids[1]}) is not the link of that run`),
    });
  });

  describe('the journal on disk', () => {
    const evaluation = (n: number) => ({ group: `CVE-2026-${1000 + n}`, n_rating: 'N3', by: 'alice@agency.example' });
    const at = (n: number) => `2026-11-0${n}T10:00:00.000Z`;
    const journalPath = () => join(dir, 'journal.ndjson');
    const headPath = () => join(dir, 'journal.head.json');
    /** An entry computed here, independently of domain/conmon/journal.ts. */
    const entryFor = (seq: number, record: Record<string, unknown>, prev: string | null) => {
      const body = { seq, kind: 'vulnerability-evaluation', recorded_at: at(seq), record, prev };
      return { ...body, hash: sha(canonicalize(body)!) };
    };

    it('keeps one canonical entry per line in journal.ndjson, and the latest entry in journal.head.json', async () => {
      const store = new FileRunStore({ dir });
      await store.appendJournal('vulnerability-evaluation', evaluation(1), at(1));
      await store.appendJournal('vulnerability-evaluation', evaluation(2), at(2));
      const one = entryFor(1, evaluation(1), null);
      const two = entryFor(2, evaluation(2), one.hash);
      expect(readFileSync(journalPath(), 'utf8')).toBe(`${canonicalize(one)}\n${canonicalize(two)}\n`);
      expect(readFileSync(headPath(), 'utf8')).toBe(canonicalize({ hash: two.hash, seq: 2 }));
      expect(readdirSync(dir).sort()).toEqual(['journal.head.json', 'journal.ndjson']);
      for (const path of [journalPath(), headPath()]) expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(await store.journal()).toStrictEqual([one, two]);
    });

    it('ignores what an append cut short left after the latest entry (a torn line, or a whole line whose head was not written), and appends over it', async () => {
      const store = new FileRunStore({ dir });
      await store.appendJournal('vulnerability-evaluation', evaluation(1), at(1));
      await store.appendJournal('vulnerability-evaluation', evaluation(2), at(2));
      const committed = readFileSync(journalPath(), 'utf8');
      const one = entryFor(1, evaluation(1), null);
      const two = entryFor(2, evaluation(2), one.hash);
      // Killed while writing its line: the line is torn, and the head still names entry 2.
      writeFileSync(journalPath(), `${committed}${canonicalize(entryFor(3, evaluation(9), two.hash))!.slice(0, 50)}`);
      expect(await store.journal()).toStrictEqual([one, two]);
      const three = await store.appendJournal('vulnerability-evaluation', evaluation(3), at(3));
      expect(three).toStrictEqual(entryFor(3, evaluation(3), two.hash));
      expect(readFileSync(journalPath(), 'utf8')).toBe(`${committed}${canonicalize(three)}\n`);
      // Killed after its line was fsynced, before the head: a whole line, never committed, never acknowledged.
      const orphan = entryFor(4, evaluation(8), three.hash);
      writeFileSync(journalPath(), `${committed}${canonicalize(three)}\n${canonicalize(orphan)}\n`);
      expect(await store.journal()).toStrictEqual([one, two, three]);
      const four = await store.appendJournal('vulnerability-evaluation', evaluation(4), at(4));
      expect(four).toStrictEqual(entryFor(4, evaluation(4), three.hash));
      expect(readFileSync(journalPath(), 'utf8')).toBe(`${committed}${canonicalize(three)}\n${canonicalize(four)}\n`);
      expect(await new FileRunStore({ dir }).journal()).toStrictEqual([one, two, three, four]);
    });

    it('takes a first append cut short for an empty journal', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(headPath(), canonicalize({ hash: null, seq: 0 })!);
      writeFileSync(journalPath(), '{"hash":"');
      const store = new FileRunStore({ dir });
      expect(await store.journal()).toEqual([]);
      const first = await store.appendJournal('vulnerability-evaluation', evaluation(1), at(1));
      expect(first).toStrictEqual(entryFor(1, evaluation(1), null));
      expect(readFileSync(journalPath(), 'utf8')).toBe(`${canonicalize(first)}\n`);
    });

    it('reports the journal head removed, or a line that is not JSON, as tampering, and appends nothing', async () => {
      const store = new FileRunStore({ dir });
      for (const n of [1, 2, 3]) await store.appendJournal('vulnerability-evaluation', evaluation(n), at(n));
      const lines = readFileSync(journalPath(), 'utf8');
      const head = readFileSync(headPath(), 'utf8');
      rmSync(headPath());
      for (const attempt of [() => store.journal(), () => store.appendJournal('vulnerability-evaluation', evaluation(4), at(4))]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'run-store-tampered',
          message: `${headPath()}: the journal head is missing, but ${journalPath()} holds entries; the store was modified outside svc. Restore it from backup`,
        });
      }
      writeFileSync(headPath(), head);
      writeFileSync(journalPath(), lines.replace(/\n[^\n]*\n/, '\n{"seq": 2, "kind": \n'));
      await expect(store.journal()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${journalPath()}: journal entry 2 is not an entry svc wrote`),
      });
      writeFileSync(headPath(), '{"seq":3}');
      await expect(store.journal()).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringContaining(`${headPath()}: the journal head is not one svc wrote`),
      });
      expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    });
  });

  it('reports a run file removed behind its back as tampering', async () => {
    const store = new FileRunStore({ dir });
    const id = await append(store, 1);
    rmSync(join(dir, 'runs', `${id}.json`));
    await expect(store.get(id)).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining('is listed in index.json but its file is missing'),
    });
  });
});

describe('FileRunStore: the access log on disk', () => {
  const event = (at: string) => ({ at, principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'sdr', outcome: 'served' as const, status: 200 });

  it('keeps, per day, a line of tallies per batch and a line per raw event, mode 0600', async () => {
    const dir = join(freshRoot(), 'store');
    await new FileRunStore({ dir }).appendAccess([event('2026-11-24T10:00:00Z'), event('2026-11-25T10:00:00Z'), event('2026-11-25T11:00:00Z')]);
    expect(readdirSync(join(dir, 'access')).sort()).toEqual(['2026-11-24.ndjson', '2026-11-24.tally.ndjson', '2026-11-25.ndjson', '2026-11-25.tally.ndjson']);
    expect(readFileSync(join(dir, 'access', '2026-11-25.ndjson'), 'utf8').split('\n')).toHaveLength(3);
    expect(readFileSync(join(dir, 'access', '2026-11-25.tally.ndjson'), 'utf8')).toBe(
      '[{"agency":"Agency One","day":"2026-11-25","denied":0,"document":"sdr","first":"2026-11-25T10:00:00Z","last":"2026-11-25T11:00:00Z","principal":"alice@AGENCY.GOV","served":2}]\n',
    );
    for (const name of ['2026-11-25.ndjson', '2026-11-25.tally.ndjson']) expect(statSync(join(dir, 'access', name)).mode & 0o777).toBe(0o600);
  });

  it('skips the torn line a crash mid-write leaves, appends after it on a line of its own, and names a line changed into something else', async () => {
    const dir = join(freshRoot(), 'store');
    const store = new FileRunStore({ dir });
    await store.appendAccess([event('2026-11-25T10:00:00Z')]);
    const file = join(dir, 'access', '2026-11-25.ndjson');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"at":"2026-11-25T10:00:01Z","princ`);
    expect(await store.accessLog('2026-11-25', '2026-11-25')).toEqual([event('2026-11-25T10:00:00Z')]);
    // The next append starts on a line of its own: the torn line stays skipped, nothing is lost after it.
    await store.appendAccess([event('2026-11-25T10:00:02Z')]);
    expect(await store.accessLog('2026-11-25', '2026-11-25')).toEqual([event('2026-11-25T10:00:00Z'), event('2026-11-25T10:00:02Z')]);
    writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\nnot an event\n`);
    await expect(store.accessLog('2026-11-01', '2026-11-30')).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: `${file}:2: not an access event; the store was modified outside svc. Restore it from backup`,
    });
  });

  /** A day's raw events as svc 0.6 wrote them, with no tallies and no summary. */
  const legacyDay = (dir: string, day: string, events: object[], tail = '') => {
    mkdirSync(join(dir, 'access'), { recursive: true });
    writeFileSync(join(dir, 'access', `${day}.ndjson`), `${events.map((e) => `${canonicalize(e)}\n`).join('')}${tail}`);
  };
  const denial = (at: string, principal: string) => ({ at, principal, document: 'cpo', outcome: 'denied' as const, status: 403 });

  it('summarizes a day an earlier svc logged (raw events only) from its events the first time it is read, once, even by two stores at once', async () => {
    const dir = join(freshRoot(), 'store');
    // svc 0.6 took principals up to 512 characters: what it logged stays readable.
    const old = `${'o'.repeat(390)}@OLD.TEST`;
    legacyDay(
      dir,
      '2026-11-20',
      [event('2026-11-20T10:00:00Z'), denial('2026-11-20T11:00:00Z', old), event('2026-11-20T09:00:00Z')],
      '{"at":"2026-11-20T12:00:00Z","pri',
    );
    const [a, b] = [new FileRunStore({ dir }), new FileRunStore({ dir })];
    const [fromA, fromB] = await Promise.all([a.accessTallies('2026-11-20'), b.accessTallies('2026-11-20')]);
    const expected = [
      {
        day: '2026-11-20',
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        document: 'sdr',
        served: 2,
        denied: 0,
        first: '2026-11-20T09:00:00Z',
        last: '2026-11-20T10:00:00Z',
      },
      {
        day: '2026-11-20',
        principal: old,
        document: 'cpo',
        served: 0,
        denied: 1,
        first: '2026-11-20T11:00:00Z',
        last: '2026-11-20T11:00:00Z',
        denied_first: '2026-11-20T11:00:00Z',
        denied_last: '2026-11-20T11:00:00Z',
      },
    ];
    expect([fromA, fromB]).toEqual([expected, expected]);
    expect(readdirSync(join(dir, 'access')).sort()).toEqual(['2026-11-20.ndjson', '2026-11-20.summary.json']);
    // Written to afterwards (an upgrade mid-day): the earlier events are counted once, the new ones on top.
    await a.appendAccess([event('2026-11-20T13:00:00Z')]);
    expect((await new FileRunStore({ dir }).accessTallies('2026-11-20')).map((t) => [t.principal.length, t.served, t.denied, t.last])).toEqual([
      [16, 3, 0, '2026-11-20T13:00:00Z'],
      [399, 0, 1, '2026-11-20T11:00:00Z'],
    ]);
    expect((await a.accessLog('2026-11-20', '2026-11-20')).map((e) => e.at)).toEqual([
      '2026-11-20T10:00:00Z',
      '2026-11-20T11:00:00Z',
      '2026-11-20T09:00:00Z',
      '2026-11-20T13:00:00Z',
    ]);
  });

  it('summarizes a day an earlier svc logged before the first append to it, and before its raw events are pruned', async () => {
    const dir = join(freshRoot(), 'store');
    legacyDay(
      dir,
      '2026-11-25',
      Array.from({ length: 150 }, (_, i) => denial(`2026-11-25T10:00:${String(i % 60).padStart(2, '0')}Z`, 'carol@SVC.TEST')),
    );
    legacyDay(dir, '2026-08-01', [event('2026-08-01T10:00:00Z')]);
    const store = new FileRunStore({ dir });
    // 150 denials already logged: the bound is reached, so the new one is counted only.
    await store.appendAccess([denial('2026-11-25T11:00:00Z', 'carol@SVC.TEST')]);
    expect((await store.accessTallies('2026-11-25')).map((t) => [t.denied, t.denied_last])).toEqual([[151, '2026-11-25T11:00:00Z']]);
    expect(await store.accessLog('2026-11-25', '2026-11-25')).toHaveLength(150);
    const done = await store.pruneAccess({ raw_from: '2026-11-01', summaries_from: '2026-01-01', settled_before: '2026-11-24' });
    expect(done).toEqual({ compacted: 0, summarized: 1, raw_days: 1, summary_days: 0 });
    expect(readdirSync(join(dir, 'access')).sort()).toEqual([
      '2026-08-01.summary.json',
      '2026-11-25.ndjson',
      '2026-11-25.summary.json',
      '2026-11-25.tally.ndjson',
    ]);
    expect((await new FileRunStore({ dir }).accessTallies('2026-08-01')).map((t) => t.served)).toEqual([1]);
  });

  it("compacts a settled day's tally lines into one summary: the same tallies before and after, for a store that had read them and one that had not, and a line written after still counts", async () => {
    const dir = join(freshRoot(), 'store');
    const [writer, reader] = [new FileRunStore({ dir }), new FileRunStore({ dir })];
    for (let i = 0; i < 5; i += 1) await writer.appendAccess([event(`2026-11-20T10:00:0${i}Z`), denial(`2026-11-20T11:00:0${i}Z`, 'carol@SVC.TEST')]);
    const before = await reader.accessTallies('2026-11-20');
    expect(before.map((t) => [t.principal, t.served, t.denied])).toEqual([
      ['alice@AGENCY.GOV', 5, 0],
      ['carol@SVC.TEST', 0, 5],
    ]);
    const cutoffs = { raw_from: '2026-11-01', summaries_from: '2026-01-01', settled_before: '2026-11-24' };
    expect(await writer.pruneAccess(cutoffs)).toEqual({ compacted: 1, summarized: 0, raw_days: 0, summary_days: 0 });
    const summary = JSON.parse(readFileSync(join(dir, 'access', '2026-11-20.summary.json'), 'utf8'));
    expect(summary).toMatchObject({
      schema: 'svc.access-summary/v1',
      day: '2026-11-20',
      absorbed: {
        ino: String(statSync(join(dir, 'access', '2026-11-20.tally.ndjson')).ino),
        bytes: statSync(join(dir, 'access', '2026-11-20.tally.ndjson')).size,
      },
    });
    expect(summary.tallies).toEqual(before);
    for (const store of [reader, writer, new FileRunStore({ dir })]) expect(await store.accessTallies('2026-11-20')).toEqual(before);
    // Nothing new: nothing to compact.
    expect((await writer.pruneAccess(cutoffs)).compacted).toBe(0);
    await writer.appendAccess([event('2026-11-20T23:59:59Z')]);
    const after = await reader.accessTallies('2026-11-20');
    expect(after.map((t) => [t.served, t.last])).toEqual([
      [6, '2026-11-20T23:59:59Z'],
      [0, '2026-11-20T11:00:04Z'],
    ]);
    expect((await writer.pruneAccess(cutoffs)).compacted).toBe(1);
    expect(await new FileRunStore({ dir }).accessTallies('2026-11-20')).toEqual(after);
    // Past the raw days: the tally file goes with the raw events, and the summary alone answers.
    expect(await writer.pruneAccess({ ...cutoffs, raw_from: '2026-11-21' })).toEqual({ compacted: 0, summarized: 0, raw_days: 1, summary_days: 0 });
    expect(readdirSync(join(dir, 'access'))).toEqual(['2026-11-20.summary.json']);
    expect(JSON.parse(readFileSync(join(dir, 'access', '2026-11-20.summary.json'), 'utf8'))).not.toHaveProperty('absorbed');
    for (const store of [reader, new FileRunStore({ dir })]) expect(await store.accessTallies('2026-11-20')).toEqual(after);
  });

  it('counts every event appended by many stores at once (as processes sharing the directory), compaction running meanwhile', async () => {
    const dir = join(freshRoot(), 'store');
    const stores = Array.from({ length: 4 }, () => new FileRunStore({ dir }));
    const cutoffs = { raw_from: '2026-11-01', summaries_from: '2026-01-01', settled_before: '2026-11-26' };
    await Promise.all([
      ...stores.map(async (store, s) => {
        for (let b = 0; b < 25; b += 1) {
          await store.appendAccess(
            Array.from({ length: 20 }, (_, i) =>
              i % 2 === 0
                ? event(`2026-11-25T10:${String(b).padStart(2, '0')}:${String(s * 10 + i / 2).padStart(2, '0')}Z`)
                : denial(`2026-11-25T11:00:${String(s).padStart(2, '0')}Z`, 'carol@SVC.TEST'),
            ),
          );
        }
      }),
      (async () => {
        for (let i = 0; i < 10; i += 1) await stores[0].pruneAccess(cutoffs);
      })(),
    ]);
    const tallies = await new FileRunStore({ dir }).accessTallies('2026-11-25');
    expect(tallies.map((t) => [t.principal, t.served, t.denied])).toEqual([
      ['alice@AGENCY.GOV', 1000, 0],
      ['carol@SVC.TEST', 0, 1000],
    ]);
    for (const store of stores) expect(await store.accessTallies('2026-11-25')).toEqual(tallies);
    const raw = await stores[0].accessLog('2026-11-25', '2026-11-25');
    const carol = raw.filter((e) => e.principal === 'carol@SVC.TEST').length;
    expect(raw.length - carol).toBe(1000);
    // The bound holds per store; stores writing at the same moment may each keep a batch beyond it.
    expect(carol).toBeGreaterThanOrEqual(100);
    expect(carol).toBeLessThanOrEqual(100 + 3 * 10);
  });

  it('skips a torn tally line and names a tally line or summary changed outside svc', async () => {
    const dir = join(freshRoot(), 'store');
    const store = new FileRunStore({ dir });
    await store.appendAccess([event('2026-11-20T10:00:00Z')]);
    const tally = join(dir, 'access', '2026-11-20.tally.ndjson');
    writeFileSync(tally, `${readFileSync(tally, 'utf8')}[{"day":"2026-11-20","princ`);
    await store.appendAccess([event('2026-11-20T10:00:01Z')]);
    expect((await new FileRunStore({ dir }).accessTallies('2026-11-20')).map((t) => t.served)).toEqual([2]);
    writeFileSync(tally, `${readFileSync(tally, 'utf8')}[{"day":"2026-11-20","principal":"alice@AGENCY.GOV","served":-5}]\n`);
    await expect(new FileRunStore({ dir }).accessTallies('2026-11-20')).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: `${tally}:4: not a line of access tallies of 2026-11-20; the store was modified outside svc. Restore it from backup`,
    });
    // Logging goes on meanwhile: the events are tallied, their denials no longer kept raw.
    await store.appendAccess([event('2026-11-20T10:00:02Z'), denial('2026-11-20T10:00:03Z', 'carol@SVC.TEST')]);
    expect((await store.accessLog('2026-11-20', '2026-11-20')).map((e) => e.at)).toEqual([
      '2026-11-20T10:00:00Z',
      '2026-11-20T10:00:01Z',
      '2026-11-20T10:00:02Z',
    ]);
    expect(readFileSync(tally, 'utf8').split('\n').at(-2)).toContain('"denied":1');
    const summary = join(dir, 'access', '2026-11-21.summary.json');
    writeFileSync(summary, '{"schema":"svc.access-summary/v1","day":"2026-11-21","tallies":[{"served":1}]}');
    await expect(store.accessTallies('2026-11-21')).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: `${summary}: not a svc.access-summary/v1 summary of 2026-11-21; the store was modified outside svc. Restore it from backup`,
    });
  });
});
