import { injectable } from 'tsyringe';
import type { TrackedPoamItem } from '../../domain/conmon/run-record';
import { POAM_LIST } from '../../domain/paging/paged-list';
import type { Page, PageRequest } from '../../domain/paging/page';
import { PagedListReader } from './paged-list-reader';
import type { RunRef } from './run-ref';

export interface ListPoamItemsInput extends PageRequest {
  status?: TrackedPoamItem['status'];
  overdue?: boolean;
}

export interface ListPoamItemsResult extends Page<TrackedPoamItem> {
  run: RunRef;
}

/** GET /auditor/poam: the POA&M items the lifecycle tracks after the current run, open and closed, in poam_id order (from its stored pages). */
@injectable()
export class ListPoamItems {
  constructor(private readonly pages: PagedListReader) {}

  execute(input: ListPoamItemsInput): Promise<ListPoamItemsResult> {
    const filter = {
      status: input.status === undefined ? undefined : [input.status],
      overdue: input.overdue === undefined ? undefined : [String(input.overdue)],
    };
    return this.pages.read(POAM_LIST, { limit: input.limit, cursor: input.cursor, filter });
  }
}
