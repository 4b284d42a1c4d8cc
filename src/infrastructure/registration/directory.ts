/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import type { DependencyContainer } from 'tsyringe';
import { ConfigError } from '../../domain/errors';
import { BOUNDARY_PROBE } from '../../ports/boundary-probe';
import { DIRECTORY_SERVICE } from '../../ports/directory-service';
import { GRAPH_SETTINGS } from '../../ports/graph-settings';
import { ORG_PATH_DIRECTORY } from '../../ports/org-path-directory';
import { lazy, type RegistrationContext } from './lazy';

/**
 * Microsoft Graph (svc-api's directory routes). GRAPH_SETTINGS is registered by the API's composition root; with
 * graph.export set the adapters read that file offline, else MSAL + Graph (msal-node loads on first use).
 */
export function registerDirectory(container: DependencyContainer, { env }: RegistrationContext): void {
  const graph = () => require('../directory/graph-adapters') as typeof import('../directory/graph-adapters');
  const settings = (c: DependencyContainer) => {
    if (!c.isRegistered(GRAPH_SETTINGS, true)) {
      throw new ConfigError(
        'graph-not-configured',
        'the API config has no "graph" section; add one with the tenant, app and credential, or with "export" for offline mode (docs/graph.md)',
      );
    }
    return c.resolve(GRAPH_SETTINGS);
  };
  lazy(container, DIRECTORY_SERVICE, graph, (m, c) => m.createDirectoryService(settings(c), { env }), { refuses: true });
  lazy(container, ORG_PATH_DIRECTORY, graph, (m, c) => m.createOrgPathDirectory(settings(c), { env }), { refuses: true });
  lazy(container, BOUNDARY_PROBE, graph, (m, c) => m.createBoundaryProbe(c.isRegistered(GRAPH_SETTINGS, true) ? c.resolve(GRAPH_SETTINGS) : undefined), {
    refuses: true,
  });
}
