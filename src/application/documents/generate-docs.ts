import { inject, injectable } from 'tsyringe';
import { buildDocumentationPackage } from '../../domain/documents/documentation-package';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { MARKDOWN_DOCS, type MarkdownDocs } from '../../ports/markdown-docs';
import { OscalRunLoader } from '../oscal/oscal-run-loader';
import type { RunRequest } from '../shared/run-loader';
import { writePackage } from './write-package';

export interface GenerateDocsInput extends RunRequest {
  /** Directory of the package (created, or added to). */
  out: string;
}

export interface GeneratePackageResult {
  input: string;
  out: string;
  /** The package's files, `/`-separated paths under `out`, in the order written. */
  files: string[];
  controls: number;
  areas: number;
}

/** `svc generate docs`: the Markdown documentation package of a run (index, areas, controls, POA&M), written atomically. */
@injectable()
export class GenerateDocs {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(MARKDOWN_DOCS) private readonly docs: MarkdownDocs,
  ) {}

  async execute({ input, catalog, out }: GenerateDocsInput): Promise<GeneratePackageResult> {
    const model = buildDocumentationPackage(await this.runs.load({ input, catalog }));
    const files = this.docs.render(model);
    await writePackage(this.writer, out, files);
    return { input, out, files: files.map((f) => f.path), controls: model.controls.length, areas: model.areas.length };
  }
}
