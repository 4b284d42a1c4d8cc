import type { ContentDigest } from './content-digest';

/** One step of an inclusion proof: the sibling hash and which side it sits on. */
export interface ProofStep {
  side: 'left' | 'right';
  hash: string;
}

type Tagging = Pick<ContentDigest, 'sha256Tagged'>;

const LEAF = 0x00;
const NODE = 0x01;

/**
 * RFC 6962 §2.1 Merkle Tree Hash over leaf digests (hex). A leaf hashes 0x00 ‖ the 32 digest bytes, a node
 * 0x01 ‖ left ‖ right. Building level by level and carrying an unpaired last node up unchanged gives the
 * same root as the RFC's recursive split at the largest power of two below n.
 */
export function merkleRoot(leaves: readonly string[], digest: Pick<ContentDigest, 'sha256' | 'sha256Tagged'>): string {
  if (leaves.length === 0) return digest.sha256('');
  let level = leaves.map((leaf) => digest.sha256Tagged(LEAF, leaf));
  while (level.length > 1) level = parentLevel(level, digest);
  return level[0];
}

function parentLevel(level: readonly string[], digest: Tagging): string[] {
  const next: string[] = new Array(Math.ceil(level.length / 2));
  for (let i = 0; i + 1 < level.length; i += 2) next[i >> 1] = digest.sha256Tagged(NODE, level[i], level[i + 1]);
  if (level.length % 2 === 1) next[next.length - 1] = level[level.length - 1];
  return next;
}

/** RFC 6962 §2.1.1 audit path for leaf `index`, nearest sibling first. Builds the tree: for many proofs, use MerkleTree. */
export function inclusionProof(leaves: readonly string[], index: number, digest: Tagging): ProofStep[] {
  return new MerkleTree(leaves, digest).proof(index);
}

/**
 * Every level of the RFC 6962 tree over `leaves`, built once (about 2n node hashes), so each inclusion proof is log2(n)
 * look-ups: the graph of every control of a large run proves each of its leaves against one tree.
 */
export class MerkleTree {
  private readonly levels: string[][] = [];

  constructor(leaves: readonly string[], digest: Tagging) {
    let level = leaves.map((leaf) => digest.sha256Tagged(LEAF, leaf));
    this.levels.push(level);
    while (level.length > 1) this.levels.push((level = parentLevel(level, digest)));
  }

  /** The audit path of leaf `index`, nearest sibling first. */
  proof(index: number): ProofStep[] {
    const size = this.levels[0].length;
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf ${index} is outside a tree of ${size}`);
    const proof: ProofStep[] = [];
    let i = index;
    for (const level of this.levels.slice(0, -1)) {
      const sibling = i % 2 === 0 ? i + 1 : i - 1;
      if (sibling < level.length) proof.push({ side: i % 2 === 0 ? 'right' : 'left', hash: level[sibling] });
      i >>= 1;
    }
    return proof;
  }
}

/**
 * The audit paths of the leaves at `indexes` (as MerkleTree.proof gives them), computed level by level while holding
 * one level at a time: for a large tree of which only some paths are wanted (the evidence of one graph), where a
 * MerkleTree would keep every level of a million leaves.
 */
export function merkleProofs(leaves: readonly string[], indexes: Iterable<number>, digest: Tagging): Map<number, ProofStep[]> {
  const proofs = new Map<number, ProofStep[]>();
  for (const index of indexes) {
    if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new RangeError(`leaf ${index} is outside a tree of ${leaves.length}`);
    proofs.set(index, []);
  }
  let level = leaves.map((leaf) => digest.sha256Tagged(LEAF, leaf));
  for (let shift = 0; level.length > 1; shift += 1) {
    for (const [index, proof] of proofs) {
      const i = index >> shift;
      const sibling = i % 2 === 0 ? i + 1 : i - 1;
      if (sibling < level.length) proof.push({ side: i % 2 === 0 ? 'right' : 'left', hash: level[sibling] });
    }
    level = parentLevel(level, digest);
  }
  return proofs;
}

/** Recomputes the root from one leaf digest and its audit path. */
export function rootFromProof(leaf: string, proof: readonly ProofStep[], digest: Tagging): string {
  let hash = digest.sha256Tagged(LEAF, leaf);
  for (const step of proof) hash = step.side === 'left' ? digest.sha256Tagged(NODE, step.hash, hash) : digest.sha256Tagged(NODE, hash, step.hash);
  return hash;
}

/**
 * The same root computed while leaves arrive, holding only the roots of the perfect subtrees so far
 * (at most log2(n) of them): adding a leaf merges equal-sized subtrees, and the root folds what is left
 * from the right, exactly RFC 6962's split at the largest power of two below n.
 */
export class MerkleAccumulator {
  private readonly sizes: number[] = [];
  private readonly roots: string[] = [];
  private count = 0;

  constructor(private readonly digest: Pick<ContentDigest, 'sha256' | 'sha256Tagged'>) {}

  get size(): number {
    return this.count;
  }

  add(leaf: string): void {
    let size = 1;
    let hash = this.digest.sha256Tagged(LEAF, leaf);
    while (this.sizes.length > 0 && this.sizes[this.sizes.length - 1] === size) {
      this.sizes.pop();
      hash = this.digest.sha256Tagged(NODE, this.roots.pop() as string, hash);
      size *= 2;
    }
    this.sizes.push(size);
    this.roots.push(hash);
    this.count += 1;
  }

  root(): string {
    if (this.roots.length === 0) return this.digest.sha256('');
    let hash = this.roots[this.roots.length - 1];
    for (let i = this.roots.length - 2; i >= 0; i--) hash = this.digest.sha256Tagged(NODE, this.roots[i], hash);
    return hash;
  }
}
