import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { AddProvider, type AddProvidersResult } from '../../../../application/agency/add-providers';
import { CR26_CLASSES, type Cr26Class } from '../../../../domain/fedramp/cr26-rules';
import { authFlags, parseAuthFlags } from '../../agency-flags';

export default class AgencyAdd extends BaseCommand {
  static summary = "Register a provider's trust center and how to authenticate to it (agency.providers[] of svc.config.json).";
  static description =
    'Kept in svc.config.json (SVC_CONFIG, else the one in the working directory; created when there is none), every other setting left as it was. Only paths are kept: the client key, the token and the Kerberos ticket never enter the configuration, the store, a log or an output (docs/agency.md).';
  static examples = [
    '<%= config.bin %> <%= command.id %> acme --url https://trust.acme.example --fedramp-id FR2611250001 --class B --auth negotiate',
    '<%= config.bin %> <%= command.id %> globex --url https://trust.globex.example --auth cert --cert piv.crt --key piv.key --ca globex-ca.pem',
    '<%= config.bin %> <%= command.id %> initech --url https://trust.initech.example --auth token --token-file ~/.config/initech.token',
  ];
  static enableJsonFlag = true;
  static args = { name: Args.string({ required: true, description: 'Your name for the provider: letters, digits, ".", "_" and "-"' }) };
  static flags = {
    url: Flags.string({ summary: "The trust center's base URL (it serves /fedramp/public).", helpValue: '<https://…>', required: true }),
    'fedramp-id': Flags.string({ summary: "The offering's FedRAMP ID, checked against every document (CDS-CSO-FID).", helpValue: '<id>' }),
    class: Flags.string({
      summary: "The offering's certification class, for its PAIN timeframes (FedRAMP's documents carry none).",
      options: [...CR26_CLASSES],
    }),
    ...authFlags,
  };

  async run(): Promise<AddProvidersResult> {
    const { args, flags } = await this.parse(AgencyAdd);
    const r = await this.resolve(AddProvider).execute({
      name: args.name,
      url: flags.url,
      ...(flags['fedramp-id'] === undefined ? {} : { fedrampId: flags['fedramp-id'] }),
      ...(flags.class === undefined ? {} : { class: flags.class as Cr26Class }),
      ...parseAuthFlags(flags),
      replace: flags.replace,
    });
    const p = r.providers[0]!;
    this.log(`Provider ${p.name} (${p.url}, auth ${p.auth.kind}) written to ${r.file}`);
    return r;
  }
}
