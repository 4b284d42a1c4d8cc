import type { InjectionToken } from 'tsyringe';
import type { OrchestratorConfig } from '../domain/orchestrator/job';

/**
 * Reads svc.orchestrator.json (`file`, else the one in the working directory). load() throws NotFoundError
 * `orchestrator-config-missing` for a missing file (saying how to create one) and InvalidInputError
 * `invalid-orchestrator-config` for malformed JSON or a field that does not validate.
 */
export interface OrchestratorConfigSource {
  load(file?: string): Promise<OrchestratorConfig>;
}

export const ORCHESTRATOR_CONFIG_SOURCE: InjectionToken<OrchestratorConfigSource> = Symbol('OrchestratorConfigSource');
