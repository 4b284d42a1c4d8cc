import type { Uuids } from '../../src/ports/uuids';
import { PureJsHashing } from './pure-js-hashing';

/**
 * UUIDS for unit tests: stable and well-formed (version 5 and variant bits set) but made from SHA-256 in plain
 * TypeScript, not SHA-1, so tests never depend on which adapter computed an id.
 */
export class DeterministicUuids implements Uuids {
  private readonly hashing = new PureJsHashing();

  v5(namespace: string, name: string): string {
    const hex = this.hashing.sha256(`${namespace}\n${name}`);
    const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
