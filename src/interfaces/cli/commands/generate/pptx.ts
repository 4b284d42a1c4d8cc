import { BaseCommand } from '../../base-command';
import { GenerateBriefing, type GenerateBriefingResult } from '../../../../application/documents/generate-briefing';
import { outFileFlag, runInputArg } from '../../flags';
import { withWrittenFile } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';

export default class GeneratePptx extends BaseCommand {
  static summary = 'Write an executive briefing (.pptx): status by area, top risks, POA&M trend, next due dates.';
  static description =
    'The POA&M trend covers the runs svc conmon process recorded in the run store (SVC_STORE, SVC_HOME) when there are any, else this run alone.';
  static examples = ['<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --out out/briefing.pptx'];
  static enableJsonFlag = true;
  static args = { input: runInputArg };
  static flags = { out: outFileFlag('PowerPoint file to write.', true) };

  async run(): Promise<GenerateBriefingResult> {
    const { args, flags } = await this.parse(GeneratePptx);
    const result = await this.resolve(GenerateBriefing).execute({ input: args.input, out: flags.out as string });
    this.print(`Briefing written to ${result.out} (${plural(result.slides, 'slide')})`);
    return withWrittenFile(result);
  }
}
