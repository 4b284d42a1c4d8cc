import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { buildSap } from '../../domain/oscal/assessment-plan';
import { buildSar } from '../../domain/oscal/assessment-results';
import type { Json, OscalRun } from '../../domain/oscal/oscal-run';
import { buildOscalPoam } from '../../domain/oscal/plan-of-action-and-milestones';
import { buildSsp } from '../../domain/oscal/system-security-plan';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { writeAll } from '../shared/write-all';
import { OscalRunLoader, type OscalRunRequest } from './load-oscal-run';

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
  /** The document's text (2-space JSON): printed when there is no --out. */
  text: string;
  out?: string;
  file?: WrittenFile;
}

/** `svc oscal generate`: an OSCAL SSP, SAR, SAP or POA&M of a run (DESIGN §7), printed or written atomically. */
@injectable()
export class GenerateOscal {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute(input: GenerateOscalInput): Promise<GenerateOscalResult> {
    const document = BUILDERS[input.model](await this.runs.load(input));
    const text = `${JSON.stringify(document, null, 2)}\n`;
    const uuid = (Object.values(document)[0] as { uuid: string }).uuid;
    if (input.out === undefined) return { model: input.model, input: input.input, uuid, text };
    const file = await writeAll(await this.writer.open(input.out), (sink) => sink.write(text));
    return { model: input.model, input: input.input, uuid, text, out: input.out, file };
  }
}
