import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ValidateFedrampDocument } from '../../../../application/fedramp/validate-fedramp-document';
import { CR26_DOCUMENT_TYPES, type Cr26DocumentType } from '../../../../domain/fedramp/cr26-documents';
import { fedrampValidationJson, fedrampValidationText, type FedrampValidationJson } from '../../fedramp-output';

export default class FedrampValidate extends BaseCommand {
  static summary = "Validate any CR26 JSON document (SDR, CPO, OCR, SCN, VDR, AVI, ...) against FedRAMP's schema for its type.";
  static description =
    'The type comes from --type, else a "$schema" naming a FedRAMP schema file, else the top-level keys only that type declares (docs/fedramp.md). The first line names the schema that judged by its $schemaVersion and SHA-256 (docs/schemas.md). Exit 0 valid, 1 invalid, 3 not JSON or of no type svc can tell, 5 the schemas given or configured not found.';
  static examples = [
    '<%= config.bin %> <%= command.id %> sdr.json --schemas ../fedramp/schemas',
    '<%= config.bin %> <%= command.id %> avi.json --type avi --json',
  ];
  static enableJsonFlag = true;
  static args = { file: Args.string({ required: true, description: 'CR26 JSON document' }) };
  static flags = {
    type: Flags.string({ summary: 'The document type, instead of telling it from the document.', options: [...CR26_DOCUMENT_TYPES] }),
    schemas: Flags.string({
      summary:
        "Directory of FedRAMP's CR26 schemas (fedramp-*-schema-<date>.json); else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
    }),
  };

  async run(): Promise<FedrampValidationJson> {
    const { args, flags } = await this.parse(FedrampValidate);
    const result = await this.resolve(ValidateFedrampDocument).execute({
      file: args.file,
      type: flags.type as Cr26DocumentType | undefined,
      schemas: flags.schemas,
    });
    this.print(fedrampValidationText(result).join('\n'));
    this.exitWithFindings(!result.valid);
    return fedrampValidationJson(result);
  }
}
