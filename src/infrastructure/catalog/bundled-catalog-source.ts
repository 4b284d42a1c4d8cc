import type { Crosswalk } from '../../domain/catalog/derive-catalog';
import { KsiCatalog, type CatalogData, type KsiDefinition } from '../../domain/catalog/ksi-catalog';
import { InvalidInputError } from '../../domain/errors';
import type { BaselineControls, BaselineLevel } from '../../domain/oscal/baseline';
import type { CatalogSource } from '../../ports/catalog-source';
import type { KsiOverride } from '../config';

/**
 * The catalog, crosswalk and baselines shipped in domain/catalog/data/ (written by scripts/build-catalog.js and
 * build-baselines.js: FedRAMP's data is domain knowledge, so the test doubles read the same files), with the per-family
 * owners and per-KSI values of svc.config.json laid over them. Loaded on first use.
 */
export class BundledCatalogSource implements CatalogSource {
  private cached?: KsiCatalog;
  private baselines?: BaselineData;

  constructor(private readonly overrides: { file?: string; owners: Record<string, string>; ksis: Record<string, KsiOverride> } = { owners: {}, ksis: {} }) {}

  catalog(): KsiCatalog {
    if (!this.cached) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const data = require('../../domain/catalog/data/ksi-catalog.json') as CatalogData;
      this.checkOverrides(data);
      this.cached = new KsiCatalog({ ...data, ksis: data.ksis.map((k) => this.applyOverrides(k)) });
    }
    return this.cached;
  }

  crosswalk(): Crosswalk {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('../../domain/catalog/data/ksi-crosswalk.json') as Crosswalk;
  }

  baseline(level: BaselineLevel): BaselineControls {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.baselines ??= require('../../domain/catalog/data/fedramp-baselines.json') as BaselineData;
    const { title, controls } = this.baselines.baselines[level];
    return { level, title, controls };
  }

  private checkOverrides(data: CatalogData): void {
    const fail = (path: string, problem: string) => {
      throw new InvalidInputError('invalid-config', `${this.overrides.file ?? 'svc.config.json'}: ${path}: ${problem}; see docs/configuration.md`);
    };
    for (const family of Object.keys(this.overrides.owners))
      if (!data.families.some((f) => f.id === family)) fail(`owners.${family}`, 'not a family of the catalog');
    for (const id of Object.keys(this.overrides.ksis))
      if (!data.ksis.some((k) => k.id === id)) fail(`ksis.${id}`, 'not a KSI of the built-in catalog (svc ksi list shows them)');
  }

  private applyOverrides(ksi: KsiDefinition): KsiDefinition {
    const owner = this.overrides.owners[ksi.family];
    const own = this.overrides.ksis[ksi.id];
    return owner || own ? { ...ksi, ...(owner ? { owner } : {}), ...own } : ksi;
  }
}

/** The shape of domain/catalog/data/fedramp-baselines.json (written by scripts/build-baselines.js). */
interface BaselineData {
  baselines: Record<BaselineLevel, { title: string; controls: string[] }>;
}
