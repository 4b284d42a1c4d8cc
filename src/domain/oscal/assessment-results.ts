import { lazyArray } from '../encoding/json-chunks';
import { formatDigest } from '../evidence/content-digest';
import { collectedAt, finding, hasOpenResults, observation, openResults, risk } from './assessment-findings';
import {
  backMatter,
  companionResource,
  line,
  metadata,
  reviewedControls,
  runKey,
  SVC_OSCAL_NS,
  systemName,
  toolComponents,
  type Json,
  type OscalRun,
} from './oscal-run';

/**
 * An OSCAL Assessment Results document (the SAR) of the run: one result holding an observation and a finding
 * per KSI, and an open risk, due by the governance SLA, per FAIL or WARN. Those lists and the back-matter are
 * LazyArrays (write the document with jsonChunks): nothing the size of the run is held but run.results.
 */
export function buildSar(run: OscalRun): Json {
  const system = systemName(run);
  const plan = companionResource(run, 'assessment-plan', line(`Security Assessment Plan: ${system}`), 'assessment-plan.json', 'application/oscal.ap+json');
  // The result spans the evidence times and the run's own time (ISO-8601 UTC text compares as time).
  let start = run.generatedAt;
  let end = run.generatedAt;
  for (const entry of run.results) {
    const time = collectedAt(run, entry);
    if (time < start) start = time;
    if (time > end) end = time;
  }
  const observations = lazyArray(function* () {
    for (const entry of run.results) yield observation(run, entry);
  });
  const risks = lazyArray(function* () {
    for (const entry of openResults(run)) yield risk(run, entry);
  });
  const findings = lazyArray(function* () {
    for (const entry of run.results) yield finding(run, entry);
  });
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
          ...(run.results.length > 0 ? { observations } : {}),
          ...(hasOpenResults(run) ? { risks } : {}),
          ...(run.results.length > 0 ? { findings } : {}),
        },
      ],
      'back-matter': backMatter(run, [plan]),
    },
  };
}
