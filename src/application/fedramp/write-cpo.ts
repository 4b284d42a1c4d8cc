import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { FedrampType } from '../../domain/fedramp/profile';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { splitPath } from '../shared/paths';
import { BuildCpo, type BuiltDocument, type CpoValidation } from './build-cpo';
import { addTwin, twinName, writeTwin } from './fedramp-documents';

export interface WriteCpoInput {
  /** `--out`: the CPO's JSON file; the twin goes beside it. Default `cpo.json`. */
  out?: string;
  class?: Cr26Class;
  type?: FedrampType;
  /** `--substrate`: a snapshot of `svc substrate walk`; the information resources and flows files are written too. */
  substrate?: string;
  /** `--schemas`: FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or the config. */
  schemas?: string;
  /** `--now`: the CPO's last update; else the clock. */
  now?: Date;
}

/** A file written, with its path as the user gave it. */
export type WrittenPath = { path: string } & WrittenFile;

/** A document and its twin as written. */
export interface WrittenDocument {
  file: WrittenPath;
  twin: WrittenPath;
}

export interface WriteCpoResult extends WrittenDocument {
  fedramp_id: string;
  validation: CpoValidation;
  /** With a snapshot: MAS-CSO-IIR, with its count of resources. */
  resources?: WrittenDocument & { count: number };
  /** With a snapshot: MAS-CSO-FLO, with its count of network resources. */
  flows?: WrittenDocument & { count: number };
}

/** The default `--out`. */
export const CPO_FILE = 'cpo.json';

/**
 * `svc fedramp cpo`: writes the Certification Package Overview and its Markdown twin (BuildCpo), and with a substrate
 * snapshot the information resources and flows files and their twins beside it, all in one transaction: every file
 * appears, or none. Nothing is written when the profile or the CPO is wrong.
 */
@injectable()
export class WriteCpo {
  constructor(
    @inject(BuildCpo) private readonly build: BuildCpo,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute(input: WriteCpoInput): Promise<WriteCpoResult> {
    const out = input.out ?? CPO_FILE;
    const { dir, base } = splitPath(out);
    const built = await this.build.execute({
      class: input.class,
      type: input.type,
      substrate: input.substrate,
      schemas: input.schemas,
      now: input.now,
      json: base,
    });
    const fedramp_id = built.profile.fedramp_id;
    if (built.resources === undefined || built.flows === undefined) {
      const written = await writeTwin(this.writer, out, built.cpo.document, built.cpo.markdown);
      return { file: written.json, twin: written.markdown, fedramp_id, validation: built.validation };
    }
    const join = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
    const tx = await this.writer.begin(dir);
    try {
      const add = async (name: string, doc: BuiltDocument<unknown>): Promise<WrittenDocument> => {
        const written = await addTwin(tx, name, doc.document, doc.markdown);
        return { file: { path: join(name), ...written.json }, twin: { path: join(twinName(name)), ...written.markdown } };
      };
      const cpo = await add(base, built.cpo);
      const resources = await add(built.resources.name, built.resources);
      const flows = await add(built.flows.name, built.flows);
      await tx.commit();
      return {
        ...cpo,
        file: { ...cpo.file, path: out },
        fedramp_id,
        validation: built.validation,
        resources: { ...resources, count: built.resources.document.resources.length },
        flows: { ...flows, count: built.flows.document.resources.length },
      };
    } catch (error) {
      await tx.abort();
      throw error;
    }
  }
}
