import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { decodeSpans, type PieceSpan, readVarint } from '../../src/domain/conmon/content-pieces';

/*
 * A run's documents as the file store keeps them in `documents/<id>/`: each as a piece list, `<name>.pieces`, whose
 * pieces are in the store's packs (`pieces/<seq>.pack`, src/infrastructure/store/file-packs.ts), with the run's id
 * kept as a token; a kept document (the KSI counts, the manifest) and a document a person replaced compressed with
 * Brotli in `<name>.br`, which the store reads when there is no piece list. Tests read them as the format says, and
 * change them as a person with brotli would: the changed document replaces the piece list with a `.br` file.
 */

/** The file a person's edit of document `name` of the run whose documents are in `dir` leaves it in. */
export function storedDocumentFile(dir: string, name: string): string {
  return join(dir, `${name}.br`);
}

/** The bytes of document `name` as stored in `dir` (documents/<id>/ of a file store). */
export function readStoredDocument(dir: string, name: string): Buffer {
  return readStoredFile(join(dir, name), basename(dir), join(dir, '..', '..'));
}

/** Stores `bytes` as document `name` in `dir`, behind the store's back: a `.br` file in place of its piece list. */
export function writeStoredDocument(dir: string, name: string, bytes: string | Buffer): void {
  writeFileSync(storedDocumentFile(dir, name), brotliCompressSync(bytes));
  rmSync(join(dir, `${name}.pieces`), { force: true });
}

/** Removes document `name` from `dir` behind the store's back, however it is kept. */
export function removeStoredDocument(dir: string, name: string): void {
  for (const suffix of ['.pieces', '.br']) rmSync(join(dir, `${name}${suffix}`), { force: true });
}

/** The names of the documents stored in `dir` (and its document list, `.list.json`). */
export function storedDocumentNames(dir: string): string[] {
  return readdirSync(dir).map((file) => file.replace(/\.(br|pieces)$/, ''));
}

/** The file run `seq`'s state is in once editStoredState changed it: `states/<seq>-<id>.json.br`. */
export function storedStateFile(dir: string, seq: number, id: string): string {
  return `${stateOf(dir, seq, id)}.br`;
}

/** Whether run `seq`'s state is stored, however it is kept. */
export function hasStoredState(dir: string, seq: number, id: string): boolean {
  return ['.pieces', '.br'].some((suffix) => existsSync(`${stateOf(dir, seq, id)}${suffix}`));
}

/** Run `seq`'s state as stored, parsed. */
export function readStoredState(dir: string, seq: number, id: string): Record<string, any> {
  return JSON.parse(readStoredFile(stateOf(dir, seq, id), id, dir).toString('utf8')) as Record<string, any>;
}

/** Run `seq`'s state as stored, parsed; `change` edits it and it is stored again as a `.br` file, as `space` says. */
export function editStoredState(dir: string, seq: number, id: string, change: (state: Record<string, any>) => void, space?: number): string {
  const state = readStoredState(dir, seq, id);
  change(state);
  const path = storedStateFile(dir, seq, id);
  writeFileSync(path, brotliCompressSync(JSON.stringify(state, null, space)));
  rmSync(`${stateOf(dir, seq, id)}.pieces`, { force: true });
  return path;
}

function stateOf(dir: string, seq: number, id: string): string {
  return join(dir, 'states', `${String(seq).padStart(8, '0')}-${id}.json`);
}

/** The bytes of a document a run store opened, read to their end (so the store checks them), as UTF-8. */
export async function openedText(opened: { chunks: AsyncIterable<Uint8Array> } | undefined): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of opened!.chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** The bytes of the file svc keeps at `path` for run `id` of the store at `store`: its pieces, or its `.br` file. */
function readStoredFile(path: string, id: string, store: string): Buffer {
  if (!existsSync(`${path}.pieces`)) return brotliDecompressSync(readFileSync(`${path}.br`));
  const list = decodeSpans(readFileSync(`${path}.pieces`));
  if (list === undefined) throw new Error(`${path}.pieces: not a piece list`);
  const inner = list.ofList ? decodeSpans(piecesOf(store, list.spans)) : list;
  if (inner === undefined || inner.ofList) throw new Error(`${path}.pieces: not a list of a list`);
  return untokenized(piecesOf(store, inner.spans), id);
}

/** The bytes of the pieces `spans` names, read from the packs as file-packs.ts lays them out (each pack read once). */
function piecesOf(store: string, spans: readonly PieceSpan[]): Buffer {
  const packs = new Map<number, Frame[]>();
  const parts: Buffer[] = [];
  for (const { pack, first, count } of spans) {
    if (!packs.has(pack)) packs.set(pack, framesOf(readFileSync(join(store, 'pieces', `${String(pack).padStart(8, '0')}.pack`))));
    for (const frame of packs.get(pack)!) {
      const from = Math.max(first, frame.first);
      const to = Math.min(first + count, frame.first + frame.offsets.length - 1);
      if (from < to) parts.push(frame.plain().subarray(frame.offsets[from - frame.first], frame.offsets[to - frame.first]));
    }
  }
  return Buffer.concat(parts);
}

interface Frame {
  first: number;
  offsets: number[];
  plain: () => Buffer;
}

function framesOf(pack: Buffer): Frame[] {
  const tableBytes = pack.readUInt32BE(pack.length - 12);
  const end = pack.length - 12 - tableBytes;
  const frames: Frame[] = [];
  const at = { offset: 8 };
  const part = (): Buffer => {
    const length = readVarint(pack, at) as number;
    at.offset += length;
    return pack.subarray(at.offset - length, at.offset);
  };
  while (at.offset < end) {
    const first = readVarint(pack, at) as number;
    const [lengths, , bytes] = [part(), part(), part()];
    const offsets = [0];
    for (const cursor = { offset: 0 }; cursor.offset < lengths.length;) offsets.push(offsets[offsets.length - 1] + (readVarint(lengths, cursor) as number));
    let plain: Buffer | undefined;
    frames.push({ first, offsets, plain: () => (plain ??= brotliDecompressSync(bytes)) });
  }
  return frames;
}

/** Tokenized bytes as they were: 00 00 a 00 byte, 00 01 the run's id. */
function untokenized(bytes: Buffer, id: string): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let zero = bytes.indexOf(0, from); zero >= 0; zero = bytes.indexOf(0, from)) {
    parts.push(bytes.subarray(from, zero), bytes[zero + 1] === 1 ? Buffer.from(id, 'latin1') : Buffer.from([0]));
    from = zero + 2;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
