import { collectGarbage, noteStreamed } from '../../src/infrastructure/shared/collect-garbage';

/**
 * About `mb` MB of objects that survive long enough to reach V8's old generation; the caller holds them until the heap
 * is measured, then drops them (dropped before, V8 may collect them before the measurement on its own).
 */
function garbage(mb: number): unknown[] {
  const keep: unknown[] = [];
  for (let i = 0; i < mb * 10_000; i++) keep.push({ text: `garbage ${i} ${'x'.repeat(60)}`, n: [i] });
  return keep;
}

describe('collectGarbage: a full collection by V8, asked for by the writers of large streams', () => {
  it('frees what is no longer referenced', () => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    let held: unknown[] | undefined = garbage(50);
    const grown = process.memoryUsage().heapUsed;
    held = undefined;
    void held;
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    expect(grown - before).toBeGreaterThan(20 * 2 ** 20);
    expect(after - before).toBeLessThan((grown - before) / 4);
  });

  it('collects once 128 MiB have been noted, not before', () => {
    collectGarbage();
    noteStreamed(0);
    let held: unknown[] | undefined = garbage(50);
    const grown = process.memoryUsage().heapUsed;
    held = undefined;
    void held;
    noteStreamed(100 * 2 ** 20);
    expect(process.memoryUsage().heapUsed).toBeGreaterThan(grown - 2 ** 20);
    noteStreamed(28 * 2 ** 20);
    expect(process.memoryUsage().heapUsed).toBeLessThan(grown - 20 * 2 ** 20);
  });
});
