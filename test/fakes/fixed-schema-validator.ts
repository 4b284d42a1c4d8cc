import { ConfigError } from '../../src/domain/errors';
import type { OscalModel } from '../../src/domain/oscal/oscal-model';
import type { OscalProblem } from '../../src/domain/oscal/oscal-problem';
import type { Cr26DocumentType } from '../../src/domain/fedramp/cr26-documents';
import type { FedrampSchemaSet, SchemaSet, SchemaValidator } from '../../src/ports/schema-validator';
import { FIRST_SHAPES } from '../../src/domain/fedramp/schema-shapes';

/** SCHEMA_VALIDATOR with given releases and problems; records what it was asked to validate against. */
export class FixedSchemaValidator implements SchemaValidator {
  readonly validated: { version: string; model: OscalModel | Cr26DocumentType }[] = [];

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

  async oscalSchema(set: SchemaSet, version: string, model: OscalModel): Promise<{ file: string; sha256: string }> {
    return { file: `${set.dir}/${version}/${model}.json`, sha256: 'b'.repeat(64) };
  }

  async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    if (!this.versions) throw new ConfigError('fedramp-schemas-missing', 'FedRAMP schemas not found');
    return {
      dir: dir ?? '/fedramp-schemas',
      files: { sdr: '/fedramp-schemas/sdr.json' },
      definitions: [],
      schemas: [{ type: 'sdr', file: '/fedramp-schemas/sdr.json', schemaVersion: '1.1.1', sha256: 'a'.repeat(64) }],
      shapes: FIRST_SHAPES,
    };
  }

  /** The one set locateFedramp() gives, as the newest (and only) generation carried. */
  async locateFedrampGenerations(): Promise<FedrampSchemaSet[]> {
    return [{ ...(await this.locateFedramp()), carried: '2026-10-08' }];
  }

  async validateFedramp(_set: FedrampSchemaSet, type: Cr26DocumentType): Promise<OscalProblem[]> {
    this.validated.push({ version: 'cr26', model: type });
    return this.problems;
  }
}
