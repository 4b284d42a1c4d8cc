import { GRAPH_CLOUDS, type GraphCloud } from './graph-cloud';

/**
 * Which identity and security features each Microsoft 365 / Entra environment offers, as Microsoft's own
 * documentation states them. Sources (read for this table; re-check them before relying on an answer):
 *  - entra-feature-availability: "Microsoft Entra feature availability" (learn.microsoft.com/entra/identity/
 *    authentication/feature-availability), the Azure Government (GCC High, DoD) tables, page dated 2023-04-13.
 *  - graph-national-clouds: "Microsoft Graph national cloud deployments" (learn.microsoft.com/graph/deployments):
 *    sign-in and Graph hosts per cloud.
 *  - m365-gov-service-description: "Microsoft 365 Government" service descriptions (learn.microsoft.com/office365/
 *    servicedescriptions/office-365-platform-service-description/office-365-us-government): GCC tenants use the
 *    commercial Entra ID and Graph; GCC High and DoD use Azure Government.
 *  - intune-gov: "Microsoft Intune for US Government GCC High and DoD service description".
 *  - mdca-gov: "Microsoft Defender for Cloud Apps for US Government offerings" (GCC, GCC High, DoD).
 *  - copilot-gov: "Understand Microsoft U.S. government cloud environments for Microsoft 365 and Microsoft 365 Copilot".
 * `true` offered, `false` not offered, `null` the sources above do not settle it (reported as gap 'unconfirmed').
 * GCC's Entra features are the commercial ones: a GCC tenant signs in through the global Entra ID.
 */
export const BOUNDARY_AS_OF = '2026-11-22';

export const BOUNDARY_ENVIRONMENTS = ['Commercial', 'GCC', 'GCCHigh', 'DoD'] as const;
export type BoundaryEnvironment = (typeof BOUNDARY_ENVIRONMENTS)[number];

/** The Graph cloud each environment signs in to and calls. */
export const ENVIRONMENT_CLOUD: Readonly<Record<BoundaryEnvironment, GraphCloud>> = { Commercial: 'Public', GCC: 'Public', GCCHigh: 'USGov', DoD: 'USGovDoD' };

export type EndpointName = 'authority' | 'graph';

export interface BoundaryFeature {
  id: string;
  name: string;
  offered: Readonly<Record<BoundaryEnvironment, boolean | null>>;
  /** Endpoints the feature is used through; any of them unreachable makes the feature unreachable. */
  endpoints: readonly EndpointName[];
  source: string;
  note?: string;
}

const ALL = { Commercial: true, GCC: true, GCCHigh: true, DoD: true } as const;
const COMMERCIAL_ONLY = { Commercial: true, GCC: true, GCCHigh: false, DoD: false } as const;
const ID = ['authority', 'graph'] as const;

export const BOUNDARY_FEATURES: readonly BoundaryFeature[] = [
  { id: 'conditional-access', name: 'Conditional Access', offered: ALL, endpoints: ID, source: 'entra-feature-availability' },
  { id: 'multifactor-authentication', name: 'Multifactor authentication', offered: ALL, endpoints: ID, source: 'entra-feature-availability' },
  {
    id: 'passwordless-authentication',
    name: 'Passwordless (Windows Hello for Business, Microsoft Authenticator, FIDO2 security keys)',
    offered: ALL,
    endpoints: ID,
    source: 'entra-feature-availability',
  },
  { id: 'certificate-based-authentication', name: 'Certificate-based authentication', offered: ALL, endpoints: ID, source: 'entra-feature-availability' },
  {
    id: 'privileged-identity-management',
    name: 'Privileged Identity Management (just-in-time access)',
    offered: ALL,
    endpoints: ID,
    source: 'entra-feature-availability',
  },
  { id: 'access-reviews', name: 'Access certifications and reviews', offered: ALL, endpoints: ID, source: 'entra-feature-availability' },
  { id: 'entitlement-management', name: 'Entitlement management', offered: ALL, endpoints: ID, source: 'entra-feature-availability' },
  {
    id: 'identity-protection',
    name: 'Microsoft Entra ID Protection (risky users, risk detections, SIEM connectivity)',
    offered: ALL,
    endpoints: ID,
    source: 'entra-feature-availability',
    note: 'In Azure Government the "Microsoft Entra threat intelligence" risk detection is not available.',
  },
  {
    id: 'authentication-methods-registration-report',
    name: 'Authentication methods registration report (advanced security and usage reports)',
    offered: ALL,
    endpoints: ID,
    source: 'entra-feature-availability',
  },
  { id: 'my-staff', name: 'Delegated user management portal (My Staff)', offered: COMMERCIAL_ONLY, endpoints: ID, source: 'entra-feature-availability' },
  {
    id: 'lifecycle-workflows',
    name: 'Microsoft Entra ID Governance lifecycle workflows',
    offered: COMMERCIAL_ONLY,
    endpoints: ID,
    source: 'entra-feature-availability',
    note: 'The source says Microsoft Entra ID Governance is not yet available in the US government clouds.',
  },
  { id: 'defender-for-cloud-apps', name: 'Microsoft Defender for Cloud Apps', offered: ALL, endpoints: ['authority'], source: 'mdca-gov' },
  { id: 'intune', name: 'Microsoft Intune', offered: ALL, endpoints: ['authority'], source: 'intune-gov' },
  {
    id: 'purview-audit-premium',
    name: 'Microsoft Purview Audit (Premium)',
    offered: { Commercial: true, GCC: null, GCCHigh: null, DoD: null },
    endpoints: ['authority'],
    source: 'm365-gov-service-description',
    note: 'Check the Microsoft Purview service description for your government plan.',
  },
  {
    id: 'microsoft-365-copilot',
    name: 'Microsoft 365 Copilot',
    offered: { Commercial: true, GCC: true, GCCHigh: null, DoD: null },
    endpoints: ['authority', 'graph'],
    source: 'copilot-gov',
    note: 'Government availability changes by release; check the Copilot government page for GCC High and DoD.',
  },
];

