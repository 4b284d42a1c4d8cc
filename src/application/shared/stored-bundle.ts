import type { Assessor, HashedResult } from '../../domain/assessment/assessment';
import { EntryStore } from '../../domain/assessment/entry-result';
import { EVIDENCE_BUNDLE_HEAD, readEvidenceBundle } from '../../domain/artifacts/evidence-bundle';
import { EVIDENCE_BUNDLE_DOCUMENT, type RunSummary } from '../../domain/conmon/run-record';
import { JsonArrayItems } from '../../domain/encoding/json-array-items';
import { parseDigest } from '../../domain/evidence/content-digest';
import { AppError, IntegrityError, InvalidInputError } from '../../domain/errors';
import { isPlainObject, reportedResult, ResultChecker } from '../../domain/ksi/ksi-result';
import type { RunStore } from '../../ports/run-store';

/**
 * The results of a recorded run, read from its stored evidence bundle a chunk at a time (the store checks the bytes
 * against the digest the hash chain vouches for as they come) and kept as their entries (EntryStore): a run of a
 * million results is never one string, nor a million object graphs. Each entry is checked as `readEvidenceBundle`
 * checks a bundle's, and assessed again with `assess` when it is read.
 */
export async function readStoredResults(store: RunStore, run: RunSummary, assess: Assessor): Promise<HashedResult[]> {
  const where = `${store.location} run ${run.seq}`;
  const file = `${where} ${EVIDENCE_BUNDLE_DOCUMENT}`;
  const opened = await store.openDocument(run.id, EVIDENCE_BUNDLE_DOCUMENT);
  if (!opened) throw corrupt(where, 'has no evidence bundle');
  const items = new JsonArrayItems(EVIDENCE_BUNDLE_HEAD);
  const entries = new EntryStore(assess);
  const checker = new ResultChecker(file, 'entries', {});
  const results: HashedResult[] = [];
  const read = (text: string) => {
    const entry = JSON.parse(text) as unknown;
    const at = `entries[${results.length}]`;
    if (!isPlainObject(entry)) throw invalid(file, at, 'expected an object');
    const hash = parseDigest(entry.content_hash);
    if (hash === undefined) throw invalid(file, `${at}.content_hash`, 'expected sha256:<64 hex digits>');
    checker.check(reportedResult(entry));
    results.push(entries.add(text, hash));
  };
  // A bundle changed outside svc is reported as such (by the store, once the bytes are through), before anything
  // wrong inside it: the first problem found is kept while the rest of the bytes are read.
  let problem: unknown;
  for await (const chunk of opened.chunks) {
    if (problem !== undefined) continue;
    try {
      for (const text of items.push(chunk)) read(text);
    } catch (error) {
      problem = error;
    }
  }
  try {
    if (problem !== undefined) throw problem;
    // What follows the entries (`,"input":…,"merkle_root":…,"schema":…}`) is checked as a bundle's.
    readEvidenceBundle({ ...(JSON.parse(`{${items.rest().slice(1)}`) as Record<string, unknown>), entries: [] }, file);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw corrupt(where, `has an evidence bundle svc cannot read (${(error as Error).message})`);
  }
  return results;
}

function invalid(file: string, path: string, problem: string): InvalidInputError {
  return new InvalidInputError('invalid-evidence-bundle', `${file}: ${path}: ${problem}; pass an evidence-bundle.json written by svc`);
}

function corrupt(where: string, problem: string): IntegrityError {
  return new IntegrityError('run-store-tampered', `${where}: ${problem}; the store was modified outside svc. Restore it from backup`);
}
