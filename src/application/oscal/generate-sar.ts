import { inject, injectable } from 'tsyringe';
import { toBase64 } from '../../domain/encoding/base64';
import { buildSar } from '../../domain/oscal/assessment-results';
import type { Json, OscalRun } from '../../domain/oscal/oscal-run';
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

export interface SignedSar {
  sar: Json;
  /** The SAR's RFC 8785 canonical text: its SHA-256 is the digest the envelope signs. */
  text: string;
  sha256: string;
  envelope: DsseEnvelope;
}

/** The SAR of a run in canonical form and a DSSE envelope of an in-toto Statement about it, `name` being its file name. */
export function signSar(run: OscalRun, name: string, key: SigningKey, hashing: Hashing): SignedSar {
  const sar = buildSar(run);
  const text = hashing.canonicalize(sar);
  const sha256 = hashing.sha256(text);
  const payload = new TextEncoder().encode(hashing.canonicalize(sarStatement(run, sar, { name, sha256Hex: sha256 })));
  const envelope: DsseEnvelope = {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: toBase64(payload),
    signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(pae(IN_TOTO_PAYLOAD_TYPE, payload))), jwk: key.publicJwk }],
  };
  return { sar, text, sha256, envelope };
}

/** The envelope file's text: 2-space JSON (the signature covers the payload, not this layout). */
export function envelopeText(envelope: DsseEnvelope): string {
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

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
    const { dir, base } = splitPath(input.out);
    const { sar, text, sha256, envelope } = signSar(await this.runs.load(input), base, key, this.hashing);
    const tx = await this.writer.begin(dir);
    try {
      for (const [name, content] of [
        [base, text],
        [base + ENVELOPE_SUFFIX, envelopeText(envelope)],
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
