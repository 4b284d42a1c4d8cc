import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { expectModel, readOscalDocument } from '../../domain/oscal/oscal-model';
import { sspInjection } from '../../domain/oscal/ssp-injection';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { JSON_PATCHER, type JsonPatcher } from '../../ports/json-patcher';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { writeAll } from '../shared/write-all';
import { OscalRunLoader, type OscalRunRequest } from './oscal-run-loader';

export interface InjectSspInput extends OscalRunRequest {
  /** The existing OSCAL SSP to write into (it is not changed; the result goes to `out`). */
  ssp: string;
  out: string;
}

export interface InjectSspResult {
  ssp: string;
  input: string;
  out: string;
  updated: string[];
  added: string[];
  file: WrittenFile;
}

/**
 * `svc ir ssp-inject`: writes KSI-derived statements and implementation statuses into the matching
 * implemented-requirements of an existing SSP, adds the missing ones, and keeps every other byte of the file.
 */
@injectable()
export class InjectSsp {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    private readonly runs: OscalRunLoader,
    @inject(JSON_PATCHER) private readonly patcher: JsonPatcher,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute(input: InjectSspInput): Promise<InjectSspResult> {
    const ssp = await this.reader.read(input.ssp, { keepText: true });
    const oscal = expectModel(readOscalDocument(ssp.document, ssp.path), 'system-security-plan', ssp.path, 'pass the SSP to write into first');
    const run = await this.runs.load({ ...input, oscalVersion: oscal.oscalVersion });
    const injection = sspInjection(ssp.document as Record<string, unknown>, run);
    const text = this.patcher.apply(ssp.text ?? '', injection.edits);
    const file = await writeAll(await this.writer.open(input.out), (sink) => sink.write(text));
    return { ssp: input.ssp, input: input.input, out: input.out, updated: injection.updated, added: injection.added, file };
  }
}
