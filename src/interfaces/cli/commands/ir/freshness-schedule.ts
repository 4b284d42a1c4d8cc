import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { CheckFreshness, type ScheduleFormat } from '../../../../application/freshness/check-freshness';
import { nowFlag, parseNow, runInputArg } from '../../flags';

export default class IrFreshnessSchedule extends BaseCommand {
  static summary = "When each KSI's evidence next falls due: a table, an iCalendar file (Outlook, Google, Thunderbird) or JSON.";
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json',
    '<%= config.bin %> <%= command.id %> out/bundle --format ics > evidence-due.ics',
  ];
  static args = { input: runInputArg };
  static flags = {
    format: Flags.string({ summary: 'Output format.', options: ['table', 'ics', 'json'], default: 'table' }),
    now: nowFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(IrFreshnessSchedule);
    const result = await this.resolve(CheckFreshness).execute({ input: args.input, now: parseNow(flags.now), schedule: flags.format as ScheduleFormat });
    process.stdout.write(result.text);
  }
}
