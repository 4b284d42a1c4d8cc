import type { InjectionToken } from 'tsyringe';
import type { JournalEntry } from '../domain/conmon/journal';

export type { JournalEntry } from '../domain/conmon/journal';

/**
 * The run store's journal (domain/conmon/journal.ts): what svc records beside the runs (OCRs, SCNs, incidents,
 * vulnerability evaluations, prunings), append-only and hash-chained apart from the runs' chain. The same stores
 * implement RunStore and AccessStore; a snapshot's view (SnapshotStore) shows the entries up to its bound.
 */
export interface JournalStore {
  /** Where the store is, for messages: a directory, or a URL without its password. */
  readonly location: string;
  /**
   * Appends a journal entry under the store's lock (two processes appending at once are serialized; a crash leaves the
   * journal as it was); returns it. The journal is append-only and hash-chained (domain/conmon/journal.ts), apart from
   * the runs' chain. Throws InvalidInputError (`bad-journal-kind`, `bad-journal-record`, `bad-journal-time`) for a kind
   * that is not lowercase letters and hyphens, a record that is not a plain JSON object, a time that is not ISO-8601;
   * IntegrityError when the journal already there no longer verifies (nothing is appended to a broken chain).
   */
  appendJournal(kind: string, record: Record<string, unknown>, recordedAt: string): Promise<JournalEntry>;
  /**
   * The journal's entries in seq order (only `kind`'s when given), the whole chain verified first: a changed, removed,
   * reordered or inserted entry is IntegrityError('run-store-tampered', '<where>: journal entry <seq> …; the store was
   * modified outside svc. Restore it from backup'). An empty journal: [].
   */
  journal(kind?: string): Promise<JournalEntry[]>;
}

export const JOURNAL_STORE: InjectionToken<JournalStore> = Symbol('JournalStore');
