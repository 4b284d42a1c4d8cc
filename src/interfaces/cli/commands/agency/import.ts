import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { ImportProviders, type AddProvidersResult } from '../../../../application/agency/add-providers';
import { authFlags, parseAuthFlags } from '../../agency-flags';

export default class AgencyImport extends BaseCommand {
  static summary = "Register providers from CPO documents: one, or a list in the CPO schema's shape as FedRAMP's marketplace export publishes them.";
  static description =
    "Each CPO's trust center (serviceProperties.trustCenter.url, less a trailing /fedramp/public) and FedRAMP ID (serviceIdentification.fedRampPackageId); named by its service acronym, else its service name. The authentication flags apply to every provider imported. A CPO naming no trust center is skipped and said on stderr.";
  static examples = ['<%= config.bin %> <%= command.id %> marketplace.json --auth negotiate', '<%= config.bin %> <%= command.id %> acme-cpo.json --json'];
  static enableJsonFlag = true;
  static args = { file: Args.string({ required: true, description: 'A CPO document, or a JSON list of them' }) };
  static flags = { ...authFlags };

  async run(): Promise<AddProvidersResult> {
    const { args, flags } = await this.parse(AgencyImport);
    const r = await this.resolve(ImportProviders).execute({ file: args.file, ...parseAuthFlags(flags), replace: flags.replace });
    for (const s of r.skipped) this.note(`${args.file}: ${s.at} skipped: it ${s.reason}`);
    this.log(`${r.providers.length} provider${r.providers.length === 1 ? '' : 's'} written to ${r.file}:`);
    for (const p of r.providers) this.log(`- ${p.name}: ${p.url}${p.fedrampId === undefined ? '' : ` (${p.fedrampId})`}`);
    return r;
  }
}
