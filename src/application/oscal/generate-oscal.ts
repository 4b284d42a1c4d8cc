import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { jsonChunks, jsonText } from '../../domain/encoding/json-chunks';
import { buildSap } from '../../domain/oscal/assessment-plan';
import { buildSar } from '../../domain/oscal/assessment-results';
import type { Json, OscalRun } from '../../domain/oscal/oscal-run';
import { buildOscalPoam } from '../../domain/oscal/plan-of-action-and-milestones';
import { buildSsp } from '../../domain/oscal/system-security-plan';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { writeAll } from '../shared/write-all';
import { OscalRunLoader, type OscalRunRequest } from './oscal-run-loader';

export const OSCAL_KINDS = ['ssp', 'sar', 'sap', 'poam'] as const;
export type OscalKind = (typeof OSCAL_KINDS)[number];

const BUILDERS: Record<OscalKind, (run: OscalRun) => Json> = { ssp: buildSsp, sar: buildSar, sap: buildSap, poam: buildOscalPoam };

export interface GenerateOscalInput extends OscalRunRequest {
  model: OscalKind;
  /** File to write; without it the document is returned for printing. */
  out?: string;
}

export interface GenerateOscalResult {
  model: OscalKind;
  input: string;
  uuid: string;
  /** The document's text (2-space JSON), only when there is no --out: printed. */
  text?: string;
  out?: string;
  file?: WrittenFile;
}

/**
 * `svc oscal generate`: an OSCAL SSP, SAR, SAP or POA&M of a run (DESIGN §7), printed or written atomically. With
 * --out the document goes to the file chunk by chunk, never as one string (a large run's SAR is more than V8's
 * longest string).
 */
@injectable()
export class GenerateOscal {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute(input: GenerateOscalInput): Promise<GenerateOscalResult> {
    const document = BUILDERS[input.model](await this.runs.load(input));
    const uuid = (Object.values(document)[0] as { uuid: string }).uuid;
    if (input.out === undefined) return { model: input.model, input: input.input, uuid, text: `${jsonText(document, 'pretty')}\n` };
    const file = await writeAll(await this.writer.open(input.out), (sink) => {
      for (const chunk of jsonChunks(document, 'pretty')) sink.write(chunk);
      sink.write('\n');
    });
    return { model: input.model, input: input.input, uuid, out: input.out, file };
  }
}
