import { inject, injectable } from 'tsyringe';
import { buildDocumentationPackage, sha256sums } from '../../domain/documents/documentation-package';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { HTML_SITE, type HtmlSite } from '../../ports/html-site';
import { HASHING, type Hashing } from '../../ports/hashing';
import { OscalRunLoader } from '../oscal/oscal-run-loader';
import type { RunRequest } from '../shared/run-loader';
import type { GeneratePackageResult } from './generate-docs';
import { writePackage } from './write-package';

export interface GenerateSiteInput extends RunRequest {
  /** Directory of the portal (created, or added to). */
  out: string;
}

/**
 * `svc generate site`: the static auditor portal of a run, written atomically. hashes.html lists the SHA-256 of every
 * other page, and SHA256SUMS (for `sha256sum --check`) of every file but itself, hashes.html included.
 */
@injectable()
export class GenerateSite {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HTML_SITE) private readonly site: HtmlSite,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  async execute({ input, catalog, out }: GenerateSiteInput): Promise<GeneratePackageResult> {
    const model = buildDocumentationPackage(await this.runs.load({ input, catalog }));
    const pages = this.site.pages(model);
    const digest = (files: typeof pages) => files.map((f) => ({ path: f.path, sha256: this.hashing.sha256(f.text) }));
    const withIndex = [...pages, this.site.hashes(model, digest(pages))];
    const files = [...withIndex, { path: 'SHA256SUMS', text: sha256sums(digest(withIndex)) }];
    await writePackage(this.writer, out, files);
    return { input, out, files: files.map((f) => f.path), controls: model.controls.length, areas: model.areas.length };
  }
}
