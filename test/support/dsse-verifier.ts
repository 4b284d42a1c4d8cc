import { constants, createHash, createPublicKey, type JsonWebKey, verify } from 'node:crypto';

/** RFC 7638 §3.2 and RFC 8037 §2: the members a thumbprint covers, in lexicographic order. */
const REQUIRED_MEMBERS: Record<string, string[]> = { EC: ['crv', 'kty', 'x', 'y'], OKP: ['crv', 'kty', 'x'], RSA: ['e', 'kty', 'n'] };

/**
 * A third party's check of an envelope svc wrote, from the specifications alone (DSSE v1 envelope.md and
 * protocol.md, RFC 7515/7518/8037 algorithms, RFC 7638 thumbprints) over node:crypto: it imports nothing from
 * src/, so a shared misreading of the spec cannot make both sides agree. Throws on any failure.
 */
export function verifyDsseEnvelope(envelopeJson: string): { payload: Buffer; keyid: string; jwk: object } {
  const envelope = JSON.parse(envelopeJson) as Record<string, unknown>;
  const { payloadType, payload, signatures } = envelope;
  if (typeof payloadType !== 'string') throw new Error('DSSE: payloadType is not a string');
  if (!Array.isArray(signatures) || signatures.length !== 1) throw new Error('DSSE: expected exactly one signature');
  const [{ keyid, sig, jwk }] = signatures as { keyid?: unknown; sig?: unknown; jwk?: unknown }[];
  if (typeof keyid !== 'string') throw new Error('DSSE: signatures[0].keyid is not a string');
  if (typeof jwk !== 'object' || jwk === null) throw new Error('DSSE: signatures[0].jwk is missing');
  const body = strictBase64(payload, 'payload');
  const signature = strictBase64(sig, 'signatures[0].sig');

  const type = Buffer.from(payloadType, 'utf8');
  const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);

  const members = jwk as Record<string, string>;
  const key = createPublicKey({ key: members as JsonWebKey, format: 'jwk' });
  let valid: boolean;
  switch (members.alg) {
    case 'ES256':
      if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('DSSE: ES256 needs a P-256 key');
      valid = verify('sha256', pae, { key, dsaEncoding: 'der' }, signature);
      break;
    case 'EdDSA':
      if (key.asymmetricKeyType !== 'ed25519') throw new Error('DSSE: EdDSA needs an Ed25519 key');
      valid = verify(null, pae, key, signature);
      break;
    case 'PS256':
      if (key.asymmetricKeyType !== 'rsa') throw new Error('DSSE: PS256 needs an RSA key');
      valid = verify('sha256', pae, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
      break;
    default:
      throw new Error(`DSSE: unknown alg ${String(members.alg)}`);
  }
  if (!valid) throw new Error('DSSE: the signature does not verify');

  const required = REQUIRED_MEMBERS[members.kty];
  if (!required) throw new Error(`DSSE: unknown kty ${members.kty}`);
  const canonical = `{${required.map((name) => `"${name}":${JSON.stringify(members[name])}`).join(',')}}`;
  const thumbprint = createHash('sha256').update(canonical).digest('base64url');
  if (thumbprint !== keyid) throw new Error(`DSSE: keyid ${keyid} is not the RFC 7638 thumbprint ${thumbprint} of the jwk`);
  return { payload: body, keyid, jwk };
}

/** Buffer.from(…, 'base64') skips what it cannot read, so only text that re-encodes to itself counts. */
function strictBase64(value: unknown, name: string): Buffer {
  if (typeof value !== 'string') throw new Error(`DSSE: ${name} is not a string`);
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64') !== value) throw new Error(`DSSE: ${name} is not standard padded base64`);
  return bytes;
}
