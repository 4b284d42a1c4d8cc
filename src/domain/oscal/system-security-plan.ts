import type { HashedResult } from '../assessment/assessment';
import { controlsTouched, implementationStatus, narrativeLine, type ImplementationStatus } from '../artifacts/ssp-narrative';
import { poamId } from '../artifacts/poam';
import {
  backMatter,
  evidenceResourceUuid,
  FEDRAMP_MODERATE_PROFILE,
  line,
  metadata,
  ownerPartyUuid,
  runKey,
  systemName,
  thisSystemUuid,
  type Json,
  type OscalRun,
} from './oscal-run';

/**
 * An OSCAL System Security Plan of the run: the cloud service as one `this-system` component, one
 * implemented-requirement per control the run's KSIs touch, with the narrative, the implementation status
 * (FedRAMP's `implementation-status` prop and OSCAL's by-component form) and links to the evidence entries.
 */
export function buildSsp(run: OscalRun): Json {
  const system = systemName(run);
  const moderate = 'fips-199-moderate';
  return {
    'system-security-plan': {
      uuid: run.uuid(runKey(run, 'system-security-plan')),
      metadata: metadata(run, `System Security Plan: ${system}`),
      'import-profile': { href: FEDRAMP_MODERATE_PROFILE },
      'system-characteristics': {
        'system-ids': [{ 'identifier-type': 'https://ietf.org/rfc/rfc4122', id: run.uuid(`system:${system}`) }],
        'system-name': system,
        description: `The cloud service offering ${system}, whose FedRAMP 20x Key Security Indicators ${run.tool.name} evaluated from ${run.context.input.name}.`,
        'security-sensitivity-level': moderate,
        'system-information': {
          'information-types': [
            {
              uuid: run.uuid(`information-type:${system}`),
              title: 'Information processed by the cloud service offering',
              description: 'Federal information the service stores and processes, categorized at the FedRAMP Moderate baseline the KSI catalog comes from.',
              'confidentiality-impact': { base: moderate },
              'integrity-impact': { base: moderate },
              'availability-impact': { base: moderate },
            },
          ],
        },
        'security-impact-level': {
          'security-objective-confidentiality': moderate,
          'security-objective-integrity': moderate,
          'security-objective-availability': moderate,
        },
        status: { state: 'operational' },
        'authorization-boundary': { description: `The authorization boundary of ${system} as assessed by the tools named in the evidence.` },
      },
      'system-implementation': {
        users: [{ uuid: run.uuid(`user:control-owner:${system}`), title: 'Control owner', 'role-ids': ['control-owner'] }],
        components: [
          {
            uuid: thisSystemUuid(run),
            type: 'this-system',
            title: system,
            description: `The whole of ${system}.`,
            status: { state: 'operational' },
          },
        ],
      },
      'control-implementation': {
        description: `Controls touched by the Key Security Indicators of ${run.context.input.name}; each statement lists the KSIs that cover the control, their status and evidence.`,
        'implemented-requirements': controlsTouched(run.results, run.catalog).map(({ control, covered }) => implementedRequirement(run, control, covered)),
      },
      'back-matter': backMatter(run),
    },
  };
}

function implementedRequirement(run: OscalRun, control: string, covered: readonly HashedResult[]): Json {
  const status = implementationStatus(covered.map((c) => c.item));
  const remarks = statusRemarks(status, covered);
  const title = run.catalog.controlTitle(control);
  return {
    uuid: run.uuid(runKey(run, `implemented-requirement:${control}`)),
    'control-id': control,
    props: [{ name: 'implementation-status', value: status, ...(remarks ? { remarks } : {}) }],
    links: covered.map(({ item }) => ({ href: `#${evidenceResourceUuid(run, item.result.ksi_id)}`, rel: 'reference', text: line(`Evidence of ${item.result.ksi_id}`) })),
    'by-components': [
      {
        'component-uuid': thisSystemUuid(run),
        uuid: run.uuid(runKey(run, `by-component:${control}`)),
        description: [`${title ? `${control} ${title}` : control}: covered by ${covered.length} KSI${covered.length === 1 ? '' : 's'}.`, '', ...covered.map(({ item, hash }) => narrativeLine(item, hash))].join('\n'),
        'implementation-status': { state: status, ...(remarks ? { remarks } : {}) },
        'responsible-roles': [{ 'role-id': 'control-owner', 'party-uuids': [...new Set(covered.map(({ item }) => ownerPartyUuid(run, item.action.owner)))] }],
      },
    ],
  };
}

/** Why a control is not fully implemented: the KSIs that are not PASS and their POA&M items. */
function statusRemarks(status: ImplementationStatus, covered: readonly HashedResult[]): string | undefined {
  if (status === 'implemented') return undefined;
  const open = covered.filter(({ item }) => item.result.status !== 'PASS');
  return open.map(({ item }) => `${item.result.ksi_id} is ${item.result.status}: ${item.action.action} within ${item.action.sla_days} days as ${poamId(item.result.ksi_id)}.`).join(' ');
}
