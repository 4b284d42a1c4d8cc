import { formatDigest } from '../evidence/content-digest';
import { collectedAt, finding, observation, openResults, risk } from './assessment-findings';
import { backMatter, companionResource, line, metadata, reviewedControls, runKey, SVC_OSCAL_NS, systemName, toolComponents, type Json, type OscalRun } from './oscal-run';

/**
 * An OSCAL Assessment Results document (the SAR) of the run: one result holding an observation and a finding
 * per KSI, and an open risk, due by the governance SLA, per FAIL or WARN.
 */
export function buildSar(run: OscalRun): Json {
  const system = systemName(run);
  const plan = companionResource(run, 'assessment-plan', line(`Security Assessment Plan: ${system}`), 'assessment-plan.json', 'application/oscal.ap+json');
  const times = run.results.map((r) => collectedAt(run, r)).sort();
  const start = times[0] !== undefined && times[0] < run.generatedAt ? times[0] : run.generatedAt;
  const end = times.at(-1) !== undefined && (times.at(-1) as string) > run.generatedAt ? (times.at(-1) as string) : run.generatedAt;
  const risks = openResults(run).map((r) => risk(run, r));
  return {
    'assessment-results': {
      uuid: run.uuid(runKey(run, 'assessment-results')),
      metadata: metadata(run, `Security Assessment Results: ${system}`),
      'import-ap': { href: `#${plan.uuid as string}` },
      results: [
        {
          uuid: run.uuid(runKey(run, 'result')),
          title: line(`Automated KSI assessment of ${run.context.input.name}`),
          description: `${run.results.length} Key Security Indicator results from ${run.context.input.name} (${formatDigest(run.context.input.sha256)}), evaluated by ${run.tool.name} ${run.tool.version}.`,
          start,
          end,
          props: [{ name: 'merkle-root', ns: SVC_OSCAL_NS, value: formatDigest(run.merkleRoot) }],
          'local-definitions': { components: toolComponents(run) },
          'reviewed-controls': reviewedControls(run),
          ...(run.results.length > 0 ? { observations: run.results.map((r) => observation(run, r)) } : {}),
          ...(risks.length > 0 ? { risks } : {}),
          ...(run.results.length > 0 ? { findings: run.results.map((r) => finding(run, r)) } : {}),
        },
      ],
      'back-matter': backMatter(run, [plan]),
    },
  };
}
