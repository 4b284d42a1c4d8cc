import { fromBase64 } from '../encoding/base64';
import { InvalidInputError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';
import { type PublicJwk, readPublicJwk } from './jwk';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** One DSSE signature; `jwk` is svc's extra member carrying the signer's public key (DSSE ignores unknown members). */
export interface DsseSignature {
  keyid: string;
  /** Standard base64 of the signature over pae(payloadType, payload). */
  sig: string;
  jwk?: PublicJwk;
}

/** A DSSE v1 envelope (secure-systems-lab/dsse envelope.md); `payload` is standard base64. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: DsseSignature[];
}

const encoder = new TextEncoder();

/** DSSE v1 pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN in bytes. */
export function pae(payloadType: string, payload: Uint8Array): Uint8Array {
  const head = paeHead(payloadType, payload.length);
  const bytes = new Uint8Array(head.length + payload.length);
  bytes.set(head);
  bytes.set(payload, head.length);
  return bytes;
}

/** The bytes PAE puts before a payload of `length` bytes (the payload follows them). */
export function paeHead(payloadType: string, length: number): Uint8Array {
  return encoder.encode(`DSSEv1 ${encoder.encode(payloadType).length} ${payloadType} ${length} `);
}

/** Reads a DSSE envelope, keeping only the members DSSE and svc define; at least one signature. */
export function readDsseEnvelope(document: unknown, file: string): DsseEnvelope {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-dsse-envelope', `${file}: ${path}: ${problem}; pass the .dsse.json svc wrote beside the document`);
  };
  if (!isPlainObject(document)) return fail('$', `expected a JSON object, got ${describe(document)}`);
  const { payloadType, payload, signatures } = document;
  if (typeof payloadType !== 'string' || payloadType === '') return fail('payloadType', 'expected a non-empty string');
  if (!isBase64(payload)) return fail('payload', 'expected base64 text');
  if (!Array.isArray(signatures) || signatures.length === 0) return fail('signatures', 'expected a non-empty array');
  return {
    payloadType,
    payload,
    signatures: signatures.map((signature, i): DsseSignature => {
      const path = `signatures[${i}]`;
      if (!isPlainObject(signature)) return fail(path, `expected an object, got ${describe(signature)}`);
      if (typeof signature.keyid !== 'string') return fail(`${path}.keyid`, 'expected a string');
      if (!isBase64(signature.sig) || signature.sig === '') return fail(`${path}.sig`, 'expected base64 text');
      const read: DsseSignature = { keyid: signature.keyid, sig: signature.sig };
      if (signature.jwk !== undefined) read.jwk = readPublicJwk(signature.jwk, file, `${path}.jwk`);
      return read;
    }),
  };
}

/** The payload bytes an envelope carries. */
export function envelopePayload(envelope: DsseEnvelope): Uint8Array {
  return fromBase64(envelope.payload);
}

function isBase64(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    fromBase64(value);
    return true;
  } catch {
    return false;
  }
}
