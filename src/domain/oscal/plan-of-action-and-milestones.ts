import type { HashedResult } from '../assessment/assessment';
import { lazyArray } from '../encoding/json-chunks';
import { InvalidInputError } from '../errors';
import { hasOpenResults, observation, observationUuid, openResults, poamRowOf, risk, riskUuid } from './assessment-findings';
import {
  backMatter,
  companionResource,
  line,
  metadata,
  originsOf,
  runKey,
  subjectKey,
  systemName,
  toolComponents,
  type Json,
  type OscalRun,
} from './oscal-run';

/** FedRAMP's namespace, for the POAM-ID prop its POA&M template keys rows by. */
const FEDRAMP_NS = 'https://fedramp.gov/ns/oscal';

/**
 * An OSCAL POA&M of the run: one item per FAIL or WARN result (the rows of poam.json), each with its observation
 * and its open risk, whose remediation carries the row's milestones. OSCAL requires at least one item. The three
 * lists and the back-matter are LazyArrays (write the document with jsonChunks).
 */
export function buildOscalPoam(run: OscalRun): Json {
  if (!hasOpenResults(run)) {
    throw new InvalidInputError(
      'empty-poam',
      `${run.context.input.name}: every result is PASS, so there is no POA&M item to write; an OSCAL POA&M needs at least one`,
    );
  }
  const system = systemName(run);
  const ssp = companionResource(
    run,
    'system-security-plan',
    line(`System Security Plan: ${system}`),
    'system-security-plan.json',
    'application/oscal.ssp+json',
  );
  return {
    'plan-of-action-and-milestones': {
      uuid: run.uuid(runKey(run, 'plan-of-action-and-milestones')),
      metadata: metadata(run, `Plan of Action and Milestones: ${system}`),
      'import-ssp': { href: `#${ssp.uuid as string}` },
      'system-id': { 'identifier-type': 'https://ietf.org/rfc/rfc4122', id: run.uuid(`system:${system}`) },
      'local-definitions': { components: toolComponents(run) },
      observations: lazyArray(function* () {
        for (const entry of openResults(run)) yield observation(run, entry);
      }),
      risks: lazyArray(function* () {
        for (const entry of openResults(run)) yield risk(run, entry);
      }),
      'poam-items': lazyArray(function* () {
        for (const entry of openResults(run)) yield poamItem(run, entry);
      }),
      'back-matter': backMatter(run, [ssp]),
    },
  };
}

/** The item of one FAIL or WARN result, keyed by its poam.json row's POAM-ID. */
function poamItem(run: OscalRun, entry: HashedResult): Json {
  const row = poamRowOf(run, entry);
  const ksiId = entry.item.result.ksi_id;
  return {
    uuid: run.uuid(subjectKey(run, `poam-item:${ksiId}`)),
    title: line(row.weakness_name),
    description: row.weakness_description,
    props: [{ name: 'POAM-ID', ns: FEDRAMP_NS, value: row.poam_id }],
    origins: originsOf(run, entry.item),
    'related-observations': [{ 'observation-uuid': observationUuid(run, entry) }],
    'related-risks': [{ 'risk-uuid': riskUuid(run, ksiId) }],
  };
}
