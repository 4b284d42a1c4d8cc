import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { SBOM_GENERATOR, type SbomGenerator } from '../../ports/sbom-generator';
import { writeAll } from '../shared/write-all';

export interface GenerateSbomInput {
  /** The project directory; default: svc's own installation. */
  dir?: string;
  out: string;
  includeDev: boolean;
}

export interface GenerateSbomResult {
  dir: string | null;
  out: string;
  file: WrittenFile;
  /** Entries of the BOM's components list. */
  components: number;
}

/** `svc generate sbom`: a CycloneDX JSON bill of materials of a Node project from its lockfile. */
@injectable()
export class GenerateSbom {
  constructor(
    @inject(SBOM_GENERATOR) private readonly generator: SbomGenerator,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ dir, out, includeDev }: GenerateSbomInput): Promise<GenerateSbomResult> {
    const sbom = await this.generator.fromProject({ dir, includeDev, timestamp: this.clock.now() });
    const file = await writeAll(await this.writer.open(out), (sink) => sink.write(sbom.text));
    return { dir: dir ?? null, out, file, components: sbom.components };
  }
}
