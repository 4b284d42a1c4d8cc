import { collectGarbage, noteStreamed } from '../../src/infrastructure/shared/collect-garbage';

/** Makes about `mb` MB of objects that survive long enough to reach V8's old generation, then drops them. */
function garbage(mb: number): void {
  let keep: unknown[] = [];
  for (let i = 0; i < mb * 10_000; i++) keep.push({ text: `garbage ${i} ${'x'.repeat(60)}`, n: [i] });
  keep = [];
  void keep;
}

describe('collectGarbage: a full collection by V8, asked for by the writers of large streams', () => {
  it('frees what is no longer referenced', () => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    garbage(50);
    const grown = process.memoryUsage().heapUsed;
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    expect(grown - before).toBeGreaterThan(20 * 2 ** 20);
    expect(after - before).toBeLessThan((grown - before) / 4);
  });

  it('collects once 128 MiB have been noted, not before', () => {
    collectGarbage();
    noteStreamed(0);
    garbage(50);
    const grown = process.memoryUsage().heapUsed;
    noteStreamed(100 * 2 ** 20);
    expect(process.memoryUsage().heapUsed).toBeGreaterThan(grown - 2 ** 20);
    noteStreamed(28 * 2 ** 20);
    expect(process.memoryUsage().heapUsed).toBeLessThan(grown - 20 * 2 ** 20);
  });
});
