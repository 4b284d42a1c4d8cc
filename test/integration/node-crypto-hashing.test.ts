import { NodeCryptoHashing } from '../../src/infrastructure/hashing/node-crypto-hashing';
import { hashingContract } from '../contracts/hashing.contract';
import { PureJsHashing } from '../fakes/pure-js-hashing';

hashingContract('NodeCryptoHashing', () => new NodeCryptoHashing());
hashingContract('PureJsHashing (test double)', () => new PureJsHashing());

describe('NodeCryptoHashing', () => {
  it('refuses values JSON cannot carry with an input error', () => {
    expect(() => new NodeCryptoHashing().canonicalize({ a: Number.NaN })).toThrow(/canonical JSON form/);
  });

  it('refuses a digest that is not 64 hex digits', () => {
    expect(() => new NodeCryptoHashing().sha256Tagged(0, 'abc')).toThrow(/not a SHA-256 hex digest/);
  });
});
