import type { InjectionToken } from 'tsyringe';
import type { Crosswalk } from '../domain/catalog/derive-catalog';
import type { KsiCatalog } from '../domain/catalog/ksi-catalog';
import type { BaselineControls, BaselineLevel } from '../domain/oscal/baseline';

/** The built-in KSI catalog (with svc.config.json overrides applied) and the official-KSI crosswalk. */
export interface CatalogSource {
  catalog(): KsiCatalog;
  crosswalk(): Crosswalk;
  /** The controls one FedRAMP rev5 baseline selects, lower-case ids in NIST catalog order. */
  baseline(level: BaselineLevel): BaselineControls;
}

export const CATALOG_SOURCE: InjectionToken<CatalogSource> = Symbol('CatalogSource');
