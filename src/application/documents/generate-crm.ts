import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { buildCrm } from '../../domain/documents/crm';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { WORKBOOKS, type Workbooks } from '../../ports/workbooks';
import { OscalRunLoader } from '../oscal/oscal-run-loader';
import type { RunRequest } from '../shared/run-loader';
import { writeAll } from '../shared/write-all';

export interface GenerateCrmInput extends RunRequest {
  out: string;
}

export interface GenerateCrmResult {
  input: string;
  out: string;
  file: WrittenFile;
  /** Rows of the CRM sheet: one per control. */
  controls: number;
  /** Controls with KSI evidence in this run. */
  evidenced: number;
}

/** `svc generate crm`: the customer responsibility matrix of a run as an .xlsx workbook, written atomically. */
@injectable()
export class GenerateCrm {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(WORKBOOKS) private readonly workbooks: Workbooks,
  ) {}

  async execute({ input, catalog, out }: GenerateCrmInput): Promise<GenerateCrmResult> {
    const model = buildCrm(await this.runs.load({ input, catalog }));
    const bytes = await this.workbooks.crm(model);
    const file = await writeAll(await this.writer.open(out), (sink) => sink.writeBytes(bytes));
    return { input, out, file, controls: model.rows.length, evidenced: model.rows.filter((r) => r.evidence.length > 0).length };
  }
}
