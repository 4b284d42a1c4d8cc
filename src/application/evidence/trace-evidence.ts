import { inject, injectable } from 'tsyringe';
import { assess } from '../../domain/assessment/assessment';
import { EVIDENCE_BUNDLE_SCHEMA, readEvidenceBundle } from '../../domain/artifacts/evidence-bundle';
import { normalizeControlId } from '../../domain/catalog/ksi-catalog';
import { IntegrityError, NotFoundError, UsageError } from '../../domain/errors';
import { formatDigest } from '../../domain/evidence/content-digest';
import { evidenceTrace, type EvidenceTrace } from '../../domain/evidence/evidence-trace';
import { MerkleTree, merkleRoot } from '../../domain/evidence/merkle';
import { readNormalizedReport, type KsiResult } from '../../domain/ksi/ksi-result';
import { isPlainObject } from '../../domain/encoding/json-values';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { entryHashes } from '../shared/run-inputs';

export interface TraceEvidenceInput {
  /** A normalized report, an evidence-bundle.json, or an auditor bundle directory. */
  input: string;
  control?: string;
}

/**
 * The KSI → control → evidence → action graph of a run (`svc evidence graph`). A bundle is read back and
 * every entry's hash and the Merkle root are recomputed first; with a control, each evidence node carries
 * its inclusion proof.
 */
@injectable()
export class TraceEvidence {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ input, control }: TraceEvidenceInput): Promise<EvidenceTrace> {
    const catalog = this.catalogs.catalog();
    const controlId = control === undefined ? undefined : normalizeControlId(control);
    if (control !== undefined && controlId === undefined)
      throw new UsageError('bad-control-id', `--control ${control}: not a control id; write it like ac-2, ac-2.1 or AC-2(1)`);
    if (controlId !== undefined && catalog.controlTitle(controlId) === undefined) {
      throw new NotFoundError(
        'unknown-control',
        `control ${controlId} is not in the ${catalog.data.source.baseline}; pick a control it selects (svc ksi list shows them)`,
      );
    }
    const results = await this.results(input);
    const assessment = assess(results.list, catalog, this.settings.governance);
    const hashes = entryHashes(assessment, this.hashing);
    if (results.recorded) this.verify(results.file, hashes, results.recorded);
    const root = merkleRoot(hashes, this.hashing);
    if (results.recorded && results.recorded.root !== root) {
      throw new IntegrityError(
        'merkle-root-mismatch',
        `${results.file}: merkle_root: recorded ${formatDigest(results.recorded.root)}, the entries give ${formatDigest(root)}; the bundle was changed after it was written`,
      );
    }
    return evidenceTrace({
      items: assessment.items,
      hashes,
      merkleRoot: root,
      catalog,
      control: controlId,
      proofOf: controlId === undefined ? undefined : proofs(new MerkleTree(hashes, this.hashing)),
    });
  }

  private async results(input: string): Promise<{ file: string; list: readonly KsiResult[]; recorded?: { byId: Map<string, string>; root: string } }> {
    const loaded =
      (await this.reader.kind(input)) === 'directory' ? await this.reader.readMember(input, 'evidence-bundle.json') : await this.reader.read(input);
    if (isPlainObject(loaded.document) && loaded.document.schema === EVIDENCE_BUNDLE_SCHEMA) {
      const bundle = readEvidenceBundle(loaded.document, loaded.path);
      const byId = new Map(bundle.results.map((r, i) => [r.ksi_id, bundle.recordedHashes[i]]));
      return { file: loaded.path, list: bundle.results, recorded: { byId, root: bundle.merkleRoot } };
    }
    return { file: loaded.path, list: readNormalizedReport(loaded.document, loaded.path).results };
  }

  private verify(file: string, hashes: readonly string[], recorded: { byId: Map<string, string> }): void {
    // assess() orders by ksi_id; the recorded hashes are looked up by id so a reordered bundle is still checked entry by entry.
    const ids = [...recorded.byId.keys()].sort();
    ids.forEach((id, i) => {
      const want = recorded.byId.get(id);
      if (want !== hashes[i]) {
        throw new IntegrityError(
          'content-hash-mismatch',
          `${file}: entry ${id}: content_hash records ${formatDigest(want ?? '')}, the entry hashes to ${formatDigest(hashes[i])}; the bundle was changed after it was written`,
        );
      }
    });
  }
}

/** Proofs from one tree built once (a proof each from scratch would hash the whole run per evidence node). */
function proofs(tree: MerkleTree): (index: number) => ReturnType<MerkleTree['proof']> {
  return (index) => tree.proof(index);
}
