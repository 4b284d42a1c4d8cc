import { inject, injectable } from 'tsyringe';
import { toBase64 } from '../../domain/encoding/base64';
import { jsonChunks, jsonText } from '../../domain/encoding/json-chunks';
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

/**
 * The SAR of a run in canonical form, as one string, and a DSSE envelope of an in-toto Statement about it, `name`
 * being its file name. For documents served from memory; GenerateSar writes the chunks instead.
 */
export function signSar(run: OscalRun, name: string, key: SigningKey, hashing: Hashing): SignedSar {
  const sar = buildSar(run);
  const text = jsonText(sar, 'canonical');
  const sha256 = hashing.sha256(text);
  return { sar, text, sha256, envelope: sarEnvelope(run, sar, { name, sha256Hex: sha256 }, key, hashing) };
}

/**
 * A DSSE envelope of the in-toto Statement about a SAR whose canonical bytes have the SHA-256 `subject.sha256Hex`.
 * The statement reads only the SAR's uuid and metadata, never its lists.
 */
export function sarEnvelope(run: OscalRun, sar: Json, subject: { name: string; sha256Hex: string }, key: SigningKey, hashing: Hashing): DsseEnvelope {
  const payload = new TextEncoder().encode(hashing.canonicalize(sarStatement(run, sar, subject)));
  return {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: toBase64(payload),
    signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(pae(IN_TOTO_PAYLOAD_TYPE, payload))), jwk: key.publicJwk }],
  };
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
    const run = await this.runs.load(input);
    const sar = buildSar(run);
    const tx = await this.writer.begin(dir);
    let sha256: string;
    try {
      // The sink hashes the bytes it writes: the canonical SAR is never one string, and its digest is the signed one.
      const document = tx.open(base);
      for (const chunk of jsonChunks(sar, 'canonical')) document.write(chunk);
      sha256 = (await document.close()).sha256;
      const signature = tx.open(base + ENVELOPE_SUFFIX);
      signature.write(envelopeText(sarEnvelope(run, sar, { name: base, sha256Hex: sha256 }, key, this.hashing)));
      await signature.close();
      await tx.commit();
    } catch (error) {
      await tx.abort();
      throw error;
    }
    const uuid = (sar['assessment-results'] as { uuid: string }).uuid;
    return { input: input.input, out: input.out, envelope: input.out + ENVELOPE_SUFFIX, uuid, sha256: formatDigest(sha256), algorithm: key.algorithm, keyid: key.keyid, key: key.origin };
  }
}
