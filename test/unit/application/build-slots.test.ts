import fc from 'fast-check';
import { BuildSlots } from '../../../src/application/shared/build-slots';

/** A build the test finishes when it likes, noting that it began. */
function gate<T>(value: T) {
  let open!: () => void;
  let fail!: (error: unknown) => void;
  const started: string[] = [];
  const until = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  const build = (name: string) => async () => {
    started.push(name);
    await until;
    return value;
  };
  return { build, started, open: () => open(), fail: (error: unknown) => fail(error) };
}

/** Lets queued builds start (each starts on a later turn of the event loop). */
const turns = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('BuildSlots: a few builds at a time, a bounded queue, one build per key under way', () => {
  it('runs at most `running` builds at once, queues `waiting` more in order, and refuses the next with busy', async () => {
    const slots = new BuildSlots({ running: 2, waiting: 2 }, 'documents of OCR snapshots');
    const g = gate('built');
    const answers = ['a', 'b', 'c', 'd'].map((key) => slots.run(key, g.build(key)));
    await turns();
    expect([g.started, slots.load]).toEqual([['a', 'b'], { running: 2, waiting: 2 }]);
    expect(() => slots.run('e', g.build('e'))).toThrow(
      expect.objectContaining({
        kind: 'unavailable',
        code: 'busy',
        message: 'the server is building documents of OCR snapshots (2 at a time, 2 more waiting, the most it queues); retry after the Retry-After seconds',
      }),
    );
    g.open();
    expect(await Promise.all(answers)).toEqual(['built', 'built', 'built', 'built']);
    expect(g.started).toEqual(['a', 'b', 'c', 'd']);
    expect(slots.counts).toEqual({ started: 4, refused: 1, peakRunning: 2 });
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives concurrent askers for one key the one build under way, queued or running, without taking a place in the queue', async () => {
    const slots = new BuildSlots({ running: 1, waiting: 1 }, 'x');
    const g = gate(42);
    const running = [slots.run('a', g.build('a')), slots.run('a', g.build('a again'))];
    const queued = [slots.run('b', g.build('b')), slots.run('b', g.build('b again')), slots.run('b', g.build('b once more'))];
    expect(() => slots.run('c', g.build('c'))).toThrow(expect.objectContaining({ code: 'busy' }));
    g.open();
    expect(await Promise.all([...running, ...queued])).toEqual([42, 42, 42, 42, 42]);
    expect(g.started).toEqual(['a', 'b']);
    // Once it has ended, a key is built again.
    expect(await slots.run('a', async () => 43)).toBe(43);
  });

  it("passes a build's failure to every asker, frees its slot, and tries the key again next time", async () => {
    const slots = new BuildSlots({ running: 1, waiting: 4 }, 'x');
    const g = gate('never');
    const failing = [slots.run('a', g.build('a')), slots.run('a', g.build('a'))];
    const next = slots.run('b', async () => 'b built');
    g.fail(new Error('store went away'));
    await expect(Promise.all(failing)).rejects.toThrow('store went away');
    await expect(failing[1]).rejects.toThrow('store went away');
    expect(await next).toBe('b built');
    expect(await slots.run('a', async () => 'a built')).toBe('a built');
    // A build that throws before its first await is a failed build too.
    await expect(
      slots.run('c', () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('never runs more than `running` at once nor refuses while there is room, whatever the order of arrivals and ends (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.boolean()), { minLength: 1, maxLength: 25 }),
        async (running, waiting, steps) => {
          const slots = new BuildSlots({ running, waiting }, 'x');
          let now = 0;
          let peak = 0;
          const ends: (() => void)[] = [];
          const pending: Promise<unknown>[] = [];
          for (const [key, endOne] of steps) {
            const room = slots.load.running < running || slots.load.waiting < waiting;
            try {
              pending.push(
                slots.run(String(key), () => {
                  now += 1;
                  peak = Math.max(peak, now);
                  return new Promise<void>((resolve) => ends.push(resolve)).finally(() => (now -= 1));
                }),
              );
            } catch (error) {
              // Refused only when full (a key under way is shared, never refused).
              expect([room, (error as { code: string }).code]).toEqual([false, 'busy']);
            }
            if (endOne && ends.length > 0) ends.shift()!();
            await turns();
          }
          while (ends.length > 0 || slots.load.running + slots.load.waiting > 0) {
            ends.shift()?.();
            await turns();
          }
          await Promise.all(pending);
          expect(peak).toBeLessThanOrEqual(running);
          expect(slots.counts.peakRunning).toBeLessThanOrEqual(running);
        },
      ),
      { seed: 42, numRuns: 60 },
    );
  });
});
