import { ConflictError } from '../../src/domain/errors';
import { DEFAULT_PULL_SETTINGS, type AgencyProvider, type AgencySettings, type PullSettings } from '../../src/domain/agency/providers';
import type { AgencyConfig } from '../../src/ports/agency-config';

/**
 * AGENCY_CONFIG in memory: the settings given, and providers added to them as AgencyConfigFile adds them to
 * svc.config.json (a name already there replaced with `replace`, else ConflictError with the file's words, nothing
 * added). `writes` counts the successful addProviders calls, as the file would be written.
 */
export class InMemoryAgencyConfig implements AgencyConfig {
  readonly file: string;
  private current: AgencySettings;
  writes = 0;

  constructor(options: { providers?: AgencyProvider[]; name?: string; pull?: Partial<PullSettings>; file?: string } = {}) {
    this.file = options.file ?? '/work/svc.config.json';
    this.current = {
      ...(options.name === undefined ? {} : { name: options.name }),
      providers: structuredClone(options.providers ?? []),
      pull: { ...DEFAULT_PULL_SETTINGS, ...options.pull },
    };
  }

  settings(): AgencySettings {
    return structuredClone(this.current);
  }

  async addProviders(providers: readonly AgencyProvider[], { replace }: { replace: boolean }): Promise<void> {
    const list = [...this.current.providers];
    for (const provider of providers) {
      const at = list.findIndex((p) => p.name === provider.name);
      if (at >= 0 && !replace)
        throw new ConflictError(
          'agency-provider-exists',
          `${this.file}: agency.providers already names "${provider.name}"; pass --replace to replace it, or choose another name`,
        );
      if (at >= 0) list[at] = structuredClone(provider);
      else list.push(structuredClone(provider));
    }
    this.current = { ...this.current, providers: list };
    this.writes++;
  }
}
