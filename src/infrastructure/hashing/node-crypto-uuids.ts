import { createHash, hash } from 'node:crypto';
import { InvalidInputError } from '../../domain/errors';
import type { Uuids } from '../../ports/uuids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Names up to this many UTF-8 bytes are hashed from one reused buffer (namespace bytes, then the name). */
const BUFFER_BYTES = 4096;
/** Names whose UUIDs are kept, per namespace: emptied when full, so the few asked for again and again stay cheap. */
const KEPT_NAMES = 4096;

/**
 * RFC 9562 §5.5: SHA-1 over the namespace's 16 bytes and the name's UTF-8, version 5, variant 10. A run of a million
 * results asks for tens of millions of them (an observation, a finding, a risk, their origins ... per result), so the
 * namespace is parsed once, a name is hashed in one call (crypto.hash: half the time of a Hash object) from a buffer
 * kept for the purpose, and the last few thousand names' UUIDs are kept: about a third of a run's names are the same
 * few asked for with every result (its tools, its system), and an observation's uuid is asked for by its finding and
 * its risk just after.
 */
export class NodeCryptoUuids implements Uuids {
  private readonly namespaces = new Map<string, { bytes: Buffer; kept: Map<string, string> }>();
  private readonly buffer = Buffer.alloc(BUFFER_BYTES);

  v5(namespace: string, name: string): string {
    const space = this.namespaces.get(namespace) ?? this.namespace(namespace);
    let uuid = space.kept.get(name);
    if (uuid === undefined) {
      if (space.kept.size >= KEPT_NAMES) space.kept.clear();
      space.kept.set(name, (uuid = this.hashed(space.bytes, name)));
    }
    return uuid;
  }

  private hashed(space: Buffer, name: string): string {
    let digest: Buffer;
    // At most 3 bytes of UTF-8 per UTF-16 code unit: a name that may not fit is hashed the long way.
    if (name.length * 3 <= BUFFER_BYTES - 16) {
      space.copy(this.buffer);
      const written = this.buffer.write(name, 16, 'utf8');
      digest = hash('sha1', this.buffer.subarray(0, 16 + written), 'buffer');
    } else {
      digest = createHash('sha1').update(space).update(name, 'utf8').digest();
    }
    digest[6] = (digest[6] & 0x0f) | 0x50;
    digest[8] = (digest[8] & 0x3f) | 0x80;
    const hex = digest.toString('hex', 0, 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private namespace(namespace: string): { bytes: Buffer; kept: Map<string, string> } {
    if (!UUID.test(namespace)) throw new InvalidInputError('bad-uuid-namespace', `not a UUID: ${namespace}`);
    const space = { bytes: Buffer.from(namespace.replace(/-/g, ''), 'hex'), kept: new Map<string, string>() };
    this.namespaces.set(namespace, space);
    return space;
  }
}