export const BOUNDARY_SOURCES: Readonly<Record<string, string>> = {
  'entra-feature-availability': 'https://learn.microsoft.com/entra/identity/authentication/feature-availability',
  'graph-national-clouds': 'https://learn.microsoft.com/graph/deployments',
  'm365-gov-service-description':
    'https://learn.microsoft.com/office365/servicedescriptions/office-365-platform-service-description/office-365-us-government/office-365-us-government',
  'intune-gov': 'https://learn.microsoft.com/mem/intune/fundamentals/intune-govt-service-description',
  'mdca-gov': 'https://learn.microsoft.com/defender-cloud-apps/gov-moderate-and-high',
  'copilot-gov': 'https://learn.microsoft.com/microsoft-365/copilot/gov-overview',
};

export interface ProbeTarget {
  name: EndpointName;
  url: string;
}

/** What one probe of an endpoint found: any HTTP answer is reachable; `reachable: null` means not probed. */
export interface EndpointProbe {
  name: string;
  url: string;
  reachable: boolean | null;
  status: number | null;
  latency_ms: number | null;
  error?: string;
}

export function isBoundaryEnvironment(value: unknown): value is BoundaryEnvironment {
  return typeof value === 'string' && (BOUNDARY_ENVIRONMENTS as readonly string[]).includes(value);
}

/** The sign-in and Graph endpoints of an environment, probed with a plain request (any HTTP answer counts). */
export function boundaryEndpoints(environment: BoundaryEnvironment): ProbeTarget[] {
  const hosts = GRAPH_CLOUDS[ENVIRONMENT_CLOUD[environment]];
  return [
    { name: 'authority', url: `https://${hosts.authority_host}/common/v2.0/.well-known/openid-configuration` },
    { name: 'graph', url: `https://${hosts.graph_host}/v1.0/$metadata` },
  ];
}

export interface FeatureAvailability {
  id: string;
  name: string;
  offered: boolean | null;
  /** false when an endpoint the feature needs was probed and did not answer; null when not probed. */
  reachable: boolean | null;
  source: string;
  note?: string;
}

export function featureAvailability(environment: BoundaryEnvironment, probes: readonly EndpointProbe[] = []): FeatureAvailability[] {
  return BOUNDARY_FEATURES.map((f) => ({
    id: f.id,
    name: f.name,
    offered: f.offered[environment],
    reachable: reachability(f, probes),
    source: BOUNDARY_SOURCES[f.source],
    ...(f.note ? { note: f.note } : {}),
  }));
}

export type GapReason = 'unknown-feature' | 'not-offered' | 'unconfirmed' | 'unreachable';

export interface BoundaryGap {
  feature: string;
  reason: GapReason;
  detail: string;
}

/**
 * Required features the environment lacks, in the order required: a feature svc does not know (unknown-feature),
 * one the sources say is not offered (not-offered) or do not settle (unconfirmed), or one whose endpoint the
 * probe found unreachable (unreachable). Duplicates in `required` are reported once.
 */
export function boundaryGaps(environment: BoundaryEnvironment, required: readonly string[], probes: readonly EndpointProbe[] = []): BoundaryGap[] {
  const gaps: BoundaryGap[] = [];
  for (const id of new Set(required)) {
    const feature = BOUNDARY_FEATURES.find((f) => f.id === id);
    if (feature === undefined) {
      gaps.push({
        feature: id,
        reason: 'unknown-feature',
        detail: `svc has no availability data for "${id}"; known: ${BOUNDARY_FEATURES.map((f) => f.id).join(', ')}`,
      });
      continue;
    }
    const offered = feature.offered[environment];
    if (offered === false)
      gaps.push({
        feature: id,
        reason: 'not-offered',
        detail: `${feature.name} is not offered in ${environment} (${BOUNDARY_SOURCES[feature.source]})${feature.note ? `; ${feature.note}` : ''}`,
      });
    else if (offered === null)
      gaps.push({
        feature: id,
        reason: 'unconfirmed',
        detail: `${feature.name} in ${environment}: the sources svc uses do not confirm it (${BOUNDARY_SOURCES[feature.source]})${feature.note ? `; ${feature.note}` : ''}`,
      });
    else if (reachability(feature, probes) === false) {
      const down = probes
        .filter((p) => feature.endpoints.includes(p.name as EndpointName) && p.reachable === false)
        .map((p) => `${p.name} ${p.url}${p.error ? ` (${p.error})` : ''}`);
      gaps.push({ feature: id, reason: 'unreachable', detail: `${feature.name}: the last probe could not reach ${down.join(', ')}` });
    }
  }
  return gaps;
}

function reachability(feature: BoundaryFeature, probes: readonly EndpointProbe[]): boolean | null {
  const relevant = probes.filter((p) => feature.endpoints.includes(p.name as EndpointName));
  if (relevant.length === 0 || relevant.every((p) => p.reachable === null)) return null;
  return !relevant.some((p) => p.reachable === false);
}
