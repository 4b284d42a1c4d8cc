import 'reflect-metadata';
import { container as root, Lifecycle, type DependencyContainer } from 'tsyringe';
import { CurrentRun } from '../../application/auditor/current-run';
import { registerAdapters } from '../../infrastructure/register-adapters';
import { GRAPH_SETTINGS } from '../../ports/graph-settings';
import type { ApiConfig } from './config/api-config';

export type ContainerOverrides = (container: DependencyContainer) => void;

/**
 * The API's composition root: the CLI's production adapters (the store from the config's `store`, else SVC_STORE),
 * one CurrentRun for the process, then any test overrides.
 */
export function buildApiContainer(config: ApiConfig, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}, overrides?: ContainerOverrides): DependencyContainer {
  const env = { ...(options.env ?? process.env), ...(config.store !== undefined ? { SVC_STORE: config.store } : {}) };
  const container = registerAdapters(root.createChildContainer(), { env, cwd: options.cwd });
  container.register(CurrentRun, { useClass: CurrentRun }, { lifecycle: Lifecycle.ContainerScoped });
  if (config.graph) container.register(GRAPH_SETTINGS, { useValue: config.graph });
  overrides?.(container);
  return container;
}
