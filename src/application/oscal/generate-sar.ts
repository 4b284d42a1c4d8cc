import { inject, injectable } from 'tsyringe';
import { toBase64 } from '../../domain/encoding/base64';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import { buildSar } from '../../domain/oscal/assessment-results';
import type { Json, OscalRun } from '../../domain/oscal/oscal-run';
import { sarStatement } from '../../domain/oscal/sar-attestation';
import { IN_TOTO_PAYLOAD_TYPE, paeHead, type DsseEnvelope } from '../../domain/signing/dsse';
import type { SignatureAlgorithm } from '../../domain/signing/jwk';
import { formatDigest } from '../../domain/evidence/content-digest';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { SIGNER, type Signer, type SigningKey } from '../../ports/signer';
import { splitPath } from '../shared/paths';
import { OscalRunLoader, type OscalRunRequest } from './oscal-run-loader';

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
 * The DSSE envelope of the in-toto Statement about a SAR whose canonical bytes have the SHA-256 `subject.sha256Hex`,
 * as the envelope file's text (2-space JSON; the signature covers the payload, not this layout), in pieces. The
 * statement reads only the SAR's uuid and metadata, never its lists; it names every evidence entry of the run, so it
 * is encoded straight into the bytes that are signed (two passes over its canonical pieces: their size, then the
 * bytes), and its base64 is written a slice at a time: a run of a million results has no envelope-sized string.
 */
export function* sarEnvelopeChunks(run: OscalRun, sar: Json, subject: { name: string; sha256Hex: string }, key: SigningKey): Generator<string> {
  const statement = sarStatement(run, sar, subject);
  const encoder = new TextEncoder();
  let length = 0;
  for (const piece of jsonChunks(statement, 'canonical')) length += encoder.encode(piece).length;
  const head = paeHead(IN_TOTO_PAYLOAD_TYPE, length);
  const signed = new Uint8Array(head.length + length);
  signed.set(head);
  let at = head.length;
  for (const piece of jsonChunks(statement, 'canonical')) at += encoder.encodeInto(piece, signed.subarray(at)).written;
  const envelope: DsseEnvelope = {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: '*',
    signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(signed)), jwk: key.publicJwk }],
  };
  // The layout around the payload, as JSON.stringify writes it; '*' is no base64 character, so it marks the one place.
  const [before, after] = `${JSON.stringify(envelope, null, 2)}\n`.split('"*"');
  yield `${before}"`;
  const payload = signed.subarray(head.length);
  for (let from = 0; from < payload.length; from += BASE64_SLICE) yield toBase64(payload.subarray(from, from + BASE64_SLICE));
  yield `"${after}`;
}

/** Bytes of payload per base64 piece: a multiple of 3, so the pieces join into the base64 of the whole. */
const BASE64_SLICE = 3 * 2 ** 18;

/**
 * `svc ir generate-sar`: the SAR in RFC 8785 canonical form, so the file's SHA-256 is the signed digest, and beside
 * it a DSSE envelope of an in-toto Statement v1 about it (DESIGN §7). Both files appear together or not at all.
 */
@injectable()
export class GenerateSar {
  constructor(
    private readonly runs: OscalRunLoader,
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
      for (const chunk of sarEnvelopeChunks(run, sar, { name: base, sha256Hex: sha256 }, key)) signature.write(chunk);
      await signature.close();
      await tx.commit();
    } catch (error) {
      await tx.abort();
      throw error;
    }
    const uuid = (sar['assessment-results'] as { uuid: string }).uuid;
    return {
      input: input.input,
      out: input.out,
      envelope: input.out + ENVELOPE_SUFFIX,
      uuid,
      sha256: formatDigest(sha256),
      algorithm: key.algorithm,
      keyid: key.keyid,
      key: key.origin,
    };
  }
}
