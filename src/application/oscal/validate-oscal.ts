import { inject, injectable } from 'tsyringe';
import type { BaselineControls, BaselineLevel } from '../../domain/oscal/baseline';
import { ConfigError, UsageError } from '../../domain/errors';
import { baselineOfSsp } from '../../domain/oscal/fedramp-ssp-rules';
import { readOscalDocument, schemaVersionFor, type OscalDocument, type OscalModel } from '../../domain/oscal/oscal-model';
import { isError, type OscalProblem } from '../../domain/oscal/oscal-problem';
import { checkReferences } from '../../domain/oscal/reference-checks';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';

export interface ValidateOscalInput {
  file: string;
  /** Directory of NIST's schema releases (`--schemas`); else the configured one. */
  schemas?: string;
  /** Check control ids against this FedRAMP baseline (an SSP's own baseline otherwise). */
  baseline?: BaselineLevel;
  /** Judge by this schema release instead of the one the document's oscal-version picks. */
  schemaVersion?: string;
}

export interface OscalValidation {
  file: string;
  model: OscalModel;
  /** `metadata.oscal-version` as the document declares it. */
  oscalVersion?: string;
  /** The schema release it was judged by, and where the schemas came from. */
  schemaVersion: string;
  schemaDir: string;
  /** The schema file that judged it, by its SHA-256 (`sha256:<hex>`). */
  schema: { file: string; sha256: string };
  /** Set when the schemas are NIST's release schemas svc carries. */
  carried?: true;
  /** The baseline control ids were checked against, and why that one. */
  baseline?: { level: BaselineLevel; title: string; chosen: 'flag' | 'document' | 'default' };
  valid: boolean;
  errors: number;
  warnings: number;
  problems: OscalProblem[];
}

/**
 * `svc oscal validate`: any OSCAL JSON document against NIST's official schema for its model and release, then the
 * checks JSON Schema cannot make (DESIGN §7). Findings are returned as data; the command picks the exit code.
 */
@injectable()
export class ValidateOscal {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
  ) {}

  async execute(input: ValidateOscalInput): Promise<OscalValidation> {
    const file = await this.reader.read(input.file);
    const oscal = readOscalDocument(file.document, file.path);
    const baseline = chooseBaseline(input.baseline, oscal.model === 'system-security-plan' ? baselineOfSsp(file.document) : undefined);
    return validateOscalDocument(this.schemas, oscal, file.document, {
      file: file.path,
      schemas: input.schemas,
      schemaVersion: input.schemaVersion,
      baseline: baseline && { ...this.catalogs.baseline(baseline.level), chosen: baseline.chosen },
    });
  }
}

export function chooseBaseline(
  flag: BaselineLevel | undefined,
  declared: BaselineLevel | undefined,
  fallback?: BaselineLevel,
): { level: BaselineLevel; chosen: 'flag' | 'document' | 'default' } | undefined {
  if (flag) return { level: flag, chosen: 'flag' };
  if (declared) return { level: declared, chosen: 'document' };
  return fallback ? { level: fallback, chosen: 'default' } : undefined;
}

/** The schema layer and the reference layer, for a document already read. */
export async function validateOscalDocument(
  schemas: SchemaValidator,
  oscal: OscalDocument,
  document: unknown,
  options: {
    file: string;
    schemas?: string;
    schemaVersion?: string;
    baseline?: BaselineControls & { chosen: 'flag' | 'document' | 'default' };
    /** Further rules (FedRAMP's); they judge the controls against the baseline themselves. */
    rules?: (baseline: BaselineControls) => OscalProblem[];
  },
): Promise<OscalValidation> {
  const set = await schemas.locate(options.schemas);
  const version = options.schemaVersion ?? schemaVersionFor(oscal.oscalVersion, set.versions);
  if (options.schemaVersion !== undefined && !set.versions.includes(options.schemaVersion)) {
    throw new UsageError(
      'unknown-schema-release',
      `--oscal-version ${options.schemaVersion}: ${set.dir} has no such schema release; pick one of ${set.versions.join(', ')}`,
    );
  }
  if (version === undefined) {
    throw new ConfigError(
      'oscal-schemas-missing',
      `${options.file}: declares OSCAL ${oscal.oscalVersion}, and ${set.dir} holds no schema release of that line (it has ${set.versions.join(', ')}); add NIST's release schemas for it there, or judge it by one of those with --oscal-version`,
    );
  }
  const schema = await schemas.oscalSchema(set, version, oscal.model);
  const problems = [
    ...(await schemas.validate(set, version, oscal.model, document)),
    ...checkReferences(document, { model: oscal.model, baseline: options.rules ? undefined : options.baseline }),
    ...(options.rules && options.baseline ? options.rules(options.baseline) : []),
  ];
  const errors = problems.filter(isError).length;
  return {
    file: options.file,
    model: oscal.model,
    ...(oscal.oscalVersion === undefined ? {} : { oscalVersion: oscal.oscalVersion }),
    schemaVersion: version,
    schemaDir: set.dir,
    schema: { file: schema.file, sha256: `sha256:${schema.sha256}` },
    ...(set.carried ? { carried: true as const } : {}),
    ...(options.baseline ? { baseline: { level: options.baseline.level, title: options.baseline.title, chosen: options.baseline.chosen } } : {}),
    valid: errors === 0,
    errors,
    warnings: problems.length - errors,
    problems,
  };
}
