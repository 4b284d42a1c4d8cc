import { collectGarbage, noteStreamed } from '../../src/infrastructure/shared/collect-garbage';

/**
 * A WeakRef to about `mb` MB of objects nothing else holds. A WeakRef keeps its target alive until the job that made it
 * ends, so the caller awaits a turn before collecting. (Heap sizes before and after were compared here once: V8 may
 * collect other garbage of the worker at any allocation, which made them flaky.)
 */
async function unreferenced(mb: number): Promise<WeakRef<object>> {
  const ref = new WeakRef(Array.from({ length: mb * 10_000 }, (_, i) => ({ text: `garbage ${i} ${'x'.repeat(60)}`, n: [i] })));
  await new Promise((resolve) => setImmediate(resolve));
  return ref;
}

describe('collectGarbage: a full collection by V8, asked for by the writers of large streams', () => {
  it('frees what is no longer referenced', async () => {
    const ref = await unreferenced(50);
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
  });

  it('collects once 128 MiB have been noted, not before', async () => {
    collectGarbage();
    noteStreamed(0);
    const ref = await unreferenced(1);
    noteStreamed(100 * 2 ** 20);
    expect(ref.deref()).toBeDefined();
    // deref() keeps the target to the end of this job as well.
    await new Promise((resolve) => setImmediate(resolve));
    noteStreamed(28 * 2 ** 20);
    expect(ref.deref()).toBeUndefined();
  });
});
