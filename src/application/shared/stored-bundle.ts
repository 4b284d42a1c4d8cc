import type { Assessor, HashedResult } from '../../domain/assessment/assessment';
import { EntryStore } from '../../domain/assessment/entry-result';
import { EVIDENCE_BUNDLE_HEAD, readEvidenceBundle } from '../../domain/artifacts/evidence-bundle';
import { EVIDENCE_BUNDLE_DOCUMENT, type RunSummary } from '../../domain/conmon/run-record';
import { readStoredItems } from './stored-items';
import { parseDigest } from '../../domain/evidence/content-digest';
import { AppError, IntegrityError, InvalidInputError } from '../../domain/errors';
import { reportedResult, ResultChecker, type KsiResult } from '../../domain/ksi/ksi-result';
import { isPlainObject } from '../../domain/encoding/json-values';
import type { RunView } from '../../ports/run-store';

/**
 * The results of a recorded run, read from its stored evidence bundle a chunk at a time (the store checks the bytes
 * against the digest the hash chain vouches for as they come) and kept as their entries (EntryStore): a run of a
 * million results is never one string, nor a million object graphs. Each entry is checked as `readEvidenceBundle`
 * checks a bundle's, and assessed again with `assess` when it is read.
 */
export async function readStoredResults(store: RunView, run: RunSummary, assess: Assessor): Promise<HashedResult[]> {
  const entries = new EntryStore(assess);
  const results: HashedResult[] = [];
  await readStoredEntries(store, run, (text, _entry, hash) => results.push(entries.add(text, hash)));
  return results;
}

/**
 * Each result of a recorded run in order, assessed with `assess`, one at a time: for a pass that keeps what it needs
 * of each (the CR26 facts of `fedramp sdr`, `readiness` and `ocr`) and never the run. Checked as readStoredResults
 * checks; resolves with the number of results.
 */
export function eachStoredResult(store: RunView, run: RunSummary, assess: Assessor, visit: (result: HashedResult) => void): Promise<number> {
  return readStoredEntries(store, run, (_text, entry, hash) => visit({ item: assess(reportedResult(entry) as KsiResult), hash }));
}

/** Reads the run's stored bundle, checking each entry, and gives each to `visit` with its hex content hash; the count. */
async function readStoredEntries(
  store: RunView,
  run: RunSummary,
  visit: (text: string, entry: Record<string, unknown>, hash: string) => void,
): Promise<number> {
  const where = `${store.location} run ${run.seq}`;
  const file = `${where} ${EVIDENCE_BUNDLE_DOCUMENT}`;
  const opened = await store.openDocument(run.id, EVIDENCE_BUNDLE_DOCUMENT);
  if (!opened) throw corrupt(where, 'has no evidence bundle');
  const checker = new ResultChecker(file, 'entries', {});
  let count = 0;
  const read = (text: string) => {
    const entry = JSON.parse(text) as unknown;
    const at = `entries[${count}]`;
    if (!isPlainObject(entry)) throw invalid(file, at, 'expected an object');
    const hash = parseDigest(entry.content_hash);
    if (hash === undefined) throw invalid(file, `${at}.content_hash`, 'expected sha256:<64 hex digits>');
    checker.check(reportedResult(entry));
    visit(text, entry, hash);
    count += 1;
  };
  try {
    const rest = await readStoredItems(opened, EVIDENCE_BUNDLE_HEAD, read);
    // What follows the entries (`,"input":…,"merkle_root":…,"schema":…}`) is checked as a bundle's.
    readEvidenceBundle({ ...(JSON.parse(`{${rest.slice(1)}`) as Record<string, unknown>), entries: [] }, file);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw corrupt(where, `has an evidence bundle svc cannot read (${(error as Error).message})`);
  }
  return count;
}

function invalid(file: string, path: string, problem: string): InvalidInputError {
  return new InvalidInputError('invalid-evidence-bundle', `${file}: ${path}: ${problem}; pass an evidence-bundle.json written by svc`);
}

function corrupt(where: string, problem: string): IntegrityError {
  return new IntegrityError('run-store-tampered', `${where}: ${problem}; the store was modified outside svc. Restore it from backup`);
}
