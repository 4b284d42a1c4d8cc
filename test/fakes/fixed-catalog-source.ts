import type { Crosswalk } from '../../src/domain/catalog/derive-catalog';
import { KsiCatalog, type CatalogData } from '../../src/domain/catalog/ksi-catalog';
import type { CatalogSource } from '../../src/ports/catalog-source';
import catalogData from '../../src/infrastructure/catalog/data/ksi-catalog.json';
import crosswalkData from '../../src/infrastructure/catalog/data/ksi-crosswalk.json';

/** CATALOG_SOURCE with a given catalog; by default the checked-in 163-KSI data, read as plain data. */
export class FixedCatalogSource implements CatalogSource {
  constructor(
    private readonly fixed: KsiCatalog = builtInCatalog(),
    private readonly fixedCrosswalk: Crosswalk = crosswalkData as Crosswalk,
  ) {}

  catalog(): KsiCatalog {
    return this.fixed;
  }

  crosswalk(): Crosswalk {
    return this.fixedCrosswalk;
  }
}

export function builtInCatalog(): KsiCatalog {
  return new KsiCatalog(structuredClone(catalogData) as CatalogData);
}
