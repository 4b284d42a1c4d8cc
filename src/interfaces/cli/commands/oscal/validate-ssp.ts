import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { ValidateFedrampSsp } from '../../../../application/oscal/validate-fedramp-ssp';
import type { BaselineLevel } from '../../../../domain/oscal/baseline';
import { baselineFlag, schemasFlag } from '../../flags';
import { validationJson, validationText, type OscalValidationJson } from '../../oscal-output';

export default class OscalValidateSsp extends BaseCommand {
  static summary = 'Validate an OSCAL SSP against the schema and the FedRAMP SSP rules: roles and parties, implementation statuses, baseline coverage.';
  static description =
    'The baseline is --baseline, else the one the SSP declares (security-sensitivity-level or import-profile), else Moderate. Exit 0 valid, 1 invalid, 3 not an SSP, 5 the schemas given or configured not found.';
  static examples = ['<%= config.bin %> <%= command.id %> ssp.json --baseline moderate', '<%= config.bin %> <%= command.id %> ssp.json --json'];
  static enableJsonFlag = true;
  static args = { file: Args.string({ required: true, description: 'OSCAL system-security-plan JSON' }) };
  static flags = {
    schemas: schemasFlag,
    baseline: baselineFlag('FedRAMP rev5 baseline the SSP must cover exactly.'),
  };

  async run(): Promise<OscalValidationJson> {
    const { args, flags } = await this.parse(OscalValidateSsp);
    const result = await this.resolve(ValidateFedrampSsp).execute({
      file: args.file,
      schemas: flags.schemas,
      baseline: flags.baseline as BaselineLevel | undefined,
    });
    this.print(validationText(result));
    this.exitWithFindings(!result.valid);
    return validationJson(result);
  }
}
