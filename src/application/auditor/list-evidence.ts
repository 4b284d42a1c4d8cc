import { injectable } from 'tsyringe';
import type { Status } from '../../domain/ksi/status';
import { EVIDENCE_LIST } from '../../domain/paging/paged-list';
import type { Page, PageRequest } from '../../domain/paging/page';
import { PagedListReader } from './paged-list-reader';
import type { RunRef } from './run-ref';

export interface ListEvidenceInput extends PageRequest {
  /** Only these KSIs. */
  ksi?: string[];
  /** Only results with these statuses. */
  status?: Status[];
}

export interface ListEvidenceResult extends Page<Record<string, unknown>> {
  run: RunRef;
}

/** GET /auditor/evidence: the current run's evidence entries, exactly as recorded, filtered and paged (from its stored pages). */
@injectable()
export class ListEvidence {
  constructor(private readonly pages: PagedListReader) {}

  execute(input: ListEvidenceInput): Promise<ListEvidenceResult> {
    return this.pages.read(EVIDENCE_LIST, { limit: input.limit, cursor: input.cursor, filter: { status: input.status }, keys: input.ksi });
  }
}
