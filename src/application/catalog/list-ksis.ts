import { inject, injectable } from 'tsyringe';
import { normalizeControlId, type KsiDefinition } from '../../domain/catalog/ksi-catalog';
import { UsageError } from '../../domain/errors';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';

export interface ListKsisInput {
  /** NIST family (`AC`, `ia`). */
  area?: string;
  /** A control or enhancement (`ac-2`, `AC-2(1)`): the KSI that covers it. */
  control?: string;
}

export interface ListKsisResult {
  ksis: KsiDefinition[];
}

/** Browses the built-in catalog (`svc ksi list`). */
@injectable()
export class ListKsis {
  constructor(@inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource) {}

  async execute({ area, control }: ListKsisInput): Promise<ListKsisResult> {
    const catalog = this.catalogs.catalog();
    let ksis = [...catalog.all()];
    if (area !== undefined) {
      const family = area.trim().toUpperCase();
      const families = catalog.data.families.map((f) => f.id);
      if (!families.includes(family)) throw new UsageError('unknown-area', `--area ${area}: not a family of the catalog; use one of ${families.join(', ')}`);
      ksis = ksis.filter((k) => k.family === family);
    }
    if (control !== undefined) {
      const id = normalizeControlId(control);
      if (id === undefined) throw new UsageError('bad-control-id', `--control ${control}: not a control id; write it like ac-2, ac-2.1 or AC-2(1)`);
      const covering = catalog.forControl(id);
      ksis = ksis.filter((k) => k === covering);
    }
    return { ksis };
  }
}
