import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { isoDate } from '../../domain/artifacts/run-context';
import { buildInventory } from '../../domain/documents/inventory';
import { parseSnapshot } from '../../domain/substrate/snapshot';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { WORKBOOKS, type Workbooks } from '../../ports/workbooks';
import { writeAll } from '../shared/write-all';

export interface GenerateInventoryInput {
  /** A snapshot file written by `svc substrate walk --out`. */
  snapshot: string;
  out: string;
}

export interface GenerateInventoryResult {
  snapshot: string;
  out: string;
  file: WrittenFile;
  /** Rows of the inventory: one per resource of the snapshot. */
  assets: number;
}

/**
 * `svc generate inventory`: the FedRAMP Integrated Inventory Workbook of a substrate snapshot. The snapshot is
 * checked first (InvalidInputError `invalid-snapshot`, IntegrityError `snapshot-root-mismatch`).
 */
@injectable()
export class GenerateInventory {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(WORKBOOKS) private readonly workbooks: Workbooks,
  ) {}

  async execute({ snapshot, out }: GenerateInventoryInput): Promise<GenerateInventoryResult> {
    const file = await this.reader.read(snapshot);
    const model = buildInventory(parseSnapshot(file.document, snapshot, this.hashing), { date: isoDate(this.clock.now()), tool: this.settings.tool });
    const bytes = await this.workbooks.inventory(model);
    const written = await writeAll(await this.writer.open(out), (sink) => sink.writeBytes(bytes));
    return { snapshot, out, file: written, assets: model.rows.length };
  }
}
