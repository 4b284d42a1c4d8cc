import type { AssessedResult } from '../assessment/assessment';
import type { Severity } from '../governance/severity';
import { addDays, isoDate, type RunContext } from './run-context';
import type { TextSink } from './text-sink';

export const POAM_SCHEMA = 'svc.poam/v1';

/** A POA&M row; field names follow the FedRAMP POA&M template columns (DESIGN §5). */
export interface PoamRow {
  poam_id: string;
  ksi_id: string;
  controls: string[];
  weakness_name: string;
  weakness_description: string;
  weakness_source: string;
  asset_identifier: string;
  point_of_contact: string;
  original_detection_date: string;
  scheduled_completion_date: string;
  status: 'Open';
  risk_rating: RiskRating;
  remediation_plan: string;
  milestones: Milestone[];
}

export interface Milestone {
  description: string;
  due: string;
}

/** The FedRAMP template's risk ratings (Moderate, not Medium). */
export type RiskRating = 'Critical' | 'High' | 'Moderate' | 'Low';
const RISK: Record<Severity, RiskRating> = { Critical: 'Critical', High: 'High', Medium: 'Moderate', Low: 'Low' };

export function poamId(ksiId: string): string {
  return `POAM-${ksiId}`;
}

/** Rows exist only for FAIL and WARN results. */
export function needsPoam(item: AssessedResult): boolean {
  return item.result.status !== 'PASS';
}

/** The row of a FAIL or WARN result; `detected` overrides its detection date (an item open since an earlier run). */
export function poamRow(item: AssessedResult, context: RunContext, detected = detectionDate(item, context)): PoamRow {
  const { result, definition, action } = item;
  const due = addDays(detected, action.sla_days);
  const title = result.title ?? definition?.title ?? 'Unmapped KSI';
  const controls = definition?.controls ?? [];
  // Keys in code-unit order: JSON.stringify of this row is its RFC 8785 text (PoamRows relies on it).
  return {
    asset_identifier: context.source?.tenant ?? context.input.name,
    controls,
    ksi_id: result.ksi_id,
    milestones: [
      { description: `Remediation plan agreed with ${action.owner}`, due: addDays(detected, Math.ceil(action.sla_days / 2)) },
      { description: `${result.ksi_id} passes a new assessment`, due },
    ],
    original_detection_date: detected,
    poam_id: poamId(result.ksi_id),
    point_of_contact: action.owner,
    remediation_plan: `${action.action} within ${action.sla_days} days (${action.severity}): ${fixOf(result)} and re-run the assessment.`,
    risk_rating: RISK[action.severity],
    scheduled_completion_date: due,
    status: 'Open',
    weakness_description:
      result.details ?? `${result.ksi_id} reported ${result.status}${controls.length > 0 ? ` for ${controls.join(', ')}` : ' and is not in the KSI catalog'}.`,
    weakness_name: `${result.ksi_id} ${title}`,
    weakness_source: result.source ?? ([context.source?.tool, context.source?.version].filter(Boolean).join(' ') || context.input.name),
  };
}

/** The day a result's weakness was seen: its observed_at, else the report's generated_at, else the run's time. */
export function detectionDate({ result }: AssessedResult, context: RunContext): string {
  return isoDate(result.observed_at ?? context.generatedAt ?? context.runAt);
}

/** Check statuses that ask for a fix; not-applicable, manual and the like do not. */
const TO_FIX = /^(fail|failed|warn|warning|error)$/i;

/** `fix MS.AAD.3.1v1, MS.AAD.3.2v1` from the checks that failed or errored, or a general instruction. */
function fixOf(result: AssessedResult['result']): string {
  const failing = [...new Set((result.checks ?? []).filter((c) => TO_FIX.test(c.status)).map((c) => c.id))];
  const listed = failing.length > 10 ? `${failing.slice(0, 10).join(', ')} and ${failing.length - 10} more` : failing.join(', ');
  return failing.length === 0 ? 'correct the finding' : `fix ${listed}`;
}

/** The canonical `poam.json` is this head, the rows in ksi_id order, then POAM_TAIL. */
export const POAM_HEAD = '{"rows":[';
export const POAM_TAIL = `],"schema":"${POAM_SCHEMA}"}`;

/** Writes POA&M rows; `preceded` when rows written elsewhere come before these. */
export class PoamRows {
  count = 0;

  constructor(
    private readonly sink: TextSink,
    private readonly context: RunContext,
    private readonly preceded = false,
  ) {}

  /** Adds the row of a FAIL or WARN result; PASS results have none. */
  add(item: AssessedResult): void {
    if (!needsPoam(item)) return;
    const row = JSON.stringify(poamRow(item, this.context));
    this.sink.write(this.count > 0 || this.preceded ? `,${row}` : row);
    this.count += 1;
  }
}
