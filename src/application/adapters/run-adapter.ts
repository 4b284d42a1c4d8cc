import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { NormalizedReport } from '../../domain/ksi/ksi-result';
import { detectionsOf, reportFromScan, type ScanSummary } from '../../domain/scan/ksi-from-checks';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { writeAll } from '../shared/write-all';
import { isoSeconds } from '../../domain/encoding/iso-time';

export interface RunAdapterInput {
  vendor: string;
  input: string;
  /** Write the normalized report here; without it the report is returned to print. */
  out?: string;
}

/** The vendor that asks svc to pick the vendor from the file's content. */
export const AUTO_VENDOR = 'auto';

export interface RunAdapterResult {
  vendor: string;
  /** When the vendor was picked from the file's content (`auto`): the format it was taken for (the vendor's tool). */
  detected?: { format: string };
  input: string;
  tool: string;
  version?: string;
  summary: ScanSummary;
  report: NormalizedReport;
  file?: WrittenFile;
  out?: string;
}

/**
 * A scanner's native output → a normalized report (`svc adapter run <vendor>`, `svc adapter run-baseline`):
 * each check goes to the KSIs of the controls it evidences, and the report records where it came from (tool,
 * version, raw file and its SHA-256, adapter and version) so an assessor can trace a KSI to the rule.
 */
@injectable()
export class RunAdapter {
  constructor(
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  /**
   * `vendor` `auto` picks the vendor from the file's content (ScanReader.detect: exactly one format must match), and
   * the result says it was detected.
   */
  async execute({ vendor: asked, input, out }: RunAdapterInput): Promise<RunAdapterResult> {
    const detected = asked === AUTO_VENDOR ? await this.scans.detect(input) : undefined;
    const vendor = detected?.vendor ?? asked;
    const { file, scan } = await this.scans.read(vendor, input);
    const provenance = {
      raw_file: file.name,
      raw_sha256: `sha256:${file.sha256}`,
      adapter: `svc-adapter-${vendor}`,
      adapter_version: this.settings.tool.version,
    };
    const generatedAt = isoSeconds(this.clock.now());
    const built = reportFromScan(scan, provenance, generatedAt);
    const { summary } = built;
    const report = { ...built.report, vulnerabilities: detectionsOf(scan, generatedAt, this.hashing) };
    const result: RunAdapterResult = {
      vendor,
      ...(detected === undefined ? {} : { detected: { format: detected.tool } }),
      input,
      tool: scan.tool,
      ...(scan.version ? { version: scan.version } : {}),
      summary,
      report,
    };
    if (out === undefined) return result;
    return { ...result, out, file: await writeAll(await this.writer.open(out), (sink) => sink.write(`${JSON.stringify(report, null, 2)}\n`)) };
  }
}
