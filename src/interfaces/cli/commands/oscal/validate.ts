import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ValidateOscal } from '../../../../application/oscal/validate-oscal';
import type { BaselineLevel } from '../../../../domain/oscal/baseline';
import { baselineFlag, schemasFlag } from '../../flags';
import { validationJson, validationText, type OscalValidationJson } from '../../oscal-output';

export default class OscalValidate extends BaseCommand {
  static summary = "Validate any OSCAL JSON document against NIST's schema for its model and release, then its uuids, links and control ids.";
  static description =
    "The schemas are --schemas, else SVC_OSCAL_SCHEMAS or oscal_schemas, else NIST's release schemas svc carries (docs/schemas.md). Exit 0 valid, 1 invalid, 3 not JSON or not OSCAL, 5 the schemas given or configured not found.";
  static examples = [
    '<%= config.bin %> <%= command.id %> ssp.json --schemas ../oscal/schemas',
    '<%= config.bin %> <%= command.id %> assessment-results.json --baseline moderate --json',
  ];
  static enableJsonFlag = true;
  static args = { file: Args.string({ required: true, description: 'OSCAL JSON document (catalog, profile, component-definition, SSP, SAP, SAR, POA&M)' }) };
  static flags = {
    schemas: schemasFlag,
    baseline: baselineFlag('Also require every control-id to be in this FedRAMP rev5 baseline (an SSP is held to its own).'),
    'oscal-version': Flags.string({ summary: 'Judge by this schema release instead of the one the document declares.', helpValue: '<release>' }),
  };

  async run(): Promise<OscalValidationJson> {
    const { args, flags } = await this.parse(OscalValidate);
    const result = await this.resolve(ValidateOscal).execute({
      file: args.file,
      schemas: flags.schemas,
      baseline: flags.baseline as BaselineLevel | undefined,
      schemaVersion: flags['oscal-version'],
    });
    this.print(validationText(result));
    this.exitWithFindings(!result.valid);
    return validationJson(result);
  }
}
