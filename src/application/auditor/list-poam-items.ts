import { injectable } from 'tsyringe';
import type { TrackedPoamItem } from '../../domain/conmon/run-record';
import { pageOf, type Page, type PageRequest } from '../../domain/paging/page';
import { CurrentRun } from './current-run';
import { runRef, type RunRef } from './run-ref';

export interface ListPoamItemsInput extends PageRequest {
  status?: TrackedPoamItem['status'];
  overdue?: boolean;
}

export interface ListPoamItemsResult extends Page<TrackedPoamItem> {
  run: RunRef;
}

/** GET /auditor/poam: the POA&M items the lifecycle tracks after the current run, open and closed, in poam_id order. */
@injectable()
export class ListPoamItems {
  constructor(private readonly current: CurrentRun) {}

  async execute(input: ListPoamItemsInput): Promise<ListPoamItemsResult> {
    const { summary, poam } = await this.current.get();
    const items = poam.filter((p) => (input.status === undefined || p.status === input.status) && (input.overdue === undefined || p.overdue === input.overdue));
    return { run: runRef(summary), ...pageOf(items, input, summary.id) };
  }
}
