import { injectable } from 'tsyringe';
import { needsPoam, poamId } from '../../domain/artifacts/poam';
import { formatDigest } from '../../domain/evidence/content-digest';
import type { GovernanceAction } from '../../domain/governance/governance-policy';
import type { Severity } from '../../domain/governance/severity';
import type { Status } from '../../domain/ksi/status';
import { pageOf, type Page, type PageRequest } from '../../domain/paging/page';
import { CurrentRun } from './current-run';
import { runRef, type RunRef } from './run-ref';

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

/** GET /auditor/findings: the FAIL and WARN results of the current run with their actions, in ksi_id order. */
@injectable()
export class ListFindings {
  constructor(private readonly current: CurrentRun) {}

  async execute(input: ListFindingsInput): Promise<ListFindingsResult> {
    const { summary, run } = await this.current.get();
    const findings: Finding[] = [];
    for (const { item, hash } of run.results) {
      const { result, definition, action } = item;
      if (result.status === 'PASS') continue;
      if (input.status && !input.status.includes(result.status)) continue;
      if (input.severity && !input.severity.includes(action.severity)) continue;
      findings.push({
        ksi_id: result.ksi_id,
        status: result.status,
        title: result.title ?? null,
        details: result.details ?? null,
        observed_at: result.observed_at ?? null,
        controls: definition?.controls ?? [],
        action,
        poam_id: needsPoam(item) ? poamId(result.ksi_id) : null,
        content_hash: formatDigest(hash),
      });
    }
    return { run: runRef(summary), ...pageOf(findings, input, summary.id) };
  }
}
