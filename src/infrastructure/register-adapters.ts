import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { loadConfig } from './config';
import type { RegistrationContext } from './registration/lazy';
import { registerAgency } from './registration/agency';
import { registerCore } from './registration/core';
import { registerDirectory } from './registration/directory';
import { registerDocuments } from './registration/documents';
import { registerInputsAndArtifacts } from './registration/inputs';
import { registerOrchestrator } from './registration/orchestrator';
import { registerRuns } from './registration/runs';

export interface AdapterOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Binds every port to its production adapter, area by area (registration/): composition roots call this, then apply
 * their overrides. An adapter whose module (and library) only some commands use is required on its first
 * resolution (registration/lazy.ts), so `svc ksi list` or `svc oscal validate` do not load the artifact writer, the
 * signer or the scanner parsers.
 */
export function registerAdapters(container: DependencyContainer, { env = process.env, cwd = process.cwd() }: AdapterOptions = {}): DependencyContainer {
  const context: RegistrationContext = { env, cwd, config: loadConfig(env, cwd), svcHome: resolve(cwd, env.SVC_HOME || '.svc') };
  registerCore(container, context);
  registerInputsAndArtifacts(container, context);
  registerRuns(container, context);
  registerDocuments(container);
  registerOrchestrator(container, context);
  registerDirectory(container, context);
  registerAgency(container, context);
  return container;
}
