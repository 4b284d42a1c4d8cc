import { KSI_COUNTS_DOCUMENT, KSI_COUNTS_HEAD, KSI_COUNTS_TAIL, readKsiCountsRow, type KsiCounts } from '../../domain/conmon/ksi-counts';
import type { RunSummary } from '../../domain/conmon/run-record';
import { readStoredItems } from './stored-items';
import { AppError, IntegrityError } from '../../domain/errors';
import type { RunView } from '../../ports/run-store';

/**
 * Each row of a recorded run's KSI counts (domain/conmon/ksi-counts.ts), read a chunk at a time and checked by the
 * store against the digest its hash chain vouches for; false, reading nothing, for a run recorded before svc stored
 * them (its results are then read instead). A document that is not one svc wrote is run-store-tampered, once the
 * store has checked its bytes (a changed file is reported as such first).
 */
export async function eachStoredKsiCount(store: RunView, run: RunSummary, visit: (row: KsiCounts) => void): Promise<boolean> {
  const opened = await store.openDocument(run.id, KSI_COUNTS_DOCUMENT);
  if (opened === undefined) return false;
  try {
    const tail = await readStoredItems(opened, KSI_COUNTS_HEAD, (text) => {
      const row = readKsiCountsRow(JSON.parse(text));
      if (row === undefined) throw new Error(`a row is not one svc wrote: ${text.slice(0, 80)}`);
      visit(row);
    });
    if (!tail.startsWith(KSI_COUNTS_TAIL) || !/^\d+\}$/.test(tail.slice(KSI_COUNTS_TAIL.length))) throw new Error(`it does not end as svc ends it (${KSI_COUNTS_TAIL}<count>})`);
  } catch (error) {
    // The store's own finding (a changed document) as it is; what is wrong inside a document it vouches for, as svc's.
    if (error instanceof AppError) throw error;
    throw new IntegrityError('run-store-tampered', `${store.location} run ${run.seq} ${KSI_COUNTS_DOCUMENT}: ${(error as Error).message}; the store was modified outside svc. Restore it from backup`);
  }
  return true;
}
