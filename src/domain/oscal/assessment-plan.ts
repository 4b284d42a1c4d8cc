import {
  backMatter,
  companionResource,
  line,
  metadata,
  reviewedControls,
  runKey,
  subjectKey,
  systemName,
  thisSystemUuid,
  toolComponents,
  type Json,
  type OscalRun,
} from './oscal-run';
import { plural } from '../encoding/plural';

/** The plan's one activity, as the SAP states it and the Word plan and report describe it. */
export const AUTOMATED_EVALUATION = {
  title: 'Automated KSI evaluation',
  /** NIST SP 800-53A assessment method. */
  method: 'TEST',
  description: (system: string) =>
    `Run the assessment tools against ${system}, normalize their results into Key Security Indicator results, and hash each result as evidence.`,
} as const;

/**
 * An OSCAL Assessment Plan (the SAP) of the run: automated testing of the system by the run's tools, the controls
 * its KSIs stand for, and one recurring task per validation frequency (FedRAMP 20x re-validates machine-checked
 * KSIs every few days).
 */
export function buildSap(run: OscalRun): Json {
  const system = systemName(run);
  const ssp = companionResource(
    run,
    'system-security-plan',
    line(`System Security Plan: ${system}`),
    'system-security-plan.json',
    'application/oscal.ssp+json',
  );
  const activity = run.uuid(subjectKey(run, 'activity:automated-ksi-evaluation'));
  const subjects = [{ type: 'component', 'include-subjects': [{ 'subject-uuid': thisSystemUuid(run), type: 'component' }] }];
  return {
    'assessment-plan': {
      uuid: run.uuid(runKey(run, 'assessment-plan')),
      metadata: metadata(run, `Security Assessment Plan: ${system}`),
      'import-ssp': { href: `#${ssp.uuid as string}` },
      'local-definitions': {
        components: toolComponents(run),
        activities: [
          {
            uuid: activity,
            title: AUTOMATED_EVALUATION.title,
            description: AUTOMATED_EVALUATION.description(system),
            props: [{ name: 'method', value: AUTOMATED_EVALUATION.method }],
          },
        ],
      },
      'reviewed-controls': reviewedControls(run),
      'assessment-subjects': subjects,
      tasks: frequencies(run).map(([days, ksis]) => ({
        uuid: run.uuid(subjectKey(run, `task:every-${days}-days`)),
        type: 'action',
        title: line(revalidationTask(days, ksis)),
        description: ksis.join(', '),
        timing: { 'at-frequency': { period: days, unit: 'days' } },
        'associated-activities': [{ 'activity-uuid': activity, subjects }],
      })),
      'back-matter': backMatter(run, [ssp]),
    },
  };
}

/** Mapped KSIs grouped by validation frequency, most frequent first: the plan's recurring tasks. */
export function frequencies(run: OscalRun): [number, string[]][] {
  const groups = new Map<number, string[]>();
  for (const { item } of run.results) {
    if (!item.definition) continue;
    const list = groups.get(item.definition.frequency_days) ?? [];
    list.push(item.result.ksi_id);
    groups.set(item.definition.frequency_days, list);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b);
}

/** `Re-validate 2 KSIs every 3 days`: the title of one recurring task. */
export function revalidationTask(days: number, ksis: readonly string[]): string {
  return `Re-validate ${plural(ksis.length, 'KSI')} every ${days} days`;
}
