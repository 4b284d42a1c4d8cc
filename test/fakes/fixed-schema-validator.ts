import { ConfigError } from '../../src/domain/errors';
import type { OscalModel } from '../../src/domain/oscal/oscal-model';
import type { OscalProblem } from '../../src/domain/oscal/oscal-problem';
import type { SchemaSet, SchemaValidator } from '../../src/ports/schema-validator';

/** SCHEMA_VALIDATOR with given releases and problems; records what it was asked to validate against. */
export class FixedSchemaValidator implements SchemaValidator {
  readonly validated: { version: string; model: OscalModel }[] = [];

  constructor(
    private readonly versions: string[] | undefined = ['1.1.3', '1.2.1'],
    private readonly problems: OscalProblem[] = [],
  ) {}

  async locate(dir?: string): Promise<SchemaSet> {
    if (!this.versions) throw new ConfigError('oscal-schemas-missing', 'OSCAL schemas not found');
    return { dir: dir ?? '/schemas', versions: this.versions };
  }

  async validate(_set: SchemaSet, version: string, model: OscalModel): Promise<OscalProblem[]> {
    this.validated.push({ version, model });
    return this.problems;
  }
}
