import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { WriteCpo, type WriteCpoResult, type WrittenDocument } from '../../../../application/fedramp/write-cpo';
import { nowFlag, outFileFlag } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { digest, digested } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';
import { helpText } from '../../help-text';

export default class FedrampCpo extends BaseCommand {
  static summary = "Write the Certification Package Overview (CPO) from the FedRAMP profile, as JSON and a Markdown twin, validated against FedRAMP's schema.";
  static reads = 'the fedramp section of svc.config.json (fedramp.cpo and the profile); --substrate names a snapshot';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --out package/cpo.json --schemas ../fedramp/schemas',
    '<%= config.bin %> substrate walk infra --out snapshot.json && <%= config.bin %> <%= command.id %> --substrate snapshot.json',
    '<%= config.bin %> <%= command.id %> --type rev5 --class C --now 2026-12-01 --json',
  ];
  static enableJsonFlag = true;
  static flags = {
    out: outFileFlag('File to write the CPO to (default cpo.json); the Markdown twin goes beside it (cpo.md).'),
    class: profileFlags.class,
    type: profileFlags.type,
    substrate: Flags.string({
      summary: 'Snapshot of svc substrate walk: also write information-resources.json and information-flows.json beside the CPO.',
      helpValue: '<snapshot.json>',
    }),
    schemas: Flags.string({
      summary:
        "Directory of FedRAMP's CR26 schemas (fedramp-*-schema-<date>.json); else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
    }),
    now: { ...nowFlag, summary: "The CPO's last update (metadata.lastUpdated) instead of now (ISO-8601 with a zone, or a date)." },
  };

  async run(): Promise<FedrampCpoJson> {
    const { flags } = await this.parse(FedrampCpo);
    const result = await this.resolve(WriteCpo).execute({ out: flags.out, substrate: flags.substrate, schemas: flags.schemas, ...parseProfileFlags(flags) });
    this.log(`CPO written to ${result.file.path} (${digest(result.file.sha256)})`);
    this.log(`Markdown twin written to ${result.twin.path}`);
    if (result.resources) this.log(`Information resources written to ${result.resources.file.path} (${plural(result.resources.count, 'resource')})`);
    if (result.flows) this.log(`Information flows written to ${result.flows.file.path} (${plural(result.flows.count, 'network resource')})`);
    if (!result.validation.validated) this.log(`Note: ${result.file.path} was not validated against FedRAMP's CPO schema: ${result.validation.note}`);
    for (const note of result.validation.notes ?? []) this.log(`Note: ${note}`);
    return cpoJson(result);
  }
}

/** What --json prints: the result with every SHA-256 as `sha256:<hex>` (docs/cli.md). */
export type FedrampCpoJson = WriteCpoResult;

function cpoJson(result: WriteCpoResult): FedrampCpoJson {
  const written = <T extends WrittenDocument>(d: T): T => ({ ...d, file: digested(d.file), twin: digested(d.twin) });
  return {
    ...written(result),
    ...(result.resources ? { resources: written(result.resources) } : {}),
    ...(result.flows ? { flows: written(result.flows) } : {}),
  };
}
