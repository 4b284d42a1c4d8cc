import { inject, injectable } from 'tsyringe';
import { formatDigest } from '../../domain/evidence/content-digest';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { Cr26KsiStatus } from '../../domain/fedramp/ksi-evaluation';
import type { FedrampType } from '../../domain/fedramp/profile';
import type { StatementSource } from '../../domain/fedramp/sdr';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { splitPath } from '../shared/paths';
import { writeTwin } from './fedramp-documents';
import { SdrBuilder, type BuiltSdr, type SdrRequest } from './sdr-builder';

export interface WriteSdrInput extends SdrRequest {
  /** The JSON file (default `sdr.json`); the twin is written beside it. */
  out?: string;
}

export interface WriteSdrResult {
  input: string;
  out: string;
  sha256: string;
  markdown: string;
  profile: { type: FedrampType; class: Cr26Class };
  rules: string;
  requirements: { total: number; provider: number; svc: number; none: number };
  ksis: { total: number; implemented: number; partially: number; not_implemented: number; no_evidence: number };
  evidence: number;
  controls?: { total: number; with_status: number };
}

/** `svc fedramp sdr`: the SDR of a run and its Markdown twin, written together (DESIGN §12.3). */
@injectable()
export class WriteSdr {
  constructor(
    private readonly sdr: SdrBuilder,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute(input: WriteSdrInput): Promise<WriteSdrResult> {
    const out = input.out ?? 'sdr.json';
    const built = await this.sdr.build(input, { command: 'svc fedramp sdr', jsonName: splitPath(out).base });
    const written = await writeTwin(this.writer, out, built.model.document, built.markdown);
    return { input: input.input, out, sha256: formatDigest(written.json.sha256), markdown: written.markdown.path, ...sdrSummary(built) };
  }
}

/** The counts `fedramp sdr` and `fedramp package` report for an SDR. */
export function sdrSummary(built: BuiltSdr): Omit<WriteSdrResult, 'input' | 'out' | 'sha256' | 'markdown'> {
  const { model, scope } = built;
  const source = (s: StatementSource) => model.requirements.filter((r) => r.source === s).length;
  const status = (s: Cr26KsiStatus | undefined) => model.ksis.filter((k) => k.status === s).length;
  return {
    profile: { type: scope.profile.type, class: scope.profile.class },
    rules: scope.rules.info.version,
    requirements: { total: model.requirements.length, provider: source('provider'), svc: source('svc'), none: source('none') },
    ksis: {
      total: model.ksis.length,
      implemented: status('Implemented'),
      partially: status('Partially Implemented'),
      not_implemented: status('Not Implemented'),
      no_evidence: status(undefined),
    },
    evidence: model.ksis.reduce((n, k) => n + k.evidence, 0),
    ...(model.controls === undefined
      ? {}
      : { controls: { total: model.controls.length, with_status: model.controls.filter((c) => c.status !== undefined).length } }),
  };
}
