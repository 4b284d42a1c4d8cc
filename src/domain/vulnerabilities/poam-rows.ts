import type { Milestone, RiskRating } from '../artifacts/poam';
import { isoDate } from '../artifacts/run-context';
import type { TrackedPoamItem } from '../conmon/run-record';
import { InvalidInputError } from '../errors';
import type { Cr26Rules } from '../fedramp/cr26-rules';
import { addCadence } from '../fedramp/evidence-cadence';
import { compareIds } from '../governance/governance-policy';
import { DEFAULT_POLICY } from './evaluation-policy';
import type { StoredGroup } from './groups';
import { LIFECYCLE_RULES, type Evaluation, type GroupJudgment, type KevEntry, type NRating } from './lifecycle';
import { changeWords, nRatingChanges, type VulnerabilityGroup } from './vulnerability-reports';

/** The `json` form of `svc ir poam-export --source vulnerabilities`. */
export const VULNERABILITY_POAM_SCHEMA = 'svc.vulnerability-poam/v1';

/** One group of the vulnerability register judged at a time (the register's JudgedGroup). */
export interface JudgedVulnerability {
  group: VulnerabilityGroup & StoredGroup;
  judgment: GroupJudgment;
  kev?: KevEntry;
}

export interface VulnerabilityPoamContext {
  /** Id of the latest recorded run: the run the register's groups come from. */
  run: string;
  /** The rules the groups were judged by (VER-TFR-MAV's timeframe for groups with no other due date). */
  rules: Pick<Cr26Rules, 'rules' | 'info'>;
}

/**
 * The FedRAMP POA&M template's risk rating of an N-rating (VER-EVA-EPA): N5 (debilitating, more than one agency)
 * Critical, N4 High, N3 (disruptive, one agency) Moderate, N2 and N1 (narrow or minimal) Low; N0 (no adverse effect
 * likely, from CR26 2026.10.05.01) Low too, the template's lowest.
 */
export const N_RISK: Record<NRating, RiskRating> = { 5: 'Critical', 4: 'High', 3: 'Moderate', 2: 'Low', 1: 'Low', 0: 'Low' };

/** The controls a POA&M item of a scan finding names: RA-5 for a weakness, CM-6 for a failed configuration check. */
const CONTROLS: Record<StoredGroup['kind'], string[]> = { vulnerability: ['ra-5'], configuration: ['cm-6'] };

/** The POA&M items of judged groups, in poam_id (tracking id) order. */
export function vulnerabilityPoamItems(groups: readonly JudgedVulnerability[], context: VulnerabilityPoamContext): TrackedPoamItem[] {
  return groups.map((g) => vulnerabilityPoamItem(g, context)).sort((a, b) => compareIds(a.poam_id, b.poam_id));
}

/**
 * A group as a POA&M item (DESIGN §12.4: a convenience for agencies that keep POA&Ms, VER-AGM-MAP). The mapping
 * (docs/ir.md, "POA&M rows from vulnerabilities"):
 * - POA&M id: the tracking id; Weakness Source Identifier (`ksi_id`): the finding id; controls RA-5 (CM-6 for a failed
 *   configuration check); detector source: the sources; asset identifier: the resources;
 * - closed: remediated (no longer detected), false positive, or fully mitigated once evaluated and not in the CISA KEV
 *   catalog (a KEV entry stays open until remediated, VDR-TFR-KEV); accepted groups stay open, the acceptance and its
 *   rationale in the remediation plan;
 * - scheduled completion: the evaluation due date (or the KEV due date when earlier) until evaluated, then the
 *   VDR-TFR-PVR due date (or the KEV due date when earlier); a fully mitigated KEV entry its KEV due date; an N1 group
 *   with neither, the day VER-TFR-MAV would make it accepted;
 * - overdue: the judgment's; risk: N_RISK of the current N-rating, else of the scanner severity by the default policy.
 */
