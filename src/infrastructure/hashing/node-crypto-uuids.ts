import { createHash } from 'node:crypto';
import { InvalidInputError } from '../../domain/errors';
import type { Uuids } from '../../ports/uuids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 9562 §5.5: SHA-1 over the namespace's 16 bytes and the name's UTF-8, version 5, variant 10. */
export class NodeCryptoUuids implements Uuids {
  v5(namespace: string, name: string): string {
    if (!UUID.test(namespace)) throw new InvalidInputError('bad-uuid-namespace', `not a UUID: ${namespace}`);
    const bytes = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest().subarray(0, 16);
    bytes[6] = (bytes[6] & 0x0f) | 0x50;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
