/**
 * The Microsoft Graph national clouds svc can talk to, with the sign-in (authority) host and the Graph host of
 * each. Source: Microsoft Graph "National cloud deployments" (learn.microsoft.com/graph/deployments).
 * GCC tenants sign in and call Graph in the global (Public) cloud; GCC High uses USGov; DoD uses USGovDoD.
 */
export const GRAPH_CLOUD_NAMES = ['Public', 'USGov', 'USGovDoD'] as const;
export type GraphCloud = (typeof GRAPH_CLOUD_NAMES)[number];

export interface GraphCloudHosts {
  authority_host: string;
  graph_host: string;
}

export const GRAPH_CLOUDS: Readonly<Record<GraphCloud, GraphCloudHosts>> = {
  Public: { authority_host: 'login.microsoftonline.com', graph_host: 'graph.microsoft.com' },
  USGov: { authority_host: 'login.microsoftonline.us', graph_host: 'graph.microsoft.us' },
  USGovDoD: { authority_host: 'login.microsoftonline.us', graph_host: 'dod-graph.microsoft.us' },
};

export function isGraphCloud(value: unknown): value is GraphCloud {
  return typeof value === 'string' && (GRAPH_CLOUD_NAMES as readonly string[]).includes(value);
}