export function vulnerabilityPoamItem({ group, judgment, kev }: JudgedVulnerability, context: VulnerabilityPoamContext): TrackedPoamItem {
  const { due } = judgment;
  const evaluations = [...group.evaluations].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const fullyMitigated = judgment.mitigation?.extent === 'full' ? judgment.mitigation : undefined;
  const closedAt =
    judgment.state === 'false-positive'
      ? (evaluations.filter((e) => e.false_positive === true).at(-1)?.at ?? evaluations.at(-1)?.at ?? group.first_detected)
      : judgment.state === 'remediated'
        ? judgment.remediated_at
        : judgment.state === 'mitigated' && fullyMitigated !== undefined && judgment.evaluated_at !== undefined && due.kev === undefined
          ? fullyMitigated.at
          : undefined;
  const scheduled =
    judgment.evaluated_at === undefined
      ? earliest(due.evaluation.at, due.kev?.at)
      : ((fullyMitigated === undefined ? earliest(due.mitigation?.at, due.kev?.at) : due.kev?.at) ??
        due.mitigation?.at ??
        acceptanceDue(context.rules, judgment.evaluated_at));
  const detected = isoDate(group.first_detected);
  const lastChange = [group.first_detected, ...evaluations.map((e) => e.at), ...(judgment.accepted === undefined ? [] : [judgment.accepted.at])].reduce(
    (a, b) => (Date.parse(b) > Date.parse(a) ? b : a),
  );
  const person = evaluations.filter((e) => !e.by.startsWith('policy:')).at(-1);
  const item: TrackedPoamItem = {
    asset_identifier: group.resources.join(', '),
    controls: CONTROLS[group.kind],
    ksi_id: group.finding_id,
    last_run: context.run,
    last_status: judgment.remediated_at === undefined ? 'FAIL' : 'PASS',
    milestones: milestones(judgment, kev),
    original_detection_date: detected,
    overdue: closedAt === undefined && judgment.overdue.is,
    poam_id: group.tracking_id,
    point_of_contact: person?.by ?? '',
    remediation_plan: remediationPlan(judgment, evaluations, kev, scheduled),
    risk_rating: judgment.n === undefined ? N_RISK[severityN(group.severities)] : N_RISK[judgment.n],
    scheduled_completion_date: isoDate(scheduled),
    status: closedAt === undefined ? 'Open' : 'Closed',
    status_date: isoDate(closedAt ?? lastChange),
    weakness_description: description(group, judgment, kev),
    weakness_name: `${group.finding_id} ${group.title}`,
    weakness_source: group.sources.join(', '),
  };
  return closedAt === undefined ? item : { ...item, completion_date: isoDate(closedAt) };
}

/** What was found where, how it was evaluated, and what makes it urgent. */
function description(group: VulnerabilityGroup & StoredGroup, j: GroupJudgment, kev: KevEntry | undefined): string {
  const what = group.kind === 'configuration' ? 'A failed configuration check' : 'A vulnerability';
  const on = `${group.resources.length} ${group.resources.length === 1 ? 'resource' : 'resources'}`;
  const parts = [`${what} detected by ${group.sources.join(', ')} on ${on}; scanner severity ${group.severities.join(', ') || 'none'}.`];
  parts.push(
    j.evaluated_at === undefined
      ? 'Not evaluated yet.'
      : `Evaluated ${j.evaluated_at}: ${j.irv ? 'internet-reachable' : 'not internet-reachable'}, ${j.lev ? 'likely exploitable' : 'not likely exploitable'}, N${j.n}.`,
  );
  const { reductions, raises } = nRatingChanges(j);
  if (reductions.length > 0) parts.push(changeWords('N-rating reductions', reductions));
  if (raises.length > 0) parts.push(changeWords('N-rating raised', raises));
  if (kev !== undefined) parts.push(`In the CISA KEV catalog, due ${kev.dueDate}.`);
  if (j.incident.internet || j.incident.other)
    parts.push(`A FedRAMP reportable incident (${j.incident.internet ? LIFECYCLE_RULES.internetIncident : LIFECYCLE_RULES.otherIncident}).`);
  if (j.overdue.is) parts.push(`Overdue: ${j.overdue.reasons.join('; ')}.`);
  return parts.join(' ');
}

