import { KSI_COUNTS_DOCUMENT, KSI_COUNTS_HEAD, KSI_COUNTS_SCHEMA, KSI_COUNTS_TAIL, readKsiCountsRow, type KsiCounts } from '../../domain/conmon/ksi-counts';
import { isPlainObject } from '../../domain/encoding/json-values';
import type { RunSummary } from '../../domain/conmon/run-record';
import { readStoredItems } from './stored-items';
import { storedText } from './stored-text';
import { AppError, IntegrityError } from '../../domain/errors';
import type { OpenedDocument, RunView } from '../../ports/run-store';

/** A run's counts this small are read whole: a catalog of thousands of KSI ids still is. */
const WHOLE_BYTES = 1 << 20;

/**
 * Each row of a recorded run's KSI counts (domain/conmon/ksi-counts.ts), as `opened` from the store (RunView.openDocuments
 * opens many runs' at once), read whole or, past WHOLE_BYTES, a chunk at a time, and checked by the store against the
 * digest its hash chain vouches for; false, reading nothing, for a run recorded before svc stored them (`opened`
 * undefined: its results are then read instead). A document that is not one svc wrote is run-store-tampered, once the
 * store has checked its bytes (a changed file is reported as such first).
 */
export async function eachKsiCountOf(
  opened: OpenedDocument | undefined,
  store: Pick<RunView, 'location'>,
  run: RunSummary,
  visit: (row: KsiCounts) => void,
): Promise<boolean> {
  if (opened === undefined) return false;
  const row = (value: unknown) => {
    const counted = readKsiCountsRow(value);
    if (counted === undefined) throw new Error(`a row is not one svc wrote: ${JSON.stringify(value).slice(0, 80)}`);
    visit(counted);
  };
  try {
    if (opened.document.bytes <= WHOLE_BYTES) {
      // As small as a run's counts are (a row per KSI id of the catalog): parsed at once, once the store checked it.
      const counts = JSON.parse(await storedText(opened)) as unknown;
      if (
        !isPlainObject(counts) ||
        !Array.isArray(counts.ksis) ||
        counts.schema !== KSI_COUNTS_SCHEMA ||
        !Number.isSafeInteger(counts.unmapped) ||
        Object.keys(counts).length !== 3
      ) {
        throw new Error(`it is not a ${KSI_COUNTS_SCHEMA} document`);
      }
      counts.ksis.forEach(row);
      return true;
    }
    const tail = await readStoredItems(opened, KSI_COUNTS_HEAD, (text) => row(JSON.parse(text)));
    if (!tail.startsWith(KSI_COUNTS_TAIL) || !/^\d+\}$/.test(tail.slice(KSI_COUNTS_TAIL.length)))
      throw new Error(`it does not end as svc ends it (${KSI_COUNTS_TAIL}<count>})`);
  } catch (error) {
    // The store's own finding (a changed document) as it is; what is wrong inside a document it vouches for, as svc's.
    if (error instanceof AppError) throw error;
    throw new IntegrityError(
      'run-store-tampered',
      `${store.location} run ${run.seq} ${KSI_COUNTS_DOCUMENT}: ${(error as Error).message}; the store was modified outside svc. Restore it from backup`,
    );
  }
  return true;
}

/** How many runs' KSI counts are opened at once (small documents: a row per KSI id). */
const COUNTS_READ_AT_ONCE = 64;

/**
 * The stored KSI count rows of each run of `summaries`, by run id (undefined for a run recorded without them), opened
 * COUNTS_READ_AT_ONCE runs at a time (RunView.openDocuments: two queries in PostgreSQL) and parsed together; `keep`
 * is told of each run read.
 */
export async function storedCountRows(
  store: RunView,
  summaries: readonly RunSummary[],
  keep?: (run: RunSummary, rows: readonly KsiCounts[] | undefined) => void,
): Promise<Map<string, readonly KsiCounts[] | undefined>> {
  const found = new Map<string, readonly KsiCounts[] | undefined>();
  for (let at = 0; at < summaries.length; at += COUNTS_READ_AT_ONCE) {
    const batch = summaries.slice(at, at + COUNTS_READ_AT_ONCE);
    const opened = await store.openDocuments(
      batch.map((s) => s.id),
      KSI_COUNTS_DOCUMENT,
    );
    await Promise.all(
      batch.map(async (summary, i) => {
        const rows: KsiCounts[] = [];
        const stored = await eachKsiCountOf(opened[i], store, summary, (row) => rows.push(row));
        found.set(summary.id, stored ? rows : undefined);
        keep?.(summary, stored ? rows : undefined);
      }),
    );
  }
  return found;
}
