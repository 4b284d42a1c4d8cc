import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { CheckFreshness, type FreshnessSchedule, type ScheduleFormat } from '../../../../application/freshness/check-freshness';
import { nowFlag, parseNow, runInputArg } from '../../flags';

export default class IrFreshnessSchedule extends BaseCommand {
  static summary = "When each KSI's evidence next falls due: a table, an iCalendar file (Outlook, Google, Thunderbird) or JSON.";
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json',
    '<%= config.bin %> <%= command.id %> out/bundle --format ics > evidence-due.ics',
  ];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = {
    format: Flags.string({
      summary: 'Output format (--json prints the json one, whatever --format says).',
      options: ['table', 'ics', 'json'],
      default: 'table',
    }),
    now: nowFlag,
  };

  async run(): Promise<FreshnessSchedule> {
    const { args, flags } = await this.parse(IrFreshnessSchedule);
    const format = this.jsonEnabled() ? 'json' : (flags.format as ScheduleFormat);
    const result = await this.resolve(CheckFreshness).execute({ input: args.input, now: parseNow(flags.now), schedule: format });
    if (!this.jsonEnabled()) this.write(result.text);
    return result.schedule;
  }
}
