import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { DraftNotice, type DraftNoticeResult } from '../../../../application/agency/draft-notice';
import { NOTICE_RECIPIENTS, type NoticeRecipient } from '../../../../domain/agency/notice';
import { plural } from '../../../../domain/encoding/plural';
import { nowFlag, outFileFlag, parseNow } from '../../flags';
import { helpText } from '../../help-text';

export default class AgencyNotice extends BaseCommand {
  static summary = 'Draft the notification of concerns about a provider that AGU-USE-NFC (to FedRAMP) or AGU-USE-NPC (to the provider) asks for.';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> acme --to fedramp',
    '<%= config.bin %> <%= command.id %> acme --to provider --out acme-notice.md --now 2026-12-01',
  ];
  static enableJsonFlag = true;
  static args = { provider: Args.string({ required: true, description: 'The provider, by its name in agency.providers[] of svc.config.json' }) };
  static flags = {
    to: Flags.string({ summary: 'Whom it is to: FedRAMP (AGU-USE-NFC) or the provider (AGU-USE-NPC).', options: [...NOTICE_RECIPIENTS], required: true }),
    out: outFileFlag('Markdown file to write the draft to; else it is printed.'),
    now: { ...nowFlag, summary: 'Recompute the overdue vulnerabilities at this time instead of now (ISO-8601 with a zone, or a date).' },
  };

  async run(): Promise<DraftNoticeResult> {
    const { args, flags } = await this.parse(AgencyNotice);
    const now = parseNow(flags.now);
    const r = await this.resolve(DraftNotice).execute({
      provider: args.provider,
      to: flags.to as NoticeRecipient,
      ...(flags.out === undefined ? {} : { out: flags.out }),
      ...(now === undefined ? {} : { now }),
    });
    if (r.file === undefined) this.print(r.markdown);
    else
      this.log(
        `Notice to ${flags.to} (${r.rule.id}) drafted to ${r.file.path}: ${r.concerns.length === 0 ? 'no concern' : plural(r.concerns.length, 'concern')}`,
      );
    return r;
  }
}
