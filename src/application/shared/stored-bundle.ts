import { EVIDENCE_BUNDLE_HEAD, readEvidenceBundle, type RecordedBundle } from '../../domain/artifacts/evidence-bundle';
import { EVIDENCE_BUNDLE_DOCUMENT, type RunSummary } from '../../domain/conmon/run-record';
import { JsonArrayItems } from '../../domain/encoding/json-array-items';
import { AppError, IntegrityError } from '../../domain/errors';
import type { RunStore } from '../../ports/run-store';

/**
 * The evidence bundle of a recorded run, read from the store a chunk at a time (the store checks the bytes against the
 * digest the hash chain vouches for as they come): its results and the hashes it records. The entries are parsed one
 * by one, so the bundle's text is never one string.
 */
export async function readStoredBundle(store: RunStore, run: RunSummary): Promise<RecordedBundle> {
  const where = `${store.location} run ${run.seq}`;
  const opened = await store.openDocument(run.id, EVIDENCE_BUNDLE_DOCUMENT);
  if (!opened) throw corrupt(where, 'has no evidence bundle');
  const items = new JsonArrayItems(EVIDENCE_BUNDLE_HEAD);
  const entries: unknown[] = [];
  let tail: Record<string, unknown>;
  try {
    for await (const chunk of opened.chunks) for (const text of items.push(chunk)) entries.push(JSON.parse(text));
    // What follows the entries: `,"input":…,"merkle_root":…,"schema":…}`.
    tail = JSON.parse(`{${items.rest().slice(1)}`) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw corrupt(where, `has an evidence bundle svc cannot read (${(error as Error).message})`);
  }
  return readEvidenceBundle({ ...tail, entries }, `${where} ${EVIDENCE_BUNDLE_DOCUMENT}`);
}

function corrupt(where: string, problem: string): IntegrityError {
  return new IntegrityError('run-store-tampered', `${where}: ${problem}; the store was modified outside svc. Restore it from backup`);
}
