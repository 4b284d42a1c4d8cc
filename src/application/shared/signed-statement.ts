import { fromBase64 } from '../../domain/encoding/base64';
import { AppError, IntegrityError } from '../../domain/errors';
import { envelopePayload, IN_TOTO_PAYLOAD_TYPE, pae, readDsseEnvelope } from '../../domain/signing/dsse';
import { readInTotoStatement, type InTotoStatement } from '../../domain/signing/in-toto';
import { jwkThumbprint, type SignatureAlgorithm } from '../../domain/signing/jwk';
import type { Hashing } from '../../ports/hashing';
import type { Signer } from '../../ports/signer';
import { parsed } from '../oscal/verify-bundle-directory';

/** How a caller words a change: the problem (without the file), raised as its IntegrityError. */
export type Changed = (problem: string) => never;
/** How a caller words what no longer reads as svc wrote it: the reader's message (its `; pass …` fix cut), and where. */
export type Unreadable = (message: string, place?: string) => never;

/**
 * Verifies a DSSE envelope svc wrote over an in-toto Statement (`ir generate-sar`, `fedramp package`), in the order a
 * reader trusts it: its payload type, the key it carries and that its key id is that key's RFC 7638 thumbprint, the
 * signature over the PAE of the payload, `keyid` when one is required, and the statement itself. What does not verify
 * goes to `changed`, what no longer reads as svc wrote it to `unreadable`; a verified signature by another key than
 * `keyid` is IntegrityError `signature-key-mismatch` naming `target`.
 */
export function verifySignedStatement(
  envelopeText: string,
  envelopeFile: string,
  deps: { hashing: Hashing; signer: Signer },
  changed: Changed,
  unreadable: Unreadable,
  required?: { keyid: string; target: string },
): { statement: InTotoStatement; algorithm: SignatureAlgorithm; keyid: string } {
  const integrity = <T>(read: () => T, place?: string): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof AppError && error.kind === 'invalid-input') return unreadable(error.message.replace(/; pass the .*$/, ''), place);
      throw error;
    }
  };
  const envelope = integrity(() => readDsseEnvelope(parsed(envelopeText, envelopeFile), envelopeFile));
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) changed(`payloadType is "${envelope.payloadType}", not ${IN_TOTO_PAYLOAD_TYPE}`);
  const [signature] = envelope.signatures;
  const jwk = signature.jwk ?? changed('signatures[0] carries no jwk to verify it with');
  const thumbprint = jwkThumbprint(jwk, (text) => deps.hashing.sha256(text));
  if (signature.keyid !== thumbprint) changed(`keyid ${signature.keyid} is not the thumbprint of the key it carries (${thumbprint})`);
  const payload = integrity(() => envelopePayload(envelope));
  const verified = integrity(
    () => deps.signer.verify(jwk, pae(envelope.payloadType, payload), fromBase64(signature.sig)),
    `${envelopeFile}: signatures[0].jwk`,
  );
  if (!verified) changed(`the ${jwk.alg} signature does not verify with key ${thumbprint}`);
  // Only a signature that verifies says who signed: then another key than the one required is that, not a change.
  if (required !== undefined && required.keyid !== thumbprint)
    throw new IntegrityError('signature-key-mismatch', `${required.target}: signed by key ${thumbprint}, not by --keyid ${required.keyid}`);
  const statement = integrity(() => readInTotoStatement(parsed(new TextDecoder().decode(payload), `${envelopeFile} payload`), `${envelopeFile} payload`));
  return { statement, algorithm: jwk.alg, keyid: thumbprint };
}
