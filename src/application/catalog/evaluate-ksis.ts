import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { NormalizedReport } from '../../domain/ksi/ksi-result';
import type { Status } from '../../domain/ksi/status';
import { evaluateCheckRows } from '../../domain/scan/evaluate-checks';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { writeAll } from '../shared/write-all';
import { isoSeconds } from '../../domain/encoding/iso-time';

export interface EvaluateKsisInput {
  input: string;
  out?: string;
}

export interface EvaluateKsisResult {
  input: string;
  statuses: Record<Status, number>;
  not_assessed: string[];
  report: NormalizedReport;
  file?: WrittenFile;
  out?: string;
}

/**
 * Per-check results of a tool without an adapter → KSI results by the adapters' rules (`svc ksi evaluate`):
 * a failed must-check fails the KSI, a failed should-check or an error warns, manual checks alone assess nothing.
 */
@injectable()
export class EvaluateKsis {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, out }: EvaluateKsisInput): Promise<EvaluateKsisResult> {
    const file = await this.reader.read(input);
    const { results, not_assessed, statuses } = evaluateCheckRows(file.document, file.path);
    const report: NormalizedReport = {
      schema_version: '1',
      generated_at: isoSeconds(this.clock.now()),
      source: { tool: 'svc ksi evaluate', version: this.settings.tool.version, raw_file: file.name, raw_sha256: `sha256:${file.sha256}` },
      results,
    };
    const result: EvaluateKsisResult = { input, statuses, not_assessed, report };
    if (out === undefined) return result;
    return { ...result, out, file: await writeAll(await this.writer.open(out), (sink) => sink.write(`${JSON.stringify(report, null, 2)}\n`)) };
  }
}
