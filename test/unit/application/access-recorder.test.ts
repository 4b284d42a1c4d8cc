import { AccessRecorder } from '../../../src/application/trust/access-recorder';
import type { RunStore } from '../../../src/ports/run-store';
import { FixedClock } from '../../fakes/fixed-clock';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';

const request = { principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'sdr', outcome: 'served' as const, status: 200 };

describe('AccessRecorder (CDS-TRC-ACL)', () => {
  it('writes a batch once it holds 100 events, stamped with the clock, and the rest on flush', async () => {
    const store = new InMemoryRunStore();
    const recorder = new AccessRecorder(store, new FixedClock(new Date('2026-11-25T10:00:00Z')));
    for (let i = 0; i < 101; i += 1) recorder.record(request);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.accessLog('2026-11-25', '2026-11-25')).toHaveLength(100);
    await recorder.flush();
    const events = await store.accessLog('2026-11-25', '2026-11-25');
    expect(events).toHaveLength(101);
    expect(events[0]).toEqual({ at: '2026-11-25T10:00:00Z', ...request });
  });

  it('reports a failed write and drops its batch, never failing the request', async () => {
    const failing = { appendAccess: async () => Promise.reject(new Error('disk full')) } as unknown as RunStore;
    const recorder = new AccessRecorder(failing, new FixedClock(new Date('2026-11-25T10:00:00Z')));
    const reported: [string, number][] = [];
    recorder.onError = (error, events) => reported.push([(error as Error).message, events]);
    recorder.record(request);
    recorder.record(request);
    await recorder.flush();
    expect(reported).toEqual([['disk full', 2]]);
    await recorder.flush();
    expect(reported).toHaveLength(1);
  });
});
