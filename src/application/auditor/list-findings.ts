import { injectable } from 'tsyringe';
import type { GovernanceAction } from '../../domain/governance/governance-policy';
import type { Severity } from '../../domain/governance/severity';
import type { Status } from '../../domain/ksi/status';
import { FINDINGS_LIST } from '../../domain/paging/paged-list';
import type { Page, PageRequest } from '../../domain/paging/page';
import { PagedListReader } from './paged-list-reader';
import type { RunRef } from './run-ref';

/** A FAIL or WARN result of the current run with the governance action it drives. */
export interface Finding {
  ksi_id: string;
  status: Exclude<Status, 'PASS'>;
  title: string | null;
  details: string | null;
  observed_at: string | null;
  controls: string[];
  action: GovernanceAction;
  poam_id: string | null;
  content_hash: string;
}

export interface ListFindingsInput extends PageRequest {
  status?: Exclude<Status, 'PASS'>[];
  severity?: Severity[];
}

export interface ListFindingsResult extends Page<Finding> {
  run: RunRef;
}

/** GET /auditor/findings: the FAIL and WARN results of the current run with their actions, in ksi_id order (from its stored pages). */
@injectable()
export class ListFindings {
  constructor(private readonly pages: PagedListReader) {}

  execute(input: ListFindingsInput): Promise<ListFindingsResult> {
    return this.pages.read(FINDINGS_LIST, { limit: input.limit, cursor: input.cursor, filter: { status: input.status, severity: input.severity } });
  }
}
