import type { InjectionToken } from 'tsyringe';
import type { AgencyProvider, AgencySettings } from '../domain/agency/providers';

/** The agency's configuration in svc.config.json (`agency`): read, and providers added to it. */
export interface AgencyConfig {
  /** The settings (no providers when svc.config.json has no `agency`). */
  settings(): AgencySettings;
  /** The file providers are written to: SVC_CONFIG, else svc.config.json in the working directory. */
  readonly file: string;
  /**
   * Adds providers to `agency.providers[]`, keeping every other key of the file as it was, written atomically. A
   * provider whose name is already there is replaced when `replace`, else ConflictError naming it and `--replace`.
   */
  addProviders(providers: readonly AgencyProvider[], options: { replace: boolean }): Promise<void>;
}

export const AGENCY_CONFIG: InjectionToken<AgencyConfig> = Symbol('AgencyConfig');
