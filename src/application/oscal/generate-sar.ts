import { inject, injectable } from 'tsyringe';
import { toBase64 } from '../../domain/encoding/base64';
import { buildSar } from '../../domain/oscal/assessment-results';
import { sarStatement } from '../../domain/oscal/sar-attestation';
import { IN_TOTO_PAYLOAD_TYPE, pae, type DsseEnvelope } from '../../domain/signing/dsse';
import type { SignatureAlgorithm } from '../../domain/signing/jwk';
import { formatDigest } from '../../domain/evidence/content-digest';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { HASHING, type Hashing } from '../../ports/hashing';
import { SIGNER, type Signer, type SigningKey } from '../../ports/signer';
import { splitPath } from '../shared/paths';
import { OscalRunLoader, type OscalRunRequest } from './load-oscal-run';

export interface GenerateSarInput extends OscalRunRequest {
  out: string;
  /** PEM private key (`--key`); else SVC_SIGNING_KEY, else the development key. */
  key?: string;
}

export interface GenerateSarResult {
  input: string;
  out: string;
  envelope: string;
  uuid: string;
  sha256: string;
  algorithm: SignatureAlgorithm;
  keyid: string;
  key: SigningKey['origin'];
}

/** The suffix of the signature file written beside a SAR. */
export const ENVELOPE_SUFFIX = '.dsse.json';

/**
 * `svc ir generate-sar`: the SAR in RFC 8785 canonical form, so the file's SHA-256 is the signed digest, and beside
 * it a DSSE envelope of an in-toto Statement v1 about it (DESIGN §7). Both files appear together or not at all.
 */
@injectable()
export class GenerateSar {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(SIGNER) private readonly signer: Signer,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
  ) {}

  async execute(input: GenerateSarInput): Promise<GenerateSarResult> {
    const key = await this.signer.load(input.key);
    const run = await this.runs.load(input);
    const sar = buildSar(run);
    const text = this.hashing.canonicalize(sar);
    const sha256 = this.hashing.sha256(text);
    const { dir, base } = splitPath(input.out);
    const statement = sarStatement(run, sar, { name: base, sha256Hex: sha256 });
    const payload = new TextEncoder().encode(this.hashing.canonicalize(statement));
    const envelope: DsseEnvelope = {
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      payload: toBase64(payload),
      signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(pae(IN_TOTO_PAYLOAD_TYPE, payload))), jwk: key.publicJwk }],
    };
    const tx = await this.writer.begin(dir);
    try {
      for (const [name, content] of [
        [base, text],
        [base + ENVELOPE_SUFFIX, `${JSON.stringify(envelope, null, 2)}\n`],
      ]) {
        const sink = tx.open(name);
        sink.write(content);
        await sink.close();
      }
      await tx.commit();
    } catch (error) {
      await tx.abort();
      throw error;
    }
    const uuid = (sar['assessment-results'] as { uuid: string }).uuid;
    return { input: input.input, out: input.out, envelope: input.out + ENVELOPE_SUFFIX, uuid, sha256: formatDigest(sha256), algorithm: key.algorithm, keyid: key.keyid, key: key.origin };
  }
}
