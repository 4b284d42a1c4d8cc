import { injectable } from 'tsyringe';
import type { RunCounts } from '../../domain/assessment/assessment';
import type { InputRef } from '../../domain/artifacts/run-context';
import { formatDigest } from '../../domain/evidence/content-digest';
import { OSCAL_KINDS } from '../oscal/generate-oscal';
import { CurrentRun } from './current-run';
import { ReadOscalDocument } from './read-oscal-document';
import { runRef, type RunRef } from './run-ref';

export interface ManifestArtifact {
  name: string;
  /** The API path that serves it. */
  href: string;
  media_type: string;
  /** `sha256:<hex>` of the bytes that path serves. */
  sha256: string;
  bytes: number;
}

export interface RunManifest {
  run: RunRef;
  recorded_at: string;
  input: InputRef;
  counts: RunCounts;
  /** The recorded evidence-bundle.json: its digest (as `svc ir auditor-bundle` wrote it) and entry count. */
  evidence_bundle: { sha256: string; entries: number; href: string };
  artifacts: ManifestArtifact[];
}

/** GET /auditor/manifest: the current run and the digest of every artifact the auditor routes serve for it. */
@injectable()
export class DescribeRunManifest {
  constructor(
    private readonly current: CurrentRun,
    private readonly documents: ReadOscalDocument,
  ) {}

  async execute(input: { key?: string }): Promise<RunManifest> {
    const { summary, run } = await this.current.get();
    const artifacts: ManifestArtifact[] = [];
    for (const model of OSCAL_KINDS) {
      for (const envelope of model === 'sar' ? [false, true] : [false]) {
        const doc = await this.documents.execute({ model, envelope, key: input.key });
        artifacts.push({
          name: doc.name,
          href: `/auditor/oscal/${model}${envelope ? '?envelope=1' : ''}`,
          media_type: envelope ? 'application/vnd.dsse.envelope.v1+json' : 'application/json',
          sha256: formatDigest(doc.sha256),
          bytes: new TextEncoder().encode(doc.text).length,
        });
      }
    }
    return { run: runRef(summary), recorded_at: summary.recorded_at, input: { name: summary.input.name, sha256: formatDigest(summary.input.sha256) }, counts: run.counts, evidence_bundle: { sha256: formatDigest(run.files[0].sha256), entries: run.results.length, href: '/auditor/evidence' }, artifacts };
  }
}
