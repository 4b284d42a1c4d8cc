import { inject, injectable } from 'tsyringe';
import { INCIDENT_KIND, OCR_KIND, SCN_KIND, type IncidentRecord, type OcrRecord, type ScnRecord } from '../../domain/fedramp/ongoing-records';
import { RUN_STORE, type RunStore } from '../../ports/run-store';

/** The ongoing-certification records of the run store's journal, each kind in the order recorded. */
export interface OngoingRecords {
  ocrs: OcrRecord[];
  scns: ScnRecord[];
  incidents: IncidentRecord[];
  /** The journal's last entry (0 when empty): what a snapshot freezes. */
  journalSeq: number;
}

/** Reads what `fedramp ocr`, `scn` and `incident` recorded (domain/fedramp/ongoing-records.ts), in one pass over the journal. */
@injectable()
export class OngoingJournal {
  constructor(@inject(RUN_STORE) private readonly store: RunStore) {}

  async read(): Promise<OngoingRecords> {
    const out: OngoingRecords = { ocrs: [], scns: [], incidents: [], journalSeq: 0 };
    for (const entry of await this.store.journal()) {
      out.journalSeq = entry.seq;
      if (entry.kind === OCR_KIND) out.ocrs.push(entry.record as unknown as OcrRecord);
      else if (entry.kind === SCN_KIND) out.scns.push(entry.record as unknown as ScnRecord);
      else if (entry.kind === INCIDENT_KIND) out.incidents.push(entry.record as unknown as IncidentRecord);
    }
    return out;
  }

  /** Appends an OCR's record; its journal entry's seq. */
  async recordOcr(record: OcrRecord, recordedAt: string): Promise<number> {
    return (await this.store.appendJournal(OCR_KIND, record as unknown as Record<string, unknown>, recordedAt)).seq;
  }
}
