import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { runDay } from '../../domain/artifacts/run-context';
import { runDashboardModel } from '../../domain/reporting/run-dashboard';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { HTML_RENDERER, type HtmlRenderer } from '../../ports/html-renderer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RunLoader } from '../shared/run-loader';
import { writeAll } from '../shared/write-all';

export interface BuildRunDashboardInput {
  input: string;
  out: string;
}

export interface BuildRunDashboardResult {
  input: string;
  out: string;
  file: WrittenFile;
}

/** One self-contained HTML page of a run: status by area, severities, SLA, the governance table (`svc ir dashboard`). */
@injectable()
export class BuildRunDashboard {
  constructor(
    private readonly runs: RunLoader,
    @inject(HTML_RENDERER) private readonly html: HtmlRenderer,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, out }: BuildRunDashboardInput): Promise<BuildRunDashboardResult> {
    const run = await this.runs.load({ input });
    const page = this.html.runDashboard(
      runDashboardModel({
        items: run.results.map((r) => r.item),
        context: run.context,
        catalog: run.catalog,
        merkleRoot: run.merkleRoot,
        counts: run.counts,
        tool: this.settings.tool,
        asOf: runDay(run.context),
      }),
    );
    return { input, out, file: await writeAll(await this.writer.open(out), (sink) => sink.write(page)) };
  }
}
