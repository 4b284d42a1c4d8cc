import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { sapDocument, sarDocument, sspDocument, type SarSignature, type WordDocumentModel } from '../../domain/documents/word-models';
import { assessFreshness } from '../../domain/freshness/freshness';
import type { SigningKey } from '../../ports/signer';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { WORD_DOCUMENTS, type WordDocuments } from '../../ports/word-documents';
import { GenerateSar } from '../oscal/generate-sar';
import { OscalRunLoader } from '../oscal/oscal-run-loader';
import { writeAll } from '../shared/write-all';

export const WORD_DOCUMENT_KINDS = ['ssp', 'sar', 'sap'] as const;
export type WordDocumentKind = (typeof WORD_DOCUMENT_KINDS)[number];

export interface GenerateWordDocumentInput {
  kind: WordDocumentKind;
  /** A normalized report, an evidence-bundle.json, or an auditor bundle directory. */
  input: string;
  /** The .docx to write. */
  out: string;
  /** sar only: PEM private key (`--key`); else SVC_SIGNING_KEY, else the development key. */
  key?: string;
  catalog?: string;
}

export interface GenerateWordDocumentResult {
  kind: WordDocumentKind;
  input: string;
  out: string;
  file: WrittenFile;
  /** sar only: the signed OSCAL SAR written beside the .docx, and the key that signed it. */
  sar?: SarSignature & { key: SigningKey['origin'] };
}

/**
 * `svc generate docx|sar|sap`: the SSP, the assessment report or the assessment plan of a run as a Word document.
 * The report comes with the signed OSCAL SAR it describes, written by GenerateSar beside the .docx
 * (`<out without .docx>.sar.json` and its `.dsse.json` envelope), and cites that file's digest and signing key.
 */
@injectable()
export class GenerateWordDocument {
  constructor(
    private readonly runs: OscalRunLoader,
    private readonly sars: GenerateSar,
    @inject(WORD_DOCUMENTS) private readonly documents: WordDocuments,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute({ kind, input, out, key, catalog }: GenerateWordDocumentInput): Promise<GenerateWordDocumentResult> {
    let sar: GenerateWordDocumentResult['sar'];
    if (kind === 'sar') {
      const signed = await this.sars.execute({ input, out: sarPathOf(out), key, catalog });
      sar = { file: signed.out, envelope: signed.envelope, sha256: signed.sha256, algorithm: signed.algorithm, keyid: signed.keyid, key: signed.key };
    }
    const run = await this.runs.load({ input, catalog });
    let model: WordDocumentModel;
    if (sar !== undefined) model = sarDocument(run, sar);
    else if (kind === 'sap')
      model = sapDocument(
        run,
        assessFreshness(
          run.results.map((r) => r.item),
          run.context.generatedAt,
          run.context.runAt,
        ),
      );
    else model = sspDocument(run);
    const bytes = await this.documents.render(model);
    const file = await writeAll(await this.writer.open(out), (sink) => sink.writeBytes(bytes));
    return { kind, input, out, file, ...(sar !== undefined ? { sar } : {}) };
  }
}

/** `report.docx` → `report.sar.json`: the signed SAR beside the Word report. */
export function sarPathOf(out: string): string {
  return `${out.replace(/\.docx$/i, '')}.sar.json`;
}