/** The disposition of a closed or accepted group, else what to do by when. */
function remediationPlan(j: GroupJudgment, evaluations: readonly Evaluation[], kev: KevEntry | undefined, scheduled: string): string {
  const kevStill = kev === undefined ? '' : ` Remediate by the CISA KEV due date ${kev.dueDate} (${LIFECYCLE_RULES.kev}).`;
  switch (j.state) {
    case 'false-positive': {
      const e = evaluations.filter((x) => x.false_positive === true).at(-1);
      return `False positive${e === undefined ? '' : ` (evaluated by ${e.by} on ${isoDate(e.at)}: ${e.reason})`}.`;
    }
    case 'remediated':
      return `Remediated: no longer detected from ${j.remediated_at}.`;
    case 'accepted':
      return `Risk accepted ${j.accepted!.by === 'decision' ? 'by decision' : `under ${LIFECYCLE_RULES.accept}`} on ${isoDate(j.accepted!.at)}: ${j.accepted!.rationale}.${kevStill}`;
    case 'detected':
      return `Evaluate by ${isoDate(j.due.evaluation.at)} (${LIFECYCLE_RULES.evaluate}): internet reachability, likely exploitability and N-rating; then mitigate or remediate within ${LIFECYCLE_RULES.mitigate}'s timeframe.${kevStill}`;
    default: {
      const full = j.mitigation?.extent === 'full' ? j.mitigation : undefined;
      if (full !== undefined) {
        const e = evaluations.find((x) => x.mitigated === 'full');
        return `Fully mitigated on ${isoDate(full.at)}${e === undefined ? '' : `: ${e.reason}`}.${kevStill}`;
      }
      const partial = j.mitigation?.extent === 'partial' ? 'Partially mitigated. ' : '';
      const next = j.next_reduction === undefined ? '' : ` Projected reduction to N${j.next_reduction.n} by ${isoDate(j.next_reduction.at)}.`;
      const plan =
        j.due.mitigation === undefined
          ? `N${j.n} has no ${LIFECYCLE_RULES.mitigate} timeframe: fully mitigate or remediate by ${isoDate(scheduled)}, else it is accepted (${LIFECYCLE_RULES.accept}).`
          : `Mitigate or remediate by ${isoDate(j.due.mitigation.at)} (${LIFECYCLE_RULES.mitigate}, N${j.n}).`;
      return `${partial}${plan}${next}${kevStill}`;
    }
  }
}

/** The due dates of the group, in time order. */
function milestones(j: GroupJudgment, kev: KevEntry | undefined): Milestone[] {
  const list: { at: string; description: string }[] = [
    {
      at: j.due.evaluation.at,
      description: `Evaluation: internet reachability, likely exploitability, N-rating (${LIFECYCLE_RULES.evaluate})${j.evaluated_at === undefined ? '' : `, done ${isoDate(j.evaluated_at)}`}`,
    },
  ];
  if (j.due.mitigation !== undefined) list.push({ at: j.due.mitigation.at, description: `N${j.n} mitigated or remediated (${LIFECYCLE_RULES.mitigate})` });
  if (j.next_reduction !== undefined) list.push({ at: j.next_reduction.at, description: `Projected reduction to N${j.next_reduction.n}` });
  if (kev !== undefined && j.due.kev !== undefined) list.push({ at: j.due.kev.at, description: `Remediated: CISA KEV due date (${LIFECYCLE_RULES.kev})` });
  return list.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).map((m) => ({ description: m.description, due: isoDate(m.at) }));
}

/** The N-rating the default policy gives the most severe scanner severity (`default_n` for one it does not list). */
function severityN(severities: readonly string[]): NRating {
  const ratings = severities.map((s) => DEFAULT_POLICY.n_by_severity[s.trim().toLowerCase()] ?? DEFAULT_POLICY.default_n);
  return (ratings.length === 0 ? DEFAULT_POLICY.default_n : Math.max(...ratings)) as NRating;
}

/** When VER-TFR-MAV would make a group evaluated at `evaluatedAt` accepted. */
function acceptanceDue(rules: Pick<Cr26Rules, 'rules' | 'info'>, evaluatedAt: string): string {
  const t = rules.rules.find((r) => r.id === LIFECYCLE_RULES.accept)?.timeframe;
  const num = t?.num ?? t?.max;
  if (t === undefined || num === undefined) {
    throw new InvalidInputError(
      'no-timeframe',
      `CR26 ${rules.info.version}: ${LIFECYCLE_RULES.accept} gives no timeframe, so svc cannot date the POA&M item of an N1 vulnerability; use a release that gives it (SVC_FEDRAMP_RULES)`,
    );
  }
  return new Date(addCadence(Date.parse(evaluatedAt), { unit: t.unit, num })).toISOString();
}

function earliest(a: string, b: string | undefined): string;
function earliest(a: string | undefined, b: string | undefined): string | undefined;
function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}
