import { KSI_COUNTS_DOCUMENT } from './ksi-counts';
import type { RunDocument } from './run-record';

/**
 * What every run keeps for good, besides its summary, link, state and events (a pruned run too: retention.ts): its
 * KSI counts and its manifest of digests, which a year of daily runs reads of every run (issue 35).
 */
export const KEPT_DOCUMENTS: readonly string[] = [KSI_COUNTS_DOCUMENT, 'manifest.json'];

/**
 * The entries of a run's document list that KEPT_DOCUMENTS names, in the list's order. A link names their digest
 * (`kept`) beside the whole list's, so a store can keep them where it reads every run anyway and open them without
 * reading the whole list, which a large run's pages make long. Links written before it do not name it, and their
 * runs are read through the list.
 */
export function keptDocuments(documents: readonly RunDocument[]): RunDocument[] {
  return documents.filter((d) => KEPT_DOCUMENTS.includes(d.name));
}
