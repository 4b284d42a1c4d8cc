import type { Crosswalk } from '../../src/domain/catalog/derive-catalog';
import { KsiCatalog, type CatalogData } from '../../src/domain/catalog/ksi-catalog';
import type { BaselineControls, BaselineLevel } from '../../src/domain/oscal/baseline';
import type { CatalogSource } from '../../src/ports/catalog-source';
import catalogData from '../../src/domain/catalog/data/ksi-catalog.json';
import crosswalkData from '../../src/domain/catalog/data/ksi-crosswalk.json';
import baselineData from '../../src/domain/catalog/data/fedramp-baselines.json';

/**
 * CATALOG_SOURCE with a given catalog; by default the checked-in 163-KSI data, read as plain data. Baselines come from
 * the checked-in FedRAMP rev5 lists unless a level is given in `fixedBaselines`.
 */
export class FixedCatalogSource implements CatalogSource {
  constructor(
    private readonly fixed: KsiCatalog = builtInCatalog(),
    private readonly fixedCrosswalk: Crosswalk = crosswalkData as Crosswalk,
    private readonly fixedBaselines: Partial<Record<BaselineLevel, BaselineControls>> = {},
  ) {}

  catalog(): KsiCatalog {
    return this.fixed;
  }

  crosswalk(): Crosswalk {
    return this.fixedCrosswalk;
  }

  baseline(level: BaselineLevel): BaselineControls {
    return this.fixedBaselines[level] ?? builtInBaseline(level);
  }
}

export function builtInCatalog(): KsiCatalog {
  return new KsiCatalog(structuredClone(catalogData) as CatalogData);
}

export function builtInBaseline(level: BaselineLevel): BaselineControls {
  const { title, controls } = baselineData.baselines[level];
  return { level, title, controls: [...controls] };
}
