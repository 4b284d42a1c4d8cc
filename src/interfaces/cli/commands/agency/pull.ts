import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { printableText } from '../../../../domain/encoding/printable-text';
import { PullProviders, type PullProvidersResult } from '../../../../application/agency/pull-providers';

export default class AgencyPull extends BaseCommand {
  static summary = "Fetch every certification document of each provider's trust center, conditionally and concurrently, verify it, and store it.";
  static description =
    "Public information, CPO, SDR, OCR, VDR, AVI, history, SCNs, incidents, metrics and snapshots, each with If-None-Match, a bounded number of providers at once (agency.pull in svc.config.json), with retries, time-outs and a size limit; stored content-addressed with when, from where, the HTTP validators and the TLS identity seen, then checked against FedRAMP's schemas and rules. One line per provider on stderr. A provider that is down, slow, answers garbage or shows another TLS certificate is reported for that provider; its good documents stay and the others are pulled. Exit 1 when a provider's pull failed or was partial.";
  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> acme globex --deep',
    '<%= config.bin %> <%= command.id %> acme --accept-identity acme',
  ];
  static enableJsonFlag = true;
  static strict = false;
  static args = { provider: Args.string({ description: 'Providers to pull (default: every one configured)' }) };
  static flags = {
    deep: Flags.boolean({ summary: 'Check every evidence link of each SDR, not a sample of three.' }),
    'accept-identity': Flags.string({
      summary: "Accept the provider's new TLS certificate (after a renewal) instead of refusing its pull.",
      helpValue: '<provider>',
      multiple: true,
    }),
  };

  async run(): Promise<PullProvidersResult> {
    const { argv, flags } = await this.parse(AgencyPull);
    const r = await this.resolve(PullProviders).execute({
      names: argv as string[],
      deep: flags.deep,
      acceptIdentity: flags['accept-identity'] ?? [],
      onProvider: (_pull, line) => process.stderr.write(`${printableText(line)}\n`),
    });
    const count = (o: string) => r.pulls.filter((p) => p.outcome === o);
    const failed = [...count('failed'), ...count('partial')];
    this.log(
      `Pulled ${r.pulls.length} provider${r.pulls.length === 1 ? '' : 's'}: ${count('ok').length} ok, ${count('partial').length} partial, ${count('failed').length} failed${failed.length === 0 ? '' : ` (${failed.map((p) => p.provider).join(', ')})`}`,
    );
    for (const pull of r.pulls) {
      const actions = pull.findings.filter((f) => f.level === 'action').length;
      if (actions > 0) this.log(`- ${pull.provider}: ${actions} finding${actions === 1 ? '' : 's'} to act on (svc agency status)`);
    }
    this.exitWithFindings(failed.length > 0);
    return r;
  }
}
