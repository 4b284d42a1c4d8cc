import { inject, injectable } from 'tsyringe';
import { CR26_DOCUMENTS, detectCr26Type, type Cr26Detection, type Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import { isError, type OscalProblem } from '../../domain/oscal/oscal-problem';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import type { JudgingSchema } from '../../domain/fedramp/certification-package';
import { judgingSchema } from './fedramp-documents';

export interface ValidateFedrampDocumentInput {
  file: string;
  /** The document type (`--type`); else told from the document (detectCr26Type). */
  type?: Cr26DocumentType;
  /** Directory of FedRAMP's CR26 schemas (`--schemas`); else the configured one, else the newest set svc carries. */
  schemas?: string;
}

export interface FedrampValidation {
  file: string;
  type: Cr26DocumentType;
  title: string;
  /** How the type was chosen: `--type`, the document's `$schema`, or its top-level keys. */
  detectedBy: Cr26Detection['by'];
  /** The schema file it was judged by, and the directory it came from. */
  schema: string;
  schemaDir: string;
  /** What that schema is ($schemaVersion and sha256), and the common definitions it `$ref`s. */
  judgedBy: { schema: JudgingSchema; definitions?: JudgingSchema };
  /** The generation of FedRAMP's schemas svc carries (`2026-10-08`), when those judged it. */
  carried?: string;
  valid: boolean;
  errors: number;
  problems: OscalProblem[];
}

/**
 * `svc fedramp validate`: any CR26 JSON document against FedRAMP's schema for its type (DESIGN §12.3, rule
 * FRC-CSO-JSN). Findings are returned as data; the command picks the exit code.
 */
@injectable()
export class ValidateFedrampDocument {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
  ) {}

  async execute(input: ValidateFedrampDocumentInput): Promise<FedrampValidation> {
    const file = await this.reader.read(input.file);
    const detected = detectCr26Type(file.document, file.path, input.type);
    const set = await this.schemas.locateFedramp(input.schemas);
    const problems = await this.schemas.validateFedramp(set, detected.type, file.document);
    const errors = problems.filter(isError).length;
    const definitions = judgingSchema(set, 'definitions');
    return {
      file: file.path,
      type: detected.type,
      title: CR26_DOCUMENTS[detected.type].title,
      detectedBy: detected.by,
      schema: set.files[detected.type] ?? '',
      schemaDir: set.dir,
      judgedBy: { schema: judgingSchema(set, detected.type)!, ...(definitions === undefined ? {} : { definitions }) },
      ...(set.carried === undefined ? {} : { carried: set.carried }),
      valid: errors === 0,
      errors,
      problems,
    };
  }
}
