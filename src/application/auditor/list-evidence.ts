import { injectable } from 'tsyringe';
import type { Status } from '../../domain/ksi/status';
import { pageOf, type Page, type PageRequest } from '../../domain/paging/page';
import { CurrentRun } from './current-run';
import { runRef, type RunRef } from './run-ref';

export interface ListEvidenceInput extends PageRequest {
  /** Only these KSIs. */
  ksi?: string[];
  /** Only results with these statuses. */
  status?: Status[];
}

export interface ListEvidenceResult extends Page<Record<string, unknown>> {
  run: RunRef;
}

/** GET /auditor/evidence: the current run's evidence entries, exactly as recorded, filtered and paged. */
@injectable()
export class ListEvidence {
  constructor(private readonly current: CurrentRun) {}

  async execute(input: ListEvidenceInput): Promise<ListEvidenceResult> {
    const { summary, run, entries } = await this.current.get();
    const ksis = input.ksi && new Set(input.ksi);
    const statuses = input.status && new Set<string>(input.status);
    const matching = ksis || statuses ? entries.filter((_, i) => (!ksis || ksis.has(run.results[i].item.result.ksi_id)) && (!statuses || statuses.has(run.results[i].item.result.status))) : entries;
    return { run: runRef(summary), ...pageOf(matching, input, summary.id) };
  }
}
