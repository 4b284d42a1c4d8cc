import fc from 'fast-check';
import {
  addPiece,
  BaseWindow,
  decodeSpans,
  encodeSpans,
  PIECE_MAX_BYTES,
  PIECE_MIN_BYTES,
  PieceCutter,
  type PieceSpan,
} from '../../src/domain/conmon/content-pieces';
import { PackWriter, PieceFrames, PieceKeys, type PieceFrame, restored, tokenized, writeDocumentPieces } from '../../src/infrastructure/store/piece-packs';
import { SEED } from './bad-input';
import { cut } from './cut';

function piecesOf(chunks: Uint8Array[]): Uint8Array[] {
  const cutter = new PieceCutter();
  return [...chunks.flatMap((chunk) => cutter.push(chunk).map((piece) => Uint8Array.from(piece))), ...cutter.end()];
}

async function* from(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function all(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** JSON-like text: repeated keys and values with some random ones, as a run's documents are. */
const jsonish = fc
  .array(
    fc.record({
      id: fc.nat(5_000),
      text: fc.constantFrom('checked', 'FAIL', 'PASS', 'All settings match the secure baseline.'),
      extra: fc.string({ maxLength: 40 }),
    }),
    { maxLength: 400 },
  )
  .map((items) => Buffer.from(JSON.stringify(items)));

describe('content-defined pieces (issue 35)', () => {
  it('cuts bytes that come in chunks exactly as it cuts them whole: pieces between the minimum and the maximum, the bytes unchanged', () => {
    fc.assert(
      fc.property(
        fc.oneof(jsonish, fc.uint8Array({ maxLength: 20_000 })),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        (bytes, at) => {
          const whole = piecesOf([bytes]);
          const chunked = piecesOf(cut(bytes, at));
          expect(chunked.map((p) => Buffer.from(p).toString('hex'))).toEqual(whole.map((p) => Buffer.from(p).toString('hex')));
          expect(Buffer.concat(whole)).toEqual(Buffer.from(bytes));
          for (const piece of whole.slice(0, -1)) expect(piece.length >= PIECE_MIN_BYTES && piece.length <= PIECE_MAX_BYTES).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('cuts the same pieces around a change as without it: only the pieces near an edit differ', () => {
    const items = Array.from({ length: 2_000 }, (_, i) => ({ observation: i, description: `The evidence entry of KSI-${i % 50}: checked.` }));
    const before = piecesOf([Buffer.from(JSON.stringify(items))]).map((p) => Buffer.from(p).toString('latin1'));
    items[1_000].description = 'Changed: this entry now fails.';
    const after = piecesOf([Buffer.from(JSON.stringify(items))]).map((p) => Buffer.from(p).toString('latin1'));
    const kept = new Set(before);
    expect(after.filter((p) => !kept.has(p)).length).toBeLessThanOrEqual(3);
    expect(before.length).toBeGreaterThan(100);
  });

  it('encodes a piece list and reads it back; refuses bytes it did not write', () => {
    const span = fc.record({ pack: fc.integer({ min: 0, max: 1e9 }), first: fc.integer({ min: 0, max: 1e9 }), count: fc.integer({ min: 1, max: 1e6 }) });
    fc.assert(
      fc.property(fc.array(span, { maxLength: 50 }), fc.boolean(), (spans, ofList) => {
        expect(decodeSpans(encodeSpans(spans, ofList))).toEqual({ spans, ofList });
      }),
      { seed: SEED, numRuns: 300 },
    );
    const good = encodeSpans([{ pack: 3, first: 10, count: 2 }]);
    expect(decodeSpans(good.subarray(0, good.length - 1))).toBeUndefined();
    expect(decodeSpans(Buffer.from('SVCQ\u0001'))).toBeUndefined();
    expect(decodeSpans(Uint8Array.from([...good.subarray(0, 4), 3]))).toBeUndefined();
    expect(decodeSpans(Uint8Array.from([...good.subarray(0, 5), 0, 0, 0]))).toBeUndefined();
    expect(() => encodeSpans([{ pack: 1, first: 0, count: 0 }])).toThrow(RangeError);
  });

  it('joins consecutive pieces of a pack into one span, and encodes a span of the base after another pack in a few bytes', () => {
    const spans: PieceSpan[] = [];
    for (const [pack, index] of [
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
      [1, 4],
      [1, 5],
      [2, 1],
    ])
      addPiece(spans, pack, index);
    expect(spans).toEqual([
      { pack: 1, first: 0, count: 3 },
      { pack: 2, first: 0, count: 1 },
      { pack: 1, first: 4, count: 2 },
      { pack: 2, first: 1, count: 1 },
    ]);
    // Each span after the first: its pack's difference, the gap since that pack's last span, its count: 3 bytes.
    expect(encodeSpans(spans).length).toBe(5 + 4 * 3);
  });

  it("finds a base's pieces near where matching is, its nearest copy first, and forgets those beyond twice its reach", () => {
    const window = new BaseWindow(4);
    const keys = [10, 11, 12, 99, 13, 99, 14, 15, 16, 17, 18, 19, 20];
    keys.forEach((key, index) => window.add({ key, pack: 1, index }));
    // Pieces 0..4 left the window (13 added, 8 kept).
    expect(window.match(10)).toBeUndefined();
    expect(window.match(15)).toEqual({ key: 15, pack: 1, index: 7 });
    // A repeated piece matches its copy at or after where matching is (none: its last copy, the window stays).
    expect(window.match(99)).toEqual({ key: 99, pack: 1, index: 5 });
    expect(window.match(16)).toEqual({ key: 16, pack: 1, index: 8 });
    expect(window.wanted(0)).toBe(9 + 4);
  });

  it('keeps a run id as a token and gives every byte back, however the bytes are chunked, zero bytes and ids across chunks included', async () => {
    const id = 'ab'.repeat(32);
    const bytes = fc
      .array(fc.oneof(fc.uint8Array({ maxLength: 50 }), fc.constant(Buffer.from(id)), fc.constant(Uint8Array.of(0)), fc.constant(Uint8Array.of(0, 1))), {
        maxLength: 30,
      })
      .map((parts) => Buffer.concat(parts));
    await fc.assert(
      fc.asyncProperty(
        bytes,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        async (input, at, again) => {
          const kept = await all(tokenized(from(cut(input, at)), id));
          expect(kept.includes(Buffer.from(id))).toBe(false);
          expect(await all(restored(from(cut(kept, again)), id, () => new Error('undecodable')))).toEqual(input);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    await expect(all(restored(from([Uint8Array.of(65, 0, 2)]), id, () => new Error('undecodable')))).rejects.toThrow('undecodable');
    await expect(all(restored(from([Uint8Array.of(65, 0)]), id, () => new Error('undecodable')))).rejects.toThrow('undecodable');
  });

  describe('packs in memory (the stores keep their frames in a file, or rows)', () => {
    const frames = new Map<number, PieceFrame[]>();
    const source = async (pack: number, index: number) => (frames.get(pack) ?? []).filter((f) => f.first <= index).at(-1);
    const store = new PieceFrames(source, (pack) => new Error(`pack ${pack} does not hold the piece`));
    const keys = new PieceKeys(Buffer.alloc(32, 7));
    const writer = (pack: number) => new PackWriter(pack, async (frame) => void frames.set(pack, [...(frames.get(pack) ?? []), frame]));
    const textOf = (id: string, changed: number) =>
      Buffer.from(JSON.stringify(Array.from({ length: 3_000 }, (_, i) => ({ i, text: i === changed ? 'changed' : 'the same every day', last_run: id }))));
    const read = async (list: Uint8Array, id: string) =>
      all(store.document(await store.documentSpans(list, () => new Error('not a list')), id, () => new Error('not tokenized')));

    it('writes a document as pieces and reads it back; the next version shares all but the pieces around its change', async () => {
      const [first, second] = ['1'.repeat(64), '2'.repeat(64)];
      const one = writer(1);
      const list1 = await writeDocumentPieces(from([textOf(first, -1)]), first, { writer: one, frames: store, keys });
      await one.flush();
      const two = writer(2);
      const list2 = await writeDocumentPieces(from([textOf(second, 1_500)]), second, { writer: two, frames: store, keys }, await store.baseOf(list1));
      await two.flush();
      expect((await read(list1, first)).toString('latin1')).toBe(textOf(first, -1).toString('latin1'));
      expect((await read(list2, second)).toString('latin1')).toBe(textOf(second, 1_500).toString('latin1'));
      expect(one.count).toBeGreaterThan(100);
      expect(two.count).toBeGreaterThan(0);
      expect(two.count).toBeLessThanOrEqual(3);
      // A frame the source does not have is the store's error.
      await expect(read(encodeSpans([{ pack: 9, first: 0, count: 1 }]), first)).rejects.toThrow('pack 9 does not hold the piece');
    });

    it('reads a document whose pieces alternate between one pack and forty others fetching each frame once, keeping no more than four frames of a pack', async () => {
      const piece = (pack: number, i: number) => Buffer.alloc(PIECE_MIN_BYTES, `${pack}:${i};`);
      const written: Promise<void>[] = [];
      const write = (pack: number, count: number) => {
        const w = writer(pack);
        for (let i = 0; i < count; i += 1) w.add(piece(pack, i), keys.of(piece(pack, i)));
        written.push(w.flush());
      };
      write(100, 6_000);
      for (let pack = 10; pack < 50; pack += 1) write(pack, 3);
      await Promise.all(written);
      expect(frames.get(100)!.length).toBeGreaterThan(4);
      // Piece i of pack 100, and after every tenth a piece of one of the forty packs, the forty in turn.
      const spans: PieceSpan[] = [];
      const expected: Buffer[] = [];
      for (let i = 0; i < 6_000; i += 1) {
        addPiece(spans, 100, i);
        expected.push(piece(100, i));
        if (i % 10 === 9) {
          const [pack, index] = [10 + (((i / 10) % 40) | 0), ((i / 400) % 3) | 0];
          addPiece(spans, pack, index);
          expected.push(piece(pack, index));
        }
      }
      const fetched = new Map<string, number>();
      const counting = new PieceFrames(
        async (pack, index) => {
          const frame = await source(pack, index);
          const name = `${pack}/${frame?.first}`;
          fetched.set(name, (fetched.get(name) ?? 0) + 1);
          return frame;
        },
        (pack) => new Error(`pack ${pack} does not hold the piece`),
      );
      expect((await all(counting.bytes(spans))).equals(Buffer.concat(expected))).toBe(true);
      expect(fetched.size).toBe(frames.get(100)!.length + 40);
      expect([...fetched.values()].every((times) => times === 1)).toBe(true);
      // Of one pack it keeps four frames (pack 100 has more): read again in order, each of its frames is fetched once more.
      fetched.clear();
      await all(counting.bytes([{ pack: 100, first: 0, count: 6_000 }]));
      expect(Object.fromEntries(fetched)).toEqual(Object.fromEntries(frames.get(100)!.map((f) => [`100/${f.first}`, 1])));
    });

    it('gives a document its own frames when asked (the evidence bundle, read whole from every pack of a year)', async () => {
      const w = writer(7);
      const text = (seed: number, kib: number) =>
        Buffer.from(Array.from({ length: kib * 16 }, (_, i) => `${seed}:${i.toString(36).padStart(60, '.')}\n`).join(''));
      const id = '7'.repeat(64);
      const lists: Uint8Array[] = [];
      for (const [seed, kib, ownFrames] of [
        [1, 8, false],
        [2, 20, true],
        [3, 8, false],
      ] as const) {
        lists.push(await writeDocumentPieces(from([text(seed, kib)]), id, { writer: w, frames: store, keys }, undefined, { ownFrames }));
      }
      await w.flush();
      // Three frames: the first document's pieces, the second's alone, the third's.
      const spans = await Promise.all(lists.map((list) => store.documentSpans(list, () => new Error('not a list'))));
      const firsts = frames.get(7)!.map((f) => f.first);
      expect(firsts).toEqual([0, spans[1][0].first, spans[2][0].first]);
      expect((await read(lists[1], id)).equals(text(2, 20))).toBe(true);
    });

    it('reports a sink that fails on the next pace or flush, and hands no frame after it', async () => {
      let handed = 0;
      const failing = new PackWriter(3, async () => {
        handed += 1;
        throw new Error('disk full');
      });
      for (let i = 0; i < 2_000; i += 1) failing.add(Buffer.alloc(512, i % 251), Buffer.alloc(8, i % 7));
      await expect(failing.flush()).rejects.toThrow('disk full');
      expect(handed).toBe(1);
    });
  });
});
