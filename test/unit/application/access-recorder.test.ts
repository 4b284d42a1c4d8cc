import { createHash } from 'node:crypto';
import { AccessRecorder, UPKEEP_EVERY_MS, type AccessRefusal } from '../../../src/application/trust/access-recorder';
import type { AccessStore, AccessUpkeep } from '../../../src/ports/access-store';
import { FixedClock } from '../../fakes/fixed-clock';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const request = { principal: 'alice@AGENCY.GOV', agency: 'Agency One', document: 'sdr', outcome: 'served' as const, status: 200 };
const hashing = new PureJsHashing();
/** Lets the recorder's background work (a write, an upkeep) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('AccessRecorder (CDS-TRC-ACL)', () => {
  it('writes a batch once it holds 100 events, stamped with the clock, and the rest on flush', async () => {
    const store = new InMemoryRunStore();
    const recorder = new AccessRecorder(store, new FixedClock(new Date('2026-11-25T10:00:00Z')), hashing);
    for (let i = 0; i < 101; i += 1) recorder.record(request);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.accessLog('2026-11-25', '2026-11-25')).toHaveLength(100);
    await recorder.flush();
    const events = await store.accessLog('2026-11-25', '2026-11-25');
    expect(events).toHaveLength(101);
    expect(events[0]).toEqual({ at: '2026-11-25T10:00:00Z', ...request });
  });

  it('reports a failed write and drops its batch, never failing the request', async () => {
    const failing = {
      appendAccess: async () => Promise.reject(new Error('disk full')),
      pruneAccess: async () => ({ compacted: 0, summarized: 0, raw_days: 0, summary_days: 0 }),
    } as unknown as AccessStore;
    const recorder = new AccessRecorder(failing, new FixedClock(new Date('2026-11-25T10:00:00Z')), hashing);
    const reported: [string, number][] = [];
    recorder.onError = (error, events) => reported.push([(error as Error).message, events]);
    recorder.record(request);
    recorder.record(request);
    await recorder.flush();
    expect(reported).toEqual([['disk full', 2]]);
    await recorder.flush();
    expect(reported).toHaveLength(1);
  });

  it('refuses a bad event alone when it is recorded, before it joins a batch: the others of its batch are all written, and the refusal names its problem, never the name', async () => {
    const store = new InMemoryRunStore();
    const recorder = new AccessRecorder(store, new FixedClock(new Date('2026-11-25T10:00:00Z')), hashing);
    const refused: AccessRefusal[] = [];
    recorder.onRefused = (r) => refused.push(r);
    const errors: unknown[] = [];
    recorder.onError = (error) => errors.push(error);
    const kerberos = `${'k'.repeat(590)}@EVIL.TEST`;
    const override = 'mallory\u202Egnp.exe@EVIL.TEST';
    for (let i = 0; i < 16; i += 1) {
      recorder.record({ ...request, principal: 'bob@AGENCY.GOV' });
      if (i % 4 === 0) recorder.record({ ...request, principal: kerberos, outcome: 'denied', status: 403 });
    }
    recorder.record({ ...request, principal: override });
    recorder.record({ ...request, document: '../../etc/passwd' });
    await recorder.flush();
    expect(errors).toEqual([]);
    expect(await store.accessLog('2026-11-25', '2026-11-25')).toEqual(
      Array.from({ length: 16 }, () => ({ at: '2026-11-25T10:00:00Z', ...request, principal: 'bob@AGENCY.GOV' })),
    );
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(refused).toEqual([
      ...Array.from({ length: 4 }, () => ({
        reason: 'principal is not a name: it is 600 characters long, more than 256',
        principal_length: 600,
        principal_sha256: sha(kerberos),
      })),
      {
        reason: 'principal is not a name: it holds U+202E, a control, format or line-separator character',
        principal_length: 25,
        principal_sha256: sha(override),
      },
      { reason: 'document is not a document name', principal_length: 16, principal_sha256: sha('alice@AGENCY.GOV') },
    ]);
    expect(JSON.stringify(refused)).not.toMatch(/kkkk|mallory|\u202E/);
  });

  it("keeps the log within its retention: an upkeep after the first flush and then at most once an hour, for the clock's today", async () => {
    const store = new InMemoryRunStore();
    const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
    const recorder = new AccessRecorder(store, clock, hashing);
    recorder.retention = { log_days: 2, summary_days: 201 };
    await store.appendAccess([
      { at: '2026-05-08T10:00:00Z', ...request },
      { at: '2026-05-09T10:00:00Z', ...request },
      { at: '2026-11-23T10:00:00Z', ...request },
      { at: '2026-11-24T10:00:00Z', ...request },
    ]);
    const upkeeps: AccessUpkeep[] = [];
    recorder.onUpkeep = (done) => upkeeps.push(done);
    recorder.record(request);
    await recorder.flush();
    await settle();
    // 201 days of summaries from 2026-11-25 reach back to 2026-05-09; 2 days of raw events to 2026-11-24.
    expect(upkeeps).toEqual([{ compacted: 0, summarized: 0, raw_days: 3, summary_days: 1 }]);
    expect((await store.accessLog('2026-01-01', '2026-12-31')).map((e) => e.at)).toEqual(['2026-11-24T10:00:00Z', '2026-11-25T10:00:00Z']);
    expect((await store.accessTallies('2026-05-09')).map((t) => t.served)).toEqual([1]);
    expect(await store.accessTallies('2026-05-08')).toEqual([]);
    await recorder.flush();
    clock.time = new Date(clock.time.getTime() + UPKEEP_EVERY_MS - 1000);
    await recorder.flush();
    await settle();
    expect(upkeeps).toHaveLength(1);
    clock.time = new Date('2026-11-26T11:00:00Z');
    await recorder.flush();
    await settle();
    expect(upkeeps).toEqual([
      { compacted: 0, summarized: 0, raw_days: 3, summary_days: 1 },
      { compacted: 0, summarized: 0, raw_days: 1, summary_days: 1 },
    ]);
  });

  it('reports a failed upkeep with 0 events, and runs one upkeep at a time', async () => {
    let calls = 0;
    let finish: (() => void) | undefined;
    const store = {
      appendAccess: async () => undefined,
      pruneAccess: () => {
        calls += 1;
        return new Promise((_, reject) => (finish = () => reject(new Error('store gone'))));
      },
    } as unknown as AccessStore;
    const recorder = new AccessRecorder(store, new FixedClock(new Date('2026-11-25T10:00:00Z')), hashing);
    const errors: [string, number][] = [];
    recorder.onError = (error, events) => errors.push([(error as Error).message, events]);
    const first = recorder.upkeep();
    expect(recorder.upkeep()).toBe(first);
    finish!();
    expect(await first).toBeUndefined();
    expect([calls, errors]).toEqual([1, [['store gone', 0]]]);
  });
});
