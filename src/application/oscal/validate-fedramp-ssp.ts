import { inject, injectable } from 'tsyringe';
import type { BaselineLevel } from '../../domain/oscal/baseline';
import { baselineOfSsp, checkFedrampSsp } from '../../domain/oscal/fedramp-ssp-rules';
import { expectModel, readOscalDocument } from '../../domain/oscal/oscal-model';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import { chooseBaseline, validateOscalDocument, type OscalValidation } from './validate-oscal';

export interface ValidateFedrampSspInput {
  file: string;
  schemas?: string;
  /** The FedRAMP baseline to hold the SSP to; else the one it declares, else Moderate. */
  baseline?: BaselineLevel;
}

/**
 * `svc oscal validate-ssp`: an SSP against the OSCAL schema, the reference checks, and the FedRAMP SSP rules
 * (required roles and parties, implementation statuses, coverage of the baseline, no extraneous controls).
 */
@injectable()
export class ValidateFedrampSsp {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
  ) {}

  async execute(input: ValidateFedrampSspInput): Promise<OscalValidation> {
    const file = await this.reader.read(input.file);
    const oscal = expectModel(readOscalDocument(file.document, file.path), 'system-security-plan', file.path, 'validate it with svc oscal validate');
    const chosen = chooseBaseline(input.baseline, baselineOfSsp(file.document), 'moderate');
    const baseline = chosen && { ...this.catalogs.baseline(chosen.level), chosen: chosen.chosen };
    return validateOscalDocument(this.schemas, oscal, file.document, {
      file: file.path,
      schemas: input.schemas,
      baseline,
      rules: (controls) => checkFedrampSsp(file.document, controls),
    });
  }
}
