import type { InjectionToken } from 'tsyringe';
import type { Crosswalk } from '../domain/catalog/derive-catalog';
import type { KsiCatalog } from '../domain/catalog/ksi-catalog';

/** The built-in KSI catalog (with svc.config.json overrides applied) and the official-KSI crosswalk. */
export interface CatalogSource {
  catalog(): KsiCatalog;
  crosswalk(): Crosswalk;
}

export const CATALOG_SOURCE: InjectionToken<CatalogSource> = Symbol('CatalogSource');
