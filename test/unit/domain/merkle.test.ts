import { createHash } from 'node:crypto';
import { inclusionProof, MerkleAccumulator, merkleProofs, merkleRoot, rootFromProof } from '../../../src/domain/evidence/merkle';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const digest = new PureJsHashing();
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 6962 §2.1 written as the RFC states it: recursive, split at the largest power of two below n. */
function reference(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Buffer.from([0]), leaves[0]);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.from([1]), reference(leaves.slice(0, k)), reference(leaves.slice(k)));
}

const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => sha(Buffer.from(`entry ${i}`)).toString('hex'));

describe('RFC 6962 Merkle tree', () => {
  it('gives the RFC root for every size from 0 to 70, built level by level or while leaves arrive', () => {
    for (let n = 0; n <= 70; n++) {
      const leaves = leavesOf(n);
      const expected = reference(leaves.map((l) => Buffer.from(l, 'hex'))).toString('hex');
      expect(merkleRoot(leaves, digest)).toBe(expected);
      const accumulator = new MerkleAccumulator(digest);
      leaves.forEach((l) => accumulator.add(l));
      expect(accumulator.root()).toBe(expected);
      expect(accumulator.size).toBe(n);
    }
  });

  it('proves every leaf of odd and even trees, and a wrong leaf does not verify', () => {
    for (const n of [1, 2, 3, 5, 8, 13]) {
      const leaves = leavesOf(n);
      const root = merkleRoot(leaves, digest);
      leaves.forEach((leaf, i) => expect(rootFromProof(leaf, inclusionProof(leaves, i, digest), digest)).toBe(root));
      if (n > 1) expect(rootFromProof(leaves[1], inclusionProof(leaves, 0, digest), digest)).not.toBe(root);
    }
  });

  it('has log2(n) steps at most in a proof and refuses an index outside the tree', () => {
    expect(inclusionProof(leavesOf(1000), 999, digest).length).toBeLessThanOrEqual(10);
    expect(() => inclusionProof(leavesOf(3), 3, digest)).toThrow(RangeError);
  });

  it('computes some audit paths level by level, the same as the whole tree gives them', () => {
    for (const n of [1, 2, 3, 7, 64, 65, 1000]) {
      const leaves = leavesOf(n);
      const wanted = [0, n - 1, Math.floor(n / 2), Math.floor(n / 3)];
      const proofs = merkleProofs(leaves, wanted, digest);
      expect([...proofs.keys()].sort((a, b) => a - b)).toEqual([...new Set(wanted)].sort((a, b) => a - b));
      for (const i of wanted) expect(proofs.get(i)).toEqual(inclusionProof(leaves, i, digest));
    }
    expect(() => merkleProofs(leavesOf(3), [3], digest)).toThrow(new RangeError('leaf 3 is outside a tree of 3'));
  });
});
