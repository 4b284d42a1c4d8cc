import { inject, injectable } from 'tsyringe';
import { normalizeControlId } from '../../domain/catalog/ksi-catalog';
import { NotFoundError, UsageError } from '../../domain/errors';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { graphDocument } from '../conmon/run-documents';
import { ReadRunDocument, type OpenRunDocument } from './read-run-document';

/**
 * GET /auditor/graph/{control_id}: one control's KSIs, evidence (with Merkle inclusion proofs), actions and POA&M
 * items, as `svc conmon process` stored it with the run (`graph.<control>.json`): nothing is traced per request.
 */
@injectable()
export class TraceControl {
  constructor(
    private readonly documents: ReadRunDocument,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
  ) {}

  async execute(input: { control: string }): Promise<OpenRunDocument> {
    const control = normalizeControlId(input.control);
    if (control === undefined)
      throw new UsageError('bad-control-id', `control ${JSON.stringify(input.control)}: not a control id; write it like ac-2, ac-2.1 or AC-2(1)`);
    const catalog = this.catalogs.catalog();
    if (catalog.controlTitle(control) === undefined) {
      throw new NotFoundError(
        'unknown-control',
        `control ${control} is not in the ${catalog.data.source.baseline}; pick a control it selects (svc ksi list shows them)`,
      );
    }
    return this.documents.execute({ name: graphDocument(control) });
  }
}
