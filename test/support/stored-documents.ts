import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';

/*
 * A run's documents as the file store keeps them in `documents/<id>/`: each compressed with Brotli in `<name>.br`
 * (src/infrastructure/store/compressed-documents.ts). Tests read and change them as a person with brotli would.
 */

/** The file document `name` of the run whose documents are in `dir` is kept in. */
export function storedDocumentFile(dir: string, name: string): string {
  return join(dir, `${name}.br`);
}

/** The bytes of document `name` as stored in `dir`. */
export function readStoredDocument(dir: string, name: string): Buffer {
  return brotliDecompressSync(readFileSync(storedDocumentFile(dir, name)));
}

/** Stores `bytes` as document `name` in `dir`, behind the store's back. */
export function writeStoredDocument(dir: string, name: string, bytes: string | Buffer): void {
  writeFileSync(storedDocumentFile(dir, name), brotliCompressSync(bytes));
}

/** The names of the documents stored in `dir` (and its document list, `.list.json`). */
export function storedDocumentNames(dir: string): string[] {
  return readdirSync(dir).map((file) => file.replace(/\.br$/, ''));
}

/** The compressed state file of run `seq` (`id`) in the file store at `dir`: `states/<seq>-<id>.json.br`. */
export function storedStateFile(dir: string, seq: number, id: string): string {
  return join(dir, 'states', `${String(seq).padStart(8, '0')}-${id}.json.br`);
}

/** Run `seq`'s state as stored, parsed; `change` edits it and it is stored again, compressed, as `space` says. */
export function editStoredState(dir: string, seq: number, id: string, change: (state: Record<string, any>) => void, space?: number): string {
  const path = storedStateFile(dir, seq, id);
  const state = JSON.parse(brotliDecompressSync(readFileSync(path)).toString('utf8'));
  change(state);
  writeFileSync(path, brotliCompressSync(JSON.stringify(state, null, space)));
  return path;
}

/** The bytes of a document a run store opened, read to their end (so the store checks them), as UTF-8. */
export async function openedText(opened: { chunks: AsyncIterable<Uint8Array> } | undefined): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of opened!.chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}
