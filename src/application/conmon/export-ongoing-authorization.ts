import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { UsageError } from '../../domain/errors';
import { ongoingAuthorizationMarkdown, ongoingAuthorizationReport, type OaReport } from '../../domain/conmon/ongoing-authorization';
import type { StoredRun } from '../../domain/conmon/run-record';
import { areaTitle } from '../../domain/reporting/areas';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { writeAll } from '../shared/write-all';
import { isoSeconds } from '../../domain/encoding/iso-time';

export interface ExportOngoingAuthorizationInput {
  /** Start of the period: a date (from its first instant, UTC) or a date-time. */
  from: string;
  /** End of the period: a date (to its last instant, UTC) or a date-time. */
  to: string;
  /** Markdown file to write; the JSON report goes beside it (same name, .json). */
  out?: string;
}

export interface ExportOngoingAuthorizationResult {
  report: OaReport;
  markdown: string;
  /** The Markdown and JSON files written (none without `out`). */
  written: { path: string; file: WrittenFile }[];
}

/** `svc conmon export-oa`: the FedRAMP 20x Ongoing Authorization Report of a period, from the run store. */
@injectable()
export class ExportOngoingAuthorization {
  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ from, to, out }: ExportOngoingAuthorizationInput): Promise<ExportOngoingAuthorizationResult> {
    const start = periodBound('--from', from, 'start');
    const end = periodBound('--to', to, 'end');
    if (start > end) throw new UsageError('bad-period', `--from ${from} is after --to ${to}; give the start of the period first`);
    const runs: StoredRun[] = [];
    for (const summary of await this.store.list({ from: start, to: end })) {
      const run = await this.store.get(summary.seq);
      if (run) runs.push(run);
    }
    const catalog = this.catalogs.catalog();
    const report = ongoingAuthorizationReport({
      from: start,
      to: end,
      generatedAt: isoSeconds(this.clock.now()),
      tool: this.settings.tool,
      store: this.store.location,
      runs,
      areaTitle: (area) => areaTitle(area, catalog),
    });
    const markdown = ongoingAuthorizationMarkdown(report);
    const written: ExportOngoingAuthorizationResult['written'] = [];
    if (out !== undefined) {
      const json = `${out.replace(/\.(md|markdown)$/i, '')}.json`;
      written.push({ path: out, file: await writeAll(await this.writer.open(out), (sink) => sink.write(markdown)) });
      written.push({ path: json, file: await writeAll(await this.writer.open(json), (sink) => sink.write(`${JSON.stringify(report, null, 2)}\n`)) });
    }
    return { report, markdown, written };
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A period bound as ISO-8601 UTC: a date stands for its first (start) or last (end) instant in UTC. */
function periodBound(flag: string, value: string, side: 'start' | 'end'): string {
  const text = DATE.test(value) ? `${value}T${side === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
  const time = Date.parse(text);
  if ((!DATE.test(value) && !DATE_TIME.test(value)) || Number.isNaN(time)) {
    throw new UsageError('bad-period', `${flag} ${value}: expected a date (2026-10-01) or a date-time with a zone (2026-10-01T00:00:00Z)`);
  }
  return new Date(time).toISOString();
}
