import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { HdfResults, type HdfCounts } from '../../domain/hdf/hdf-results';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RunLoader, type RunRequest } from '../shared/run-loader';
import { writeAll } from '../shared/write-all';

export interface GenerateHdfInput extends Omit<RunRequest, 'compact'> {
  out: string;
}

export interface GenerateHdfResult extends HdfCounts {
  input: string;
  out: string;
  file: WrittenFile;
}

/**
 * `svc generate hdf`: a run as one Heimdall Data Format results document, so Heimdall users see svc's KSI results in
 * the viewer they know. The run is read and checked whole first (a report an item at a time, each result kept as its
 * evidence entry; a bundle verified), then each control is written as it is built: memory does not grow with the
 * document, and the file appears only complete.
 */
@injectable()
export class GenerateHdf {
  constructor(
    private readonly runs: RunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, catalog, out }: GenerateHdfInput): Promise<GenerateHdfResult> {
    const run = await this.runs.load({ input, catalog, compact: true });
    const document = new HdfResults({ tool: this.settings.tool, context: run.context, catalog: run.catalog, merkleRoot: run.merkleRoot });
    const file = await writeAll(await this.writer.open(out), (sink) => {
      sink.write(document.head());
      for (const { item, hash } of run.results) sink.write(document.control(item, hash));
      sink.write(document.tail());
    });
    return { input, out, file, ...document.totals };
  }
}
