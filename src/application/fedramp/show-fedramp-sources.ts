import { inject, injectable } from 'tsyringe';
import { CR26_DOCUMENTS } from '../../domain/fedramp/cr26-documents';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import { judgingSchema, locateFedrampSchemas } from './fedramp-documents';

export interface ShowFedrampSourcesInput {
  /** `--schemas`: FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or the config, else the newest set svc carries. */
  schemas?: string;
  /** `--rules-file`: an official rules file instead of the rules in use. */
  rulesFile?: string;
}

/** One schema of the set in use: what it is FedRAMP's schema for, its `$schemaVersion` and `sha256:<hex>`, its file's name. */
export interface ListedSchema {
  type: string;
  title: string;
  schema_version?: string;
  sha256: string;
  file: string;
}

export interface FedrampSources {
  /** The rules release, and the official file it comes from (by its SHA-256) when it is known. */
  rules: { title?: string; version: string; date: string; file?: string; sha256?: string };
  /** The set of FedRAMP's schemas every document is validated against, each file by its $schemaVersion and SHA-256. */
  schemas: { dir: string; carried?: string; schemas: ListedSchema[] } | { note: string };
}

/**
 * `svc fedramp rules --sources`: what svc judges and validates by, the CR26 rules release and FedRAMP's schema set in
 * use, each schema named by its document type, `$schemaVersion` and SHA-256 (docs/schemas.md).
 */
@injectable()
export class ShowFedrampSources {
  constructor(
    @inject(FEDRAMP_RULES_SOURCE) private readonly source: FedrampRulesSource,
    @inject(SCHEMA_VALIDATOR) private readonly validator: SchemaValidator,
  ) {}

  async execute(input: ShowFedrampSourcesInput): Promise<FedrampSources> {
    const rules = input.rulesFile === undefined ? this.source.rules() : this.source.official(input.rulesFile);
    const located = await locateFedrampSchemas(this.validator, input.schemas);
    const release = {
      ...(rules.info.title === undefined ? {} : { title: rules.info.title }),
      version: rules.info.version,
      date: rules.info.date,
      ...(rules.source === undefined ? {} : { file: rules.source.file, sha256: `sha256:${rules.source.sha256}` }),
    };
    if ('note' in located) return { rules: release, schemas: { note: located.note } };
    const schemas = located.schemas.flatMap((s) => {
      const judging = judgingSchema(located, s.type);
      if (judging === undefined) return [];
      const title = s.type === 'definitions' ? 'Common Definitions' : CR26_DOCUMENTS[s.type].title;
      return [
        {
          type: s.type,
          title,
          ...(judging.$schemaVersion === undefined ? {} : { schema_version: judging.$schemaVersion }),
          sha256: judging.sha256,
          file: judging.file,
        },
      ];
    });
    return { rules: release, schemas: { dir: located.dir, ...(located.carried === undefined ? {} : { carried: located.carried }), schemas } };
  }
}
