import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { trendDashboardModel } from '../../domain/reporting/trend-dashboard';
import { areaTitle } from '../../domain/reporting/areas';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { HTML_RENDERER, type HtmlRenderer } from '../../ports/html-renderer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { writeAll } from '../shared/write-all';
import { isoSeconds } from '../../domain/encoding/iso-time';

export interface BuildTrendDashboardInput {
  out: string;
}

export interface BuildTrendDashboardResult {
  out: string;
  runs: number;
  file: WrittenFile;
}

/** `svc conmon dashboard`: trends across the stored runs (pass rate by area, open and overdue POA&M, drift by class). */
@injectable()
export class BuildTrendDashboard {
  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(HTML_RENDERER) private readonly html: HtmlRenderer,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ out }: BuildTrendDashboardInput): Promise<BuildTrendDashboardResult> {
    const summaries = await this.store.list();
    const catalog = this.catalogs.catalog();
    const page = this.html.trendDashboard(
      trendDashboardModel({
        summaries,
        store: this.store.location,
        tool: this.settings.tool,
        generatedAt: isoSeconds(this.clock.now()),
        areaTitle: (area) => areaTitle(area, catalog),
      }),
    );
    return { out, runs: summaries.length, file: await writeAll(await this.writer.open(out), (sink) => sink.write(page)) };
  }
}
