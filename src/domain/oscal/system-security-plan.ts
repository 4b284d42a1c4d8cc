import type { HashedResult } from '../assessment/assessment';
import { implementationStatus, narrativeLine, type ImplementationStatus } from '../artifacts/ssp-narrative';
import { poamId } from '../artifacts/poam';
import {
  backMatter,
  evidenceResourceUuid,
  FEDRAMP_MODERATE_PROFILE,
  line,
  metadata,
  ownerPartyUuid,
  runKey,
  subjectKey,
  systemName,
  thisSystemUuid,
  touchedControls,
  type Json,
  type OscalRun,
} from './oscal-run';
import { plural } from '../encoding/plural';

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
        'implemented-requirements': touchedControls(run).map(({ control, covered }) => implementedRequirement(run, control, covered)),
      },
      'back-matter': backMatter(run),
    },
  };
}

function implementedRequirement(run: OscalRun, control: string, covered: readonly HashedResult[]): Json {
  const statement = controlStatement(run, control, covered);
  return {
    uuid: run.uuid(subjectKey(run, `implemented-requirement:${control}`)),
    'control-id': control,
    props: [statement.prop],
    links: evidenceLinks(covered, (entry) => evidenceResourceUuid(run, entry)),
    'by-components': [
      {
        ...byComponent(statement, thisSystemUuid(run), run.uuid(subjectKey(run, `by-component:${control}`))),
        'responsible-roles': [{ 'role-id': 'control-owner', 'party-uuids': [...new Set(covered.map(({ item }) => ownerPartyUuid(run, item.action.owner)))] }],
      },
    ],
  };
}

/** What the run says about one control: its implementation status (with why, when not implemented) and narrative. */
export interface ControlStatement {
  status: ImplementationStatus;
  remarks?: string;
  /** FedRAMP's form: a prop on the implemented-requirement. */
  prop: Json;
  description: string;
}

export function controlStatement(run: OscalRun, control: string, covered: readonly HashedResult[]): ControlStatement {
  const status = implementationStatus(covered.map((c) => c.item));
  const remarks = statusRemarks(status, covered);
  const title = run.catalog.controlTitle(control);
  return {
    status,
    ...(remarks ? { remarks } : {}),
    prop: { name: 'implementation-status', value: status, ...(remarks ? { remarks } : {}) },
    description: [
      `${title ? `${control} ${title}` : control}: covered by ${plural(covered.length, 'KSI')}.`,
      '',
      ...covered.map(({ item, hash }) => narrativeLine(item, hash)),
    ].join('\n'),
  };
}

/** OSCAL 1.1's form: the statement as one component's by-component, with its implementation-status. */
export function byComponent(statement: ControlStatement, componentUuid: string, uuid: string): Json {
  return {
    'component-uuid': componentUuid,
    uuid,
    description: statement.description,
    'implementation-status': { state: statement.status, ...(statement.remarks ? { remarks: statement.remarks } : {}) },
  };
}

/** Links from a requirement to the evidence entries of the KSIs covering it. */
export function evidenceLinks(covered: readonly HashedResult[], resourceUuid: (entry: HashedResult) => string): Json[] {
  return covered.map((entry) => ({ href: `#${resourceUuid(entry)}`, rel: 'reference', text: line(`Evidence of ${entry.item.result.ksi_id}`) }));
}

/** Why a control is not fully implemented: the KSIs that are not PASS and their POA&M items. */
function statusRemarks(status: ImplementationStatus, covered: readonly HashedResult[]): string | undefined {
  if (status === 'implemented') return undefined;
  const open = covered.filter(({ item }) => item.result.status !== 'PASS');
  return open
    .map(
      ({ item }) =>
        `${item.result.ksi_id} is ${item.result.status}: ${item.action.action} within ${item.action.sla_days} days as ${poamId(item.result.ksi_id)}.`,
    )
    .join(' ');
}
