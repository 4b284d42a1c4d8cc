import 'reflect-metadata';
import { container as root, type DependencyContainer } from 'tsyringe';
import { registerAdapters } from '../../infrastructure/register-adapters';

/**
 * The composition root of the main library entry (`compliance-evidence-service`): every port bound to its production
 * adapter as the CLI has them (svc.config.json, SVC_HOME, SVC_STORE and SVC_SIGNING_KEY read from `env` and `cwd`).
 * Resolve a use case from it and call `execute`.
 */
export function createContainer(options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): DependencyContainer {
  return registerAdapters(root.createChildContainer(), options);
}
