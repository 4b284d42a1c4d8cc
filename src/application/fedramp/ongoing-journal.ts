import { inject, injectable } from 'tsyringe';
import {
  INCIDENT_KIND,
  OCR_KIND,
  SCN_KIND,
  type IncidentRecord,
  type OcrRecord,
  type OngoingKind,
  type OngoingKinds,
  type Recorded,
  type ScnRecord,
} from '../../domain/fedramp/ongoing-records';
import { JOURNAL_STORE, type JournalStore } from '../../ports/journal-store';
import type { TwinRecording } from './fedramp-documents';

/** The ongoing-certification records of the run store's journal, each kind in the order recorded. */
export interface OngoingRecords {
  ocrs: OcrRecord[];
  /** Each with when it was recorded: an SCN without dates belongs to the OCR of the period it was recorded in. */
  scns: (ScnRecord & { recorded_at: string })[];
  incidents: IncidentRecord[];
  /** The journal's last entry (0 when empty): what a snapshot freezes. */
  journalSeq: number;
}

/**
 * What `fedramp ocr`, `scn` and `incident` record in the run store's journal (domain/fedramp/ongoing-records.ts): the
 * one reader and writer of those kinds. Reading verifies the journal's chain first (IntegrityError when it was changed
 * outside svc), so a command that reads before it writes stops on a tampered store before writing anything.
 */
@injectable()
export class OngoingJournal {
  constructor(@inject(JOURNAL_STORE) private readonly store: JournalStore) {}

  /** Where the store is, for messages. */
  get location(): string {
    return this.store.location;
  }

  /** Every kind, in one pass over the journal. */
  async read(): Promise<OngoingRecords> {
    const out: OngoingRecords = { ocrs: [], scns: [], incidents: [], journalSeq: 0 };
    for (const entry of await this.store.journal()) {
      out.journalSeq = entry.seq;
      if (entry.kind === OCR_KIND) out.ocrs.push(entry.record as unknown as OcrRecord);
      else if (entry.kind === SCN_KIND) out.scns.push({ ...(entry.record as unknown as ScnRecord), recorded_at: entry.recorded_at });
      else if (entry.kind === INCIDENT_KIND) out.incidents.push(entry.record as unknown as IncidentRecord);
    }
    return out;
  }

  /** The records of one kind with their journal seq and time, in the order recorded. */
  async entries<K extends OngoingKind>(kind: K): Promise<Recorded<OngoingKinds[K]>[]> {
    return (await this.store.journal(kind)).map((e) => ({ seq: e.seq, recorded_at: e.recorded_at, record: e.record as unknown as OngoingKinds[K] }));
  }

  /** Appends a record at `recordedAt` (ISO-8601 UTC); its journal entry's seq. */
  async append<K extends OngoingKind>(kind: K, record: OngoingKinds[K], recordedAt: string): Promise<number> {
    return (await this.store.appendJournal(kind, record as unknown as Record<string, unknown>, recordedAt)).seq;
  }

  /**
   * The recording of a document written with its twin (writeRecordedTwin): appending `record` at `recordedAt`, named
   * `journal entry <seq> of <store>` (and `about`, when given) in the message for files that could not follow it.
   */
  recording<K extends OngoingKind>(kind: K, record: OngoingKinds[K], recordedAt: string, again: string, about?: string): TwinRecording<number> {
    return {
      record: () => this.append(kind, record, recordedAt),
      names: (seq) => `journal entry ${seq} of ${this.location}${about === undefined ? '' : ` (${about})`}`,
      again,
    };
  }
}
