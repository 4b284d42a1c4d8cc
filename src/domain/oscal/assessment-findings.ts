import type { HashedResult } from '../assessment/assessment';
import { needsPoam, poamRow, type PoamRow } from '../artifacts/poam';
import { formatDigest } from '../evidence/content-digest';
import type { Severity } from '../governance/severity';
import { evidenceResourceUuid, line, oscalDateTime, originsOf, subjectKey, SVC_OSCAL_NS, thisSystemUuid, type Json, type OscalRun } from './oscal-run';

/** FedRAMP's risk impact words (https://fedramp.gov facet values) for a governance severity. */
const IMPACT: Record<Severity, string> = { Critical: 'high', High: 'high', Medium: 'moderate', Low: 'low' };

/** The observation of a result: per subject, the KSI's evidence with this content hash (changed evidence is a new observation). */
export function observationUuid(run: OscalRun, { item, hash }: HashedResult): string {
  return run.uuid(subjectKey(run, `observation:${item.result.ksi_id}:${hash}`));
}

/** The risk of a failing KSI: per subject, the same while the KSI fails. */
export function riskUuid(run: OscalRun, ksiId: string): string {
  return run.uuid(subjectKey(run, `risk:${ksiId}`));
}

function titleOf({ item }: HashedResult): string {
  return line(`${item.result.ksi_id} ${item.result.title ?? item.definition?.title ?? 'unmapped KSI'}`);
}

function ksiProp(ksiId: string): Json {
  return { name: 'ksi-id', ns: SVC_OSCAL_NS, value: ksiId };
}

/** When the result's evidence was observed; the run's time when the result does not say. */
export function collectedAt(run: OscalRun, { item }: HashedResult): string {
  return item.result.observed_at === undefined ? run.generatedAt : oscalDateTime(item.result.observed_at);
}

/** One observation per KSI result: what the tool saw, tested on the system, pointing at the evidence entry. */
export function observation(run: OscalRun, entry: HashedResult): Json {
  const { item, hash } = entry;
  const { result } = item;
  const checks = result.checks ?? [];
  return {
    uuid: observationUuid(run, entry),
    title: titleOf(entry),
    description: `${result.ksi_id} reported ${result.status}${result.details ? `: ${result.details}` : '.'}${checks.length > 0 ? `\n\nChecks: ${checks.map((c) => `${c.id} ${c.status}`).join(', ')}.` : ''}`,
    props: [ksiProp(result.ksi_id), { name: 'content-hash', ns: SVC_OSCAL_NS, value: formatDigest(hash) }],
    methods: ['TEST'],
    origins: originsOf(run, item),
    subjects: [{ 'subject-uuid': thisSystemUuid(run), type: 'component' }],
    'relevant-evidence': [
      { href: `#${evidenceResourceUuid(run, entry)}`, description: `Evidence entry of ${result.ksi_id}, content hash ${formatDigest(hash)}.` },
    ],
    collected: collectedAt(run, entry),
  };
}

/** One finding per KSI result, on the control objective of the KSI's control: satisfied only when it passed. */
export function finding(run: OscalRun, entry: HashedResult): Json {
  const { result, definition } = entry.item;
  const satisfied = result.status === 'PASS';
  return {
    uuid: run.uuid(subjectKey(run, `finding:${result.ksi_id}`)),
    title: titleOf(entry),
    description: definition
      ? `${result.ksi_id} stands for ${definition.controls.join(', ')}; it reported ${result.status}.`
      : `${result.ksi_id} is outside the KSI catalog; it reported ${result.status}.`,
    props: [ksiProp(result.ksi_id)],
    target: {
      // A KSI outside the catalog names no control: the finding is about the KSI statement itself.
      type: definition ? 'objective-id' : 'statement-id',
      'target-id': definition ? `${definition.control}_obj` : result.ksi_id,
      status: { state: satisfied ? 'satisfied' : 'not-satisfied', reason: satisfied ? 'pass' : 'fail' },
    },
    'related-observations': [{ 'observation-uuid': observationUuid(run, entry) }],
    ...(needsPoam(entry.item) ? { 'related-risks': [{ 'risk-uuid': riskUuid(run, result.ksi_id) }] } : {}),
  };
}

/** The POA&M row of a FAIL or WARN result: it sets the risk's deadline (detection + SLA) and milestones. */
export function poamRowOf(run: OscalRun, { item }: HashedResult): PoamRow {
  return poamRow(item, run.context);
}

/** One open risk per FAIL or WARN result, due by the governance SLA, with its planned remediation. */
export function risk(run: OscalRun, entry: HashedResult): Json {
  const { item } = entry;
  const ksiId = item.result.ksi_id;
  const row = poamRowOf(run, entry);
  return {
    uuid: riskUuid(run, ksiId),
    title: titleOf(entry),
    description: row.weakness_description,
    statement: `${item.action.action} at ${item.action.severity} severity within ${item.action.sla_days} days of ${row.original_detection_date} (owner ${item.action.owner}).`,
    props: [ksiProp(ksiId), { name: 'poam-id', ns: SVC_OSCAL_NS, value: row.poam_id }],
    status: 'open',
    origins: originsOf(run, item),
    characterizations: [{ origin: originsOf(run, item)[0], facets: [{ name: 'impact', system: 'https://fedramp.gov', value: IMPACT[item.action.severity] }] }],
    deadline: oscalDateTime(row.scheduled_completion_date),
    remediations: [
      {
        uuid: run.uuid(subjectKey(run, `remediation:${ksiId}`)),
        lifecycle: 'planned',
        title: line(`Remediate ${ksiId}`),
        description: row.remediation_plan,
        tasks: row.milestones.map((m, i) => ({
          uuid: run.uuid(subjectKey(run, `milestone:${ksiId}:${i}`)),
          type: 'milestone',
          title: line(m.description),
          timing: { 'on-date': { date: oscalDateTime(m.due) } },
        })),
      },
    ],
    'related-observations': [{ 'observation-uuid': observationUuid(run, entry) }],
  };
}

/** The results that carry risks (and POA&M items): FAIL and WARN, read from run.results as they are asked for. */
export function* openResults(run: OscalRun): Generator<HashedResult, void, undefined> {
  for (const entry of run.results) if (needsPoam(entry.item)) yield entry;
}

/** Whether any result carries a risk (OSCAL lists may not be empty). */
export function hasOpenResults(run: Pick<OscalRun, 'results'>): boolean {
  return run.results.some(({ item }) => needsPoam(item));
}
