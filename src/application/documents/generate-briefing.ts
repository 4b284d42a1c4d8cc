import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { runDay } from '../../domain/artifacts/run-context';
import { briefingModel } from '../../domain/documents/briefing-model';
import { assessFreshness } from '../../domain/freshness/freshness';
import { runDashboardModel } from '../../domain/reporting/run-dashboard';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { PRESENTATIONS, type Presentations } from '../../ports/presentations';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { RunLoader } from '../shared/run-loader';
import { writeAll } from '../shared/write-all';

export interface GenerateBriefingInput {
  input: string;
  out: string;
}

export interface GenerateBriefingResult {
  input: string;
  out: string;
  file: WrittenFile;
  slides: number;
  /** Where the POA&M trend came from: the run store's recorded runs, or this run alone. */
  trend: 'store' | 'run';
}

/** The slides of a briefing: title, status by area, top risks, POA&M trend, next due dates. */
const SLIDES = 5;

/**
 * `svc generate pptx`: an executive briefing of a run (status by area, top risks, POA&M trend, next due dates).
 * The trend covers the runs `svc conmon process` recorded when the store has any, else this run alone.
 */
@injectable()
export class GenerateBriefing {
  constructor(
    private readonly runs: RunLoader,
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(PRESENTATIONS) private readonly presentations: Presentations,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, out }: GenerateBriefingInput): Promise<GenerateBriefingResult> {
    const run = await this.runs.load({ input });
    const items = run.results.map((r) => r.item);
    const dashboard = runDashboardModel({
      items,
      context: run.context,
      catalog: run.catalog,
      merkleRoot: run.merkleRoot,
      counts: run.counts,
      tool: this.settings.tool,
      asOf: runDay(run.context),
    });
    const model = briefingModel({
      dashboard,
      system: run.context.source?.tenant ?? run.context.input.name,
      summaries: await this.store.list(),
      freshness: assessFreshness(items, run.context.generatedAt, run.context.runAt),
    });
    const bytes = await this.presentations.briefing(model);
    const file = await writeAll(await this.writer.open(out), (sink) => sink.writeBytes(bytes));
    return { input, out, file, slides: SLIDES, trend: model.poam_trend.source };
  }
}
