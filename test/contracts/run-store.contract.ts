import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { StoredRun } from '../../src/domain/conmon/run-record';
import { IntegrityError, InvalidInputError } from '../../src/domain/errors';
import type { AppendDecision, OpenedDocument, RunStore, RunView } from '../../src/ports/run-store';
import type { JournalStore } from '../../src/ports/journal-store';
import { bundleTextFor, recordFor, runIdOf, runIdWithBundle, storedRunFor, type StoredRunOverrides } from '../support/stored-runs';
import { MAX_RAW_DENIALS, tallyAccess, type AccessEvent } from '../../src/domain/trust/access-log';
import type { AccessStore } from '../../src/ports/access-store';

/**
 * What a test changes behind the store's back: one record of a run (its canonical record, its summary, its POA&M
 * state, its events), its link in the hash chain, the chain head, or the latest run removed altogether.
 */
export type TamperTarget = 'record' | 'summary' | 'poam' | 'events' | 'link' | 'head' | 'latest-removed' | 'document' | 'document-list' | 'kept-list';

/**
 * What a test changes in the journal behind the store's back, given entry `seq` of a journal of three or more:
 * `record` its record's `by` (`alice@agency.example` → `mallory@agency.example`), `removed` the entry, `swapped` it
 * and the entry after it, `inserted` a copy of it put after it, `latest-removed` the entry (the latest), `head` the
 * hash the store keeps of its latest entry.
 */
export type JournalTamperTarget = 'record' | 'removed' | 'swapped' | 'inserted' | 'latest-removed' | 'head';

export interface RunStoreHarness {
  /** An empty store, which keeps the access log too (ports/access-store.ts). */
  store: RunStore & JournalStore & AccessStore;
  /** A second store on the same data, as another process would open it; the test closes it. */
  twin(): RunStore & JournalStore & AccessStore;
  /**
   * Changes `target` of run `run` (for `head` and `latest-removed`: of the store, whose latest run is `run`) behind
   * the store's back, as a person editing a file or running UPDATE would, and returns the text the store's
   * run-store-tampered message must contain: where the change is and which record it is. `document` changes a byte of
   * the run's stored document `sar.json`; `document-list` the digest its document list gives for it; `kept-list` the
   * digest its kept documents (keptDocuments: those a year of runs reads) give for `manifest.json`.
   */
  tamper(target: TamperTarget, run: { id: string; seq: number }): Promise<string>;
  /** Changes the journal as `target` says, and returns the text the store's run-store-tampered message must contain. */
  tamperJournal(target: JournalTamperTarget, seq: number): Promise<string>;
  /** Closes `store` and removes what the harness made. */
  cleanup(): Promise<void>;
}

interface Decided {
  id: string;
  decide: AppendDecision;
  /** What decide was called with, in order. */
  calls: { latest: StoredRun | undefined; seq: number }[];
  /** What decide returned last. */
  returned?: StoredRun;
}

/** Run n of the test history, with a decide that records its calls and returns a complete StoredRun. */
function runNumber(n: number, overrides: StoredRunOverrides = {}): Decided {
  const record = recordFor(n);
  const run: Decided = {
    id: runIdOf(record),
    calls: [],
    decide: (latest, seq) => {
      run.calls.push({ latest, seq });
      run.returned = storedRunFor(run.id, seq, { record, ...overrides });
      return run.returned;
    },
  };
  return run;
}

/** What every RUN_STORE must do: content-addressed, append-only, serialized appends, tamper-evident reads. */
export function runStoreContract(name: string, make: () => Promise<RunStoreHarness>): void {
  describe(`${name} (RUN_STORE contract)`, () => {
    let h: RunStoreHarness;
    let store: RunStore & JournalStore & AccessStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    async function appendAll(...runs: Decided[]): Promise<void> {
      for (const run of runs) await store.append(run.id, run.decide);
    }

    const ids = async (found: Promise<{ id: string }[]>) => (await found).map((summary) => summary.id);

    it('starts empty', async () => {
      expect(await store.list()).toEqual([]);
      expect(await store.latest()).toBeUndefined();
      expect(await store.get(runNumber(1).id)).toBeUndefined();
      expect(await store.get(1)).toBeUndefined();
    });

    it('gives the first run seq 1, deciding it with no latest run', async () => {
      const first = runNumber(1);
      const outcome = await store.append(first.id, first.decide);
      expect(first.calls).toEqual([{ latest: undefined, seq: 1 }]);
      expect(outcome).toEqual({ recorded: true, run: first.returned });
      expect(await store.list()).toEqual([first.returned?.summary]);
      expect(await store.latest()).toEqual(first.returned);
    });

    it('decides the second run from the first as stored, with seq 2', async () => {
      const [first, second] = [runNumber(1), runNumber(2)];
      await appendAll(first, second);
      expect(second.calls).toHaveLength(1);
      expect(second.calls[0].seq).toBe(2);
      expect(second.calls[0].latest).toStrictEqual(first.returned);
      expect(await store.latest()).toStrictEqual(second.returned);
    });

    it('returns the stored run for an id already recorded, without deciding or writing', async () => {
      const [first, second] = [runNumber(1), runNumber(2)];
      await appendAll(first, second);
      const again = runNumber(1);
      const outcome = await store.append(again.id, again.decide);
      expect(again.calls).toEqual([]);
      expect(outcome).toStrictEqual({ recorded: false, run: first.returned });
      expect(await ids(store.list())).toEqual([first.id, second.id]);
      expect((await store.latest())?.summary.id).toBe(second.id);
    });

    it('records an id appended twice at once only once', async () => {
      const [a, b] = [runNumber(1), runNumber(1)];
      const outcomes = await Promise.all([store.append(a.id, a.decide), store.append(b.id, b.decide)]);
      expect(outcomes.map((o) => o.recorded).sort()).toEqual([false, true]);
      expect(a.calls.length + b.calls.length).toBe(1);
      expect(outcomes[0].run).toStrictEqual(outcomes[1].run);
      expect(await store.list()).toHaveLength(1);
    });

    it('gets a run by id and by seq, and nothing for unknown ones', async () => {
      const [first, second] = [runNumber(1), runNumber(2)];
      await appendAll(first, second);
      expect(await store.get(first.id)).toStrictEqual(first.returned);
      expect(await store.get(second.id.toUpperCase())).toStrictEqual(second.returned);
      expect(await store.get(1)).toStrictEqual(first.returned);
      expect(await store.get(2)).toStrictEqual(second.returned);
      expect(await store.get('2')).toStrictEqual(second.returned);
      expect(await store.get(runNumber(3).id)).toBeUndefined();
      expect(await store.get(3)).toBeUndefined();
      expect(await store.get(0)).toBeUndefined();
      expect(await store.get('not-a-run')).toBeUndefined();
    });

    it('lists summaries in seq order', async () => {
      const runs = [runNumber(3), runNumber(1), runNumber(2)];
      await appendAll(...runs);
      const listed = await store.list();
      expect(listed.map((s) => s.seq)).toEqual([1, 2, 3]);
      expect(listed.map((s) => s.id)).toEqual(runs.map((r) => r.id));
      expect(listed).toStrictEqual(runs.map((r) => r.returned?.summary));
    });

    it('lists the runs whose as_of is within inclusive bounds, compared as instants whatever their offsets', async () => {
      const runs = [
        runNumber(1, { summary: { as_of: '2026-01-15T12:00:00Z' } }),
        runNumber(2, { summary: { as_of: '2026-02-15T13:00:00+01:00' } }),
        runNumber(3, { summary: { as_of: '2026-03-15T12:00:00.000Z' } }),
      ];
      await appendAll(...runs);
      const [jan, feb, mar] = runs.map((r) => r.id);
      // Run 2's instant is 2026-02-15T12:00:00Z; as strings these bounds would all exclude it.
      expect(await ids(store.list({ from: '2026-02-15T14:00:00+02:00' }))).toEqual([feb, mar]);
      expect(await ids(store.list({ to: '2026-02-15T12:00:00Z' }))).toEqual([jan, feb]);
      expect(await ids(store.list({ from: '2026-02-15T14:00:00+02:00', to: '2026-02-15T12:00:00.000Z' }))).toEqual([feb]);
      expect(await ids(store.list({ from: '2026-02-15T12:00:00.001Z' }))).toEqual([mar]);
      expect(await ids(store.list({ from: '2026-01-15', to: '2026-03-15T07:00:00-05:00' }))).toEqual([jan, feb, mar]);
      expect(await store.list({ from: '2026-04-01' })).toEqual([]);
      expect((await store.list({ to: '2026-02-15T12:00:00Z' }))[1]).toStrictEqual(runs[1].returned?.summary);
    });

    it('refuses a bound that is not a time', async () => {
      const refused = store.list({ from: 'last tuesday' });
      await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
      await expect(refused).rejects.toMatchObject({ code: 'bad-run-range' });
    });

    it('gives back exactly what was stored: events, POA&M items, absent optional fields still absent', async () => {
      const first = runNumber(1);
      await appendAll(first);
      const got = await store.get(first.id);
      expect(got).toStrictEqual(first.returned);
      expect(got?.poam.map((item) => 'completion_date' in item)).toEqual([false, true]);
      expect(got?.events.map((event) => event.kind)).toEqual(['run.recorded', 'poam.opened']);
      expect(got?.events[1].data).toStrictEqual({ risk_rating: 'High', scheduled_completion_date: '2026-12-02', note: null });
      expect(runIdOf(got!.record)).toBe(first.id);
    });

    it('leaves the store as it was when decide throws, and the next append takes the seq', async () => {
      const first = runNumber(1);
      await appendAll(first);
      const failure = new Error('decide failed');
      await expect(
        store.append(runNumber(2).id, () => {
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await ids(store.list())).toEqual([first.id]);
      expect(await store.latest()).toStrictEqual(first.returned);
      const second = runNumber(2);
      await store.append(second.id, second.decide);
      expect(second.calls.map((c) => c.seq)).toEqual([2]);
    });

    it('decides a run already recorded, before or earlier in the same appendAll, no more: it is given as found', async () => {
      const [first, second] = [runNumber(1), runNumber(2)];
      await appendAll(first);
      const again = runNumber(1);
      const twice = runNumber(2);
      const appended = await store.appendAll([again, second, twice].map((r) => ({ id: r.id, decide: r.decide })));
      expect([again.calls, twice.calls]).toEqual([[], []]);
      expect(appended).toStrictEqual([
        { recorded: false, summary: first.returned?.summary },
        { recorded: true, summary: second.returned?.summary },
        { recorded: false, summary: second.returned?.summary },
      ]);
      expect(await ids(store.list())).toEqual([first.id, second.id]);
      expect(await store.appendAll([])).toEqual([]);
    });

    it('serializes an appendAll with appends of another instance: its runs keep their order and none is decided from a stale latest', async () => {
      const twin = h.twin();
      try {
        const batch = [runNumber(1), runNumber(2), runNumber(3)];
        const alone = [runNumber(4), runNumber(5)];
        await Promise.all([store.appendAll(batch.map((r) => ({ id: r.id, decide: r.decide }))), ...alone.map((r) => twin.append(r.id, r.decide))]);
        const all = [...batch, ...alone];
        expectChain(all);
        const seqs = batch.map((r) => r.calls[0].seq);
        expect(seqs).toEqual([seqs[0], seqs[0] + 1, seqs[0] + 2]);
      } finally {
        await twin.close();
      }
    });

    it('refuses a decided run whose seq or id is not the one asked for, writing nothing', async () => {
      const first = runNumber(1);
      await expect(store.append(first.id, (_latest, seq) => storedRunFor(first.id, seq + 1, { record: recordFor(1) }))).rejects.toThrow(
        /expected run .* with seq 1/,
      );
      await expect(store.append(first.id, (_latest, seq) => storedRunFor(runNumber(2).id, seq, { record: recordFor(1) }))).rejects.toThrow(/expected run/);
      await expect(store.append(first.id, (_latest, seq) => storedRunFor(first.id, seq, { record: recordFor(2) }))).rejects.toThrow(/whose id is/);
      expect(await store.list()).toEqual([]);
    });

    it('serializes two appends at once: seqs 1 and 2, the second decided from the first', async () => {
      const runs = [runNumber(1), runNumber(2)];
      await Promise.all(runs.map((r) => store.append(r.id, r.decide)));
      expectChain(runs);
      expect(await ids(store.list())).toEqual(bySeq(runs).map((r) => r.id));
    });

    it('serializes appends of two store instances on the same data', async () => {
      const twin = h.twin();
      try {
        const runs = [runNumber(1), runNumber(2), runNumber(3), runNumber(4)];
        await Promise.all(runs.map((r, i) => (i % 2 ? twin : store).append(r.id, r.decide)));
        expectChain(runs);
        expect(await ids(twin.list())).toEqual(await ids(store.list()));
        expect(await twin.latest()).toStrictEqual(bySeq(runs)[3].returned);
      } finally {
        await twin.close();
      }
    });

    it('serializes ten appends at once: seqs 1 to 10, each decided from the one before', async () => {
      const runs = Array.from({ length: 10 }, (_, i) => runNumber(i + 1));
      await Promise.all(runs.map((r) => store.append(r.id, r.decide)));
      expectChain(runs);
      expect((await store.list()).map((s) => s.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('detects a stored run changed outside the store', async () => {
      const [first, second] = [runNumber(1), runNumber(2)];
      await appendAll(first, second);
      await h.tamper('record', { id: second.id, seq: 2 });
      for (const read of [() => store.get(second.id), () => store.get(2), () => store.latest()]) {
        await expect(read()).rejects.toBeInstanceOf(IntegrityError);
        await expect(read()).rejects.toMatchObject({
          code: 'run-store-tampered',
          message: expect.stringContaining(`the hash chain does not match the record of run 2 (${second.id})`),
        });
      }
      const third = runNumber(3);
      await expect(store.append(third.id, third.decide)).rejects.toMatchObject({ code: 'run-store-tampered' });
      expect(third.calls).toEqual([]);
      expect(await store.get(first.id)).toStrictEqual(first.returned);
    });

    describe('documents stored with a run', () => {
      // More than a mebibyte in small pieces, so stores write and read it in several parts.
      const sar = Array.from({ length: 30_000 }, (_, i) => `{"observation":${i},"text":"${'x'.repeat(30)}"}`);
      const sarText = `[${sar.join(',')}]`;
      const envelope = new TextEncoder().encode('{"payloadType":"application/vnd.in-toto+json"}');
      const produce = () => [
        { name: 'sar.json', media_type: 'application/json', chunks: ['[', ...sar.flatMap((piece, i) => (i === 0 ? [piece] : [',', piece])), ']'] },
        // Given the documents written before it, as a manifest is.
        {
          name: 'manifest.json',
          media_type: 'application/json',
          chunks: (before: readonly { name: string }[]) =>
            (async function* () {
              yield JSON.stringify(before.map((d) => d.name));
            })(),
        },
        { name: 'sar.json.dsse.json', media_type: 'application/vnd.dsse.envelope.v1+json', chunks: [envelope] },
      ];
      const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
      async function bytesOf(opened: { chunks: AsyncIterable<Uint8Array> } | undefined): Promise<string> {
        const parts: Buffer[] = [];
        for await (const chunk of opened!.chunks) parts.push(Buffer.from(chunk));
        return Buffer.concat(parts).toString('utf8');
      }

      it('prunes: journals the plan first, removes the planned runs’ documents but the kept ones, reads them as pruned, and keeps the rest (issue 35)', async () => {
        const runs = [runNumber(1), runNumber(2), runNumber(3)];
        for (const run of runs) await store.append(run.id, run.decide, produce);
        const plan = { keep_days: 31, before: '2026-11-01T00:00:00Z', kept: ['manifest.json'], runs: [{ seq: 1, id: runs[0].id }] };
        let seen: unknown;
        const outcome = await store.prune((summaries, journal) => {
          seen = { runs: summaries.map((r) => r.seq), journal: journal.length };
          return plan;
        }, '2026-12-01T00:00:00Z');
        expect(seen).toEqual({ runs: [1, 2, 3], journal: 0 });
        expect(outcome).toMatchObject({
          entry: { seq: 1, kind: 'run-prune', recorded_at: '2026-12-01T00:00:00Z', record: plan },
          documents: 2,
          bytes: Buffer.byteLength(sarText) + envelope.length,
        });
        expect(await store.journal('run-prune')).toEqual([outcome.entry]);
        for (const reader of [store, h.twin()]) {
          for (const name of ['sar.json', 'sar.json.dsse.json']) {
            await expect(bytesOf(await reader.openDocument(1, name))).rejects.toMatchObject({
              code: 'run-pruned',
              message: expect.stringContaining(
                `: ${name} of run 1 (${runs[0].id}) was pruned on 2026-12-01T00:00:00Z (conmon.retention.keep_days 31, journal entry 1); the run's summary, chain link, POA&M state, events, KSI counts and manifest are kept`,
              ),
            });
          }
          expect(await bytesOf(await reader.openDocument(1, 'manifest.json'))).toBe('["sar.json"]');
          expect(await bytesOf(await reader.openDocument(2, 'sar.json'))).toBe(sarText);
          // The run itself reads as before: its summary, state and events, its document list.
          expect((await reader.get(1))?.poam).toStrictEqual(runs[0].returned!.poam);
          expect((await reader.get(1))?.documents?.map((d) => d.name)).toEqual(['manifest.json', 'sar.json', 'sar.json.dsse.json']);
          if (reader !== store) await reader.close();
        }
        // Nothing left to prune: no entry, nothing removed; runs keep being appended after it.
        expect(await store.prune(() => undefined, '2026-12-02T00:00:00Z')).toEqual({ documents: 0, bytes: 0 });
        const fourth = runNumber(4);
        await store.append(fourth.id, fourth.decide, produce);
        expect((await store.list()).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      });

      it('stores what produce gives with the run, lists it by name, and streams each back byte for byte', async () => {
        const first = runNumber(1);
        const outcome = await store.append(first.id, first.decide, produce);
        const listed = [
          { name: 'manifest.json', media_type: 'application/json', sha256: sha('["sar.json"]'), bytes: 12 },
          { name: 'sar.json', media_type: 'application/json', sha256: sha(sarText), bytes: Buffer.byteLength(sarText) },
          { name: 'sar.json.dsse.json', media_type: 'application/vnd.dsse.envelope.v1+json', sha256: sha(envelope), bytes: envelope.length },
        ];
        expect(Buffer.byteLength(sarText)).toBeGreaterThan(1 << 20);
        expect(outcome.run.documents).toEqual(listed);
        expect((await store.get(1))?.documents).toEqual(listed);
        expect((await store.latest())?.documents).toEqual(listed);
        expect(await bytesOf(await store.openDocument(first.id, 'sar.json'))).toBe(sarText);
        expect(await bytesOf(await store.openDocument(1, 'sar.json.dsse.json'))).toBe(new TextDecoder().decode(envelope));
        expect((await store.openDocument(1, 'manifest.json'))?.document).toEqual(listed[0]);
        expect(await store.openDocument(1, 'ssp.json')).toBeUndefined();
        expect(await store.openDocument(2, 'sar.json')).toBeUndefined();
        // A second instance, as another process, reads the same.
        const twin = h.twin();
        expect(await bytesOf(await twin.openDocument(1, 'sar.json'))).toBe(sarText);
        await twin.close();
      });

      it('records several runs in one transaction: each decided from the one before, which its view reads whole, documents too, while no other reader sees any', async () => {
        const runs = [runNumber(1), runNumber(2), runNumber(3)];
        const seen: { committed: number; view: number[]; sar: string; latest?: string }[] = [];
        const appended = await store.appendAll(
          runs.map((r) => ({
            id: r.id,
            decide: async (latest: StoredRun | undefined, seq: number, view: RunView) => {
              const previous = (await view.list()).at(-1);
              seen.push({
                committed: (await store.list()).length,
                view: (await view.list()).map((summary) => summary.seq),
                sar: previous === undefined ? '' : await bytesOf(await view.openDocument(previous.id, 'sar.json')),
                ...(previous === undefined ? {} : { latest: (await view.latest())?.summary.id }),
              });
              expect(await view.get(seq)).toBeUndefined();
              return r.decide(latest, seq, view);
            },
            produce,
          })),
        );
        expect(runs.map((r) => [r.calls.length, r.calls[0].seq, r.calls[0].latest?.summary.id])).toEqual([
          [1, 1, undefined],
          [1, 2, runs[0].id],
          [1, 3, runs[1].id],
        ]);
        expect(seen.map(({ sar, ...rest }) => ({ ...rest, sar: sar === sarText }))).toEqual([
          { committed: 0, view: [], sar: false },
          { committed: 0, view: [1], sar: true, latest: runs[0].id },
          { committed: 0, view: [1, 2], sar: true, latest: runs[1].id },
        ]);
        expect(appended).toStrictEqual(runs.map((r) => ({ recorded: true, summary: r.returned?.summary })));
        expect(await ids(store.list())).toEqual(runs.map((r) => r.id));
        expect(await bytesOf(await store.openDocument(3, 'sar.json'))).toBe(sarText);
      });

      it('records none of several runs when one fails, whether its decision, its producer or the requests themselves throw; the next append takes the seq', async () => {
        const first = runNumber(1);
        await store.append(first.id, first.decide, produce);
        const failure = new Error('the third report is unreadable');
        const failing = [
          function* () {
            yield { id: runNumber(2).id, decide: runNumber(2).decide, produce };
            yield { id: runNumber(3).id, decide: runNumber(3).decide, produce };
            yield {
              id: runNumber(4).id,
              decide: () => {
                throw failure;
              },
            };
          },
          function* () {
            yield { id: runNumber(2).id, decide: runNumber(2).decide, produce };
            yield {
              id: runNumber(3).id,
              decide: runNumber(3).decide,
              produce: () => {
                throw failure;
              },
            };
          },
          async function* () {
            yield { id: runNumber(2).id, decide: runNumber(2).decide, produce };
            throw failure;
          },
        ];
        for (const requests of failing) {
          await expect(store.appendAll(requests())).rejects.toBe(failure);
          expect(await ids(store.list())).toEqual([first.id]);
          expect(await store.get(2)).toBeUndefined();
        }
        const second = runNumber(2);
        expect(await store.appendAll([{ id: second.id, decide: second.decide, produce }])).toStrictEqual([
          { recorded: true, summary: second.returned?.summary },
        ]);
        expect(second.calls.map((c) => c.seq)).toEqual([2]);
        expect(await bytesOf(await store.openDocument(2, 'sar.json'))).toBe(sarText);
      });

      it('stores the evidence bundle as a document, and holds the id to the record with that bundle as its bundle', async () => {
        const record = recordFor(1);
        const bundleText = bundleTextFor(1);
        // Several chunks, split inside a multi-byte character's neighbourhood as a writer's pieces fall.
        const pieces = [bundleText.slice(0, 17), bundleText.slice(17, 90), bundleText.slice(90)];
        const withBundle = () => [{ name: 'evidence-bundle.json', media_type: 'application/json', chunks: pieces }];
        const wrongId = runIdOf(record);
        await expect(store.append(wrongId, (_latest, seq) => storedRunFor(wrongId, seq, { record }), withBundle)).rejects.toThrow(/whose id is/);
        expect(await store.list()).toEqual([]);
        const id = runIdWithBundle(record, bundleText);
        const outcome = await store.append(id, async (_latest, seq) => storedRunFor(id, seq, { record }), withBundle);
        expect(outcome.run.summary.id).toBe(id);
        expect((await store.get(id))?.record).toEqual(record);
        const opened = await store.openDocument(1, 'evidence-bundle.json');
        expect(opened?.document).toEqual({
          name: 'evidence-bundle.json',
          media_type: 'application/json',
          sha256: sha(bundleText),
          bytes: Buffer.byteLength(bundleText),
        });
        expect(await bytesOf(opened)).toBe(bundleText);
      });

      it('records a run without documents when nothing is produced', async () => {
        const first = runNumber(1);
        const outcome = await store.append(first.id, first.decide);
        expect(outcome.run.documents).toBeUndefined();
        expect(await store.openDocument(1, 'sar.json')).toBeUndefined();
      });

      it('records nothing when producing fails, or a name is not plain, and the next append takes seq 1', async () => {
        const first = runNumber(1);
        await expect(
          store.append(first.id, first.decide, () => {
            throw new Error('no key');
          }),
        ).rejects.toThrow('no key');
        const failing = async function* () {
          yield 'half';
          throw new Error('renderer failed');
        };
        await expect(store.append(first.id, first.decide, () => [{ name: 'sar.json', media_type: 'application/json', chunks: failing() }])).rejects.toThrow(
          'renderer failed',
        );
        for (const name of ['../x.json', 'SAR.json', 'a/b', '', 'sar.json.br']) {
          await expect(store.append(first.id, first.decide, () => [{ name, media_type: 'text/plain', chunks: ['x'] }])).rejects.toMatchObject({
            code: 'bad-document-name',
          });
        }
        expect(await store.list()).toEqual([]);
        const outcome = await store.append(first.id, first.decide, produce);
        expect([outcome.run.summary.seq, outcome.run.documents?.length]).toEqual([1, 3]);
      });

      it('detects a stored document changed, when it is read to its end, naming it', async () => {
        const [first, second] = [runNumber(1), runNumber(2)];
        await store.append(first.id, first.decide, produce);
        await store.append(second.id, second.decide, produce);
        const named = await h.tamper('document', { id: second.id, seq: 2 });
        await expect(bytesOf(await store.openDocument(2, 'sar.json'))).rejects.toMatchObject({
          code: 'run-store-tampered',
          message: expect.stringContaining(named),
        });
        expect(await bytesOf(await store.openDocument(1, 'sar.json'))).toBe(sarText);
      });

      it('detects the document list of a run changed, naming it, on every read of the run', async () => {
        const [first, second] = [runNumber(1), runNumber(2)];
        await store.append(first.id, first.decide, produce);
        await store.append(second.id, second.decide, produce);
        const named = await h.tamper('document-list', { id: second.id, seq: 2 });
        for (const read of [() => store.get(2), () => store.openDocument(2, 'sar.json')]) {
          await expect(read()).rejects.toMatchObject({ code: 'run-store-tampered', message: expect.stringContaining(named) });
        }
        expect((await store.get(1))?.documents).toHaveLength(3);
        // A kept document (its manifest) is opened through the run's kept documents, which its link names on their own
        // (issue 35: a year of runs is read without each run's whole list); its own bytes are still checked.
        const manifest = await store.openDocument(2, 'manifest.json');
        expect(manifest?.document).toEqual({ name: 'manifest.json', media_type: 'application/json', sha256: sha('["sar.json"]'), bytes: 12 });
        expect(await bytesOf(manifest)).toBe('["sar.json"]');
      });

      it('detects the kept documents of a run changed, naming them, when one is opened', async () => {
        const [first, second] = [runNumber(1), runNumber(2)];
        await store.append(first.id, first.decide, produce);
        await store.append(second.id, second.decide, produce);
        const named = await h.tamper('kept-list', { id: second.id, seq: 2 });
        await expect(store.openDocument(2, 'manifest.json')).rejects.toMatchObject({ code: 'run-store-tampered', message: expect.stringContaining(named) });
        expect(await bytesOf(await store.openDocument(1, 'manifest.json'))).toBe('["sar.json"]');
        expect(await bytesOf(await store.openDocument(2, 'sar.json'))).toBe(sarText);
      });

      it('opens a document of many runs at once as it opens each, checked the same way (issue 35: a year of KSI counts)', async () => {
        const runs = [runNumber(1), runNumber(2), runNumber(3)];
        for (const run of runs) await store.append(run.id, run.decide, produce);
        const texts = async (opened: (OpenedDocument | undefined)[]) => Promise.all(opened.map((o) => (o === undefined ? undefined : bytesOf(o))));
        const keys = [runs[2].id, 'f'.repeat(64), runs[0].id, 2];
        for (const name of ['manifest.json', 'sar.json', 'missing.json']) {
          for (const together of [
            await store.openDocuments(keys, name),
            await store.openDocuments(keys.slice(0, 3), name),
            await (await store.reader()).openDocuments(keys, name),
          ]) {
            const each = await Promise.all(keys.slice(0, together.length).map((key) => store.openDocument(key, name)));
            expect(together.map((o) => o?.document)).toEqual(each.map((o) => o?.document));
            expect(await texts(together)).toEqual(await texts(each));
          }
        }
        expect(await texts(await store.openDocuments([runs[0].id, runs[2].id], 'manifest.json'))).toEqual(['["sar.json"]', '["sar.json"]']);
        const changed = await h.tamper('document', { id: runs[2].id, seq: 3 });
        const [third] = await store.openDocuments([runs[2].id], 'sar.json');
        await expect(bytesOf(third)).rejects.toMatchObject({ code: 'run-store-tampered', message: expect.stringContaining(changed) });
        const named = await h.tamper('kept-list', { id: runs[1].id, seq: 2 });
        await expect(store.openDocuments([runs[0].id, runs[1].id], 'manifest.json')).rejects.toMatchObject({
          code: 'run-store-tampered',
          message: expect.stringContaining(named),
        });
      });
    });

    describe('the access log (CDS-TRC-ACL)', () => {
      const event = (at: string, over: Partial<AccessEvent> = {}): AccessEvent => ({
        at,
        principal: 'alice@AGENCY.GOV',
        agency: 'Agency One',
        document: 'sdr',
        outcome: 'served',
        status: 200,
        ...over,
      });
      const denial = (at: string, principal: string, over: Partial<AccessEvent> = {}): AccessEvent => ({
        at,
        principal,
        document: 'cpo',
        outcome: 'denied',
        status: 403,
        ...over,
      });
      /** A 600-character Kerberos principal: authentication refuses it, and so does the log. */
      const KERBEROS = `${'k'.repeat(590)}@EVIL.TEST`;

      it('is empty before the first access', async () => {
        expect(await store.accessLog('2026-01-01', '2026-12-31')).toEqual([]);
        expect(await store.accessTallies('2026-11-25')).toEqual([]);
      });

      it('keeps every event as given, per day in the order logged, and gives the days asked for', async () => {
        const a = event('2026-11-24T23:59:59Z');
        const b = event('2026-11-25T00:00:00Z', { principal: 'bob@contractor.example', agency: undefined, document: 'access', outcome: 'denied', status: 403 });
        const c = event('2026-11-25T08:00:00Z', { document: 'cpo' });
        const d = denial('2026-11-25T09:00:00Z', 'DOE.JOHN.1234567890', { federal: true });
        await store.appendAccess([a, b]);
        await store.appendAccess([c, d]);
        const { agency: _none, ...withoutAgency } = b;
        expect(await store.accessLog('2026-11-24', '2026-11-25')).toEqual([a, withoutAgency, c, d]);
        expect(await store.accessLog('2026-11-25', '2026-11-25')).toEqual([withoutAgency, c, d]);
        expect(await store.accessLog('2026-11-26', '2027-01-01')).toEqual([]);
        const twin = h.twin();
        expect(await twin.accessLog('2026-11-24', '2026-11-24')).toEqual([a]);
        await twin.close();
      });

      it('summarizes each day as events are appended, across batches and stores: counts, first and last, first and last denial, the federal flag apart', async () => {
        const batches = [
          [
            event('2026-11-25T10:00:00Z'),
            event('2026-11-25T09:00:00Z', { outcome: 'denied', status: 403 }),
            denial('2026-11-25T08:00:00Z', 'zoe@treasury.gov'),
          ],
          [event('2026-11-25T11:00:00Z', { outcome: 'denied', status: 403 }), denial('2026-11-25T12:00:00Z', 'DOE.JOHN.1234567890', { federal: true })],
          [denial('2026-11-25T07:00:00Z', 'DOE.JOHN.1234567890'), event('2026-11-24T10:00:00Z'), event('2026-11-25T06:00:00Z')],
        ];
        const twin = h.twin();
        await store.appendAccess(batches[0]);
        await twin.appendAccess(batches[1]);
        await store.appendAccess(batches[2]);
        const expected = [
          {
            day: '2026-11-25',
            principal: 'DOE.JOHN.1234567890',
            document: 'cpo',
            served: 0,
            denied: 1,
            first: '2026-11-25T07:00:00Z',
            last: '2026-11-25T07:00:00Z',
            denied_first: '2026-11-25T07:00:00Z',
            denied_last: '2026-11-25T07:00:00Z',
          },
          {
            day: '2026-11-25',
            principal: 'DOE.JOHN.1234567890',
            federal: true,
            document: 'cpo',
            served: 0,
            denied: 1,
            first: '2026-11-25T12:00:00Z',
            last: '2026-11-25T12:00:00Z',
            denied_first: '2026-11-25T12:00:00Z',
            denied_last: '2026-11-25T12:00:00Z',
          },
          {
            day: '2026-11-25',
            principal: 'alice@AGENCY.GOV',
            agency: 'Agency One',
            document: 'sdr',
            served: 2,
            denied: 2,
            first: '2026-11-25T06:00:00Z',
            last: '2026-11-25T11:00:00Z',
            denied_first: '2026-11-25T09:00:00Z',
            denied_last: '2026-11-25T11:00:00Z',
          },
          {
            day: '2026-11-25',
            principal: 'zoe@treasury.gov',
            document: 'cpo',
            served: 0,
            denied: 1,
            first: '2026-11-25T08:00:00Z',
            last: '2026-11-25T08:00:00Z',
            denied_first: '2026-11-25T08:00:00Z',
            denied_last: '2026-11-25T08:00:00Z',
          },
        ];
        expect(await store.accessTallies('2026-11-25')).toEqual(expected);
        expect(await twin.accessTallies('2026-11-25')).toEqual(expected);
        expect(await store.accessTallies('2026-11-25')).toEqual(tallyAccess(batches.flat().filter((e) => e.at.startsWith('2026-11-25'))));
        expect(await twin.accessTallies('2026-11-24')).toEqual([
          {
            day: '2026-11-24',
            principal: 'alice@AGENCY.GOV',
            agency: 'Agency One',
            document: 'sdr',
            served: 1,
            denied: 0,
            first: '2026-11-24T10:00:00Z',
            last: '2026-11-24T10:00:00Z',
          },
        ]);
        await twin.close();
      });

      it('refuses a bad event alone: every valid event of its batch is logged and summarized, and the error names the bad one by its place, never its name', async () => {
        const good = event('2026-11-25T08:00:00Z');
        const other = event('2026-11-25T08:00:01Z', { principal: 'bob@AGENCY.GOV' });
        const refused = store.appendAccess([good, denial('2026-11-25T08:00:00Z', KERBEROS), other, event('yesterday')]);
        await expect(refused).rejects.toMatchObject({
          code: 'bad-access-event',
          message:
            'access event 2 of 4: principal is not a name: it is 600 characters long, more than 256 (and 1 more refused); the other 2 of the batch were logged',
        });
        await expect(store.appendAccess([event('2026-11-25T08:00:02Z', { outcome: 'maybe' as 'served' })])).rejects.toMatchObject({
          code: 'bad-access-event',
          message: 'access event 1 of 1: outcome is neither served nor denied; the other 0 of the batch were logged',
        });
        expect(await store.accessLog('2026-11-25', '2026-11-25')).toEqual([good, other]);
        expect((await store.accessTallies('2026-11-25')).map((t) => [t.principal, t.served, t.denied])).toEqual([
          ['alice@AGENCY.GOV', 1, 0],
          ['bob@AGENCY.GOV', 1, 0],
        ]);
        // Names authentication refuses, the log refuses too (principalNameProblem): controls, overrides, non-NFC, blanks.
        for (const principal of ['mallory\u202E@EVIL.TEST', 'fran\u212Ak@partner.gov', ' alice@AGENCY.GOV', 'a\u0000b', '']) {
          await expect(store.appendAccess([event('2026-11-25T09:00:00Z', { principal })])).rejects.toMatchObject({
            code: 'bad-access-event',
            message: expect.stringMatching(/^access event 1 of 1: principal is not a name: /),
          });
        }
        expect(await store.accessLog('2026-11-25', '2026-11-25')).toHaveLength(2);
      });

      it(`keeps a principal's first ${MAX_RAW_DENIALS} denials of a day as raw events and only counts the rest; served requests and other principals are all kept`, async () => {
        const twin = h.twin();
        const at = (i: number) => `2026-11-25T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;
        for (let b = 0; b < 3; b += 1) {
          const batch: AccessEvent[] = [];
          for (let i = b * 100; i < (b + 1) * 100; i += 1) {
            batch.push(denial(at(i), 'carol@SVC.TEST', { document: i % 2 === 0 ? 'cpo' : 'sdr' }));
            if (i % 25 === 0) batch.push(event(at(i)));
            if (i % 50 === 0) batch.push(denial(at(i), 'zoe@treasury.gov'));
          }
          await (b === 1 ? twin : store).appendAccess(batch);
        }
        await store.appendAccess([denial('2026-11-26T00:00:00Z', 'carol@SVC.TEST')]);
        const raw = await store.accessLog('2026-11-25', '2026-11-25');
        const count = (principal: string) => raw.filter((e) => e.principal === principal).length;
        expect([count('carol@SVC.TEST'), count('alice@AGENCY.GOV'), count('zoe@treasury.gov')]).toEqual([MAX_RAW_DENIALS, 12, 6]);
        expect(raw.filter((e) => e.principal === 'carol@SVC.TEST').map((e) => e.at)).toEqual(Array.from({ length: MAX_RAW_DENIALS }, (_, i) => at(i)));
        expect((await store.accessTallies('2026-11-25')).map((t) => [t.principal, t.document, t.served, t.denied, t.denied_first, t.denied_last])).toEqual([
          ['alice@AGENCY.GOV', 'sdr', 12, 0, undefined, undefined],
          ['carol@SVC.TEST', 'cpo', 0, 150, at(0), at(298)],
          ['carol@SVC.TEST', 'sdr', 0, 150, at(1), at(299)],
          ['zoe@treasury.gov', 'cpo', 0, 6, at(0), at(250)],
        ]);
        // A new day starts a new count.
        expect(await store.accessLog('2026-11-26', '2026-11-26')).toEqual([denial('2026-11-26T00:00:00Z', 'carol@SVC.TEST')]);
        await twin.close();
      });

      it('prunes raw events before raw_from and summaries before summaries_from: the summaries outlive the raw events', async () => {
        const days = ['2026-08-01', '2026-09-01', '2026-11-20', '2026-11-24', '2026-11-25'];
        await store.appendAccess(days.map((day) => event(`${day}T10:00:00Z`)));
        await store.appendAccess([denial('2026-09-01T11:00:00Z', 'zoe@treasury.gov')]);
        const done = await store.pruneAccess({ raw_from: '2026-11-24', summaries_from: '2026-09-01', settled_before: '2026-11-24' });
        expect([done.raw_days, done.summary_days]).toEqual([3, 1]);
        expect((await store.accessLog('2026-01-01', '2026-12-31')).map((e) => e.at)).toEqual(['2026-11-24T10:00:00Z', '2026-11-25T10:00:00Z']);
        expect(await store.accessTallies('2026-08-01')).toEqual([]);
        for (const day of days.slice(1)) expect([day, (await store.accessTallies(day)).reduce((n, t) => n + t.served, 0)]).toEqual([day, 1]);
        expect((await store.accessTallies('2026-09-01')).map((t) => [t.principal, t.denied, t.denied_first])).toEqual([
          ['alice@AGENCY.GOV', 0, undefined],
          ['zoe@treasury.gov', 1, '2026-09-01T11:00:00Z'],
        ]);
        // Pruned once: a second upkeep finds nothing more to remove, and the store keeps logging.
        const again = await store.pruneAccess({ raw_from: '2026-11-24', summaries_from: '2026-09-01', settled_before: '2026-11-24' });
        expect([again.raw_days, again.summary_days]).toEqual([0, 0]);
        await store.appendAccess([event('2026-11-20T12:00:00Z')]);
        expect((await store.accessTallies('2026-11-20')).map((t) => [t.served, t.first, t.last])).toEqual([
          [2, '2026-11-20T10:00:00Z', '2026-11-20T12:00:00Z'],
        ]);
      });
    });

    describe('the journal', () => {
      const KIND = 'vulnerability-evaluation';
      const evaluation = (n: number) => ({
        group: `CVE-2026-${1000 + n}`,
        irv: true,
        lev: n % 2 === 0,
        n_rating: 'N3',
        reason: 'reachable from the internet',
        by: 'alice@agency.example',
      });
      const at = (n: number) => `2026-11-0${n}T10:00:00.000Z`;
      /** The hash of an entry computed here, independently of domain/conmon/journal.ts: node:crypto and the canonicalize package. */
      const hashOf = ({ seq, kind, recorded_at, record, prev }: { seq: number; kind: string; recorded_at: string; record: unknown; prev: string | null }) =>
        createHash('sha256').update(canonicalize({ seq, kind, recorded_at, record, prev })!).digest('hex');
      const expectChained = (entries: { seq: number; kind: string; recorded_at: string; record: unknown; prev: string | null; hash: string }[]) => {
        expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
        entries.forEach((entry, i) => {
          expect(entry.prev).toBe(i === 0 ? null : entries[i - 1].hash);
          expect(entry.hash).toBe(hashOf(entry));
        });
      };

      it('is empty before the first entry, for every kind', async () => {
        expect(await store.journal()).toEqual([]);
        expect(await store.journal(KIND)).toEqual([]);
      });

      it('appends entries with seq 1, 2, 3, each naming the hash of the one before, and gives them back in order', async () => {
        const appended = [];
        for (const n of [1, 2, 3]) appended.push(await store.appendJournal(KIND, evaluation(n), at(n)));
        expect(appended.map(({ hash: _hash, prev: _prev, ...rest }) => rest)).toStrictEqual(
          [1, 2, 3].map((n) => ({ seq: n, kind: KIND, recorded_at: at(n), record: evaluation(n) })),
        );
        expectChained(appended);
        expect(appended[0].prev).toBeNull();
        expect(await store.journal()).toStrictEqual(appended);
        expect(await store.journal(KIND)).toStrictEqual(appended);
      });

      it('gives only the entries of the kind asked for, numbered over every kind', async () => {
        const first = await store.appendJournal(KIND, evaluation(1), at(1));
        const other = await store.appendJournal('x', { note: 'another kind' }, at(2));
        const third = await store.appendJournal(KIND, evaluation(3), at(3));
        expect(await store.journal('x')).toStrictEqual([other]);
        expect(await store.journal(KIND)).toStrictEqual([first, third]);
        expect(await store.journal('no-such-kind')).toEqual([]);
        expect((await store.journal()).map((e) => [e.seq, e.kind])).toEqual([
          [1, KIND],
          [2, 'x'],
          [3, KIND],
        ]);
      });

      it('gives records back exactly: unicode, escapes, numbers, nested objects and arrays', async () => {
        const record = {
          title: 'Écart de configuration — 設定ミス 🚨',
          ключ: 'значение',
          '\u00e9': 'composed',
          'e\u0301': 'decomposed',
          rtl: 'مرحبا',
          text: 'line 1\nline 2\t"quoted" \\ back\u2028sep\u0007bell\u0000nul',
          numbers: [0, -1, 1.5, 1e21, 2 ** 53 - 1, 1e-7, -0.000001],
          nested: { a: { b: { c: [true, false, null, {}, [], [[1]]] } }, empty: {} },
        };
        const entry = await store.appendJournal(KIND, record, at(1));
        expect(entry.record).toStrictEqual(record);
        expect(entry.hash).toBe(hashOf({ ...entry, record }));
        const [read] = await store.journal();
        expect(read.record).toStrictEqual(record);
        expect(canonicalize(read.record)).toBe(canonicalize(record));
        // The caller's object is not the stored one: changing it afterwards changes nothing stored.
        (record.nested.a.b.c as unknown[]).push('later');
        expect((await store.journal())[0].record).toStrictEqual(read.record);
      });

      it('lands two appends at once, and appends of two instances at once, each with its own seq in one chain', async () => {
        const both = await Promise.all([store.appendJournal(KIND, evaluation(1), at(1)), store.appendJournal(KIND, evaluation(2), at(2))]);
        expect(both.map((e) => e.seq).sort()).toEqual([1, 2]);
        const twin = h.twin();
        try {
          const four = await Promise.all([3, 4, 5, 6].map((n) => (n % 2 ? twin : store).appendJournal(KIND, evaluation(n), at(n))));
          expect(four.map((e) => e.seq).sort()).toEqual([3, 4, 5, 6]);
          const journal = await store.journal();
          expectChained(journal);
          expect(journal.map((e) => e.record.group).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => evaluation(n).group));
          expect(await twin.journal()).toStrictEqual(journal);
        } finally {
          await twin.close();
        }
      });

      it('is read the same by another instance on the same data, as the store reopened', async () => {
        const appended = [await store.appendJournal(KIND, evaluation(1), at(1)), await store.appendJournal('x', { n: 2 }, at(2))];
        const twin = h.twin();
        try {
          expect(await twin.journal()).toStrictEqual(appended);
          const third = await twin.appendJournal(KIND, evaluation(3), at(3));
          expect(third.prev).toBe(appended[1].hash);
          expect(await store.journal()).toStrictEqual([...appended, third]);
        } finally {
          await twin.close();
        }
      });

      it('keeps apart from the runs: neither numbers nor breaks the other', async () => {
        const [first, second] = [runNumber(1), runNumber(2)];
        await store.append(first.id, first.decide);
        const entry = await store.appendJournal(KIND, evaluation(1), at(1));
        await store.append(second.id, second.decide);
        expect(second.calls[0].seq).toBe(2);
        expect(entry.seq).toBe(1);
        expect(await store.journal()).toStrictEqual([entry]);
        expect(await ids(store.list())).toEqual([first.id, second.id]);
      });

      it('refuses a kind, record or time an entry cannot carry, appending nothing', async () => {
        for (const kind of ['', 'Vulnerability', 'vuln_eval', 'vuln2', ' x', 'x\n']) {
          await expect(store.appendJournal(kind, evaluation(1), at(1))).rejects.toMatchObject({ code: 'bad-journal-kind' });
        }
        await expect(store.journal('Bad')).rejects.toMatchObject({ code: 'bad-journal-kind' });
        const cyclic: Record<string, unknown> = { a: 1 };
        cyclic.self = { back: cyclic };
        class Evaluation {
          n = 1;
        }
        const notRecords: unknown[] = [
          null,
          [],
          'text',
          42,
          new Date(0),
          new Evaluation(),
          { a: undefined },
          { a: Number.NaN },
          { a: () => 1 },
          { a: { b: [1, Number.POSITIVE_INFINITY] } },
          { a: new Map() },
          cyclic,
        ];
        for (const record of notRecords) {
          const refused = store.appendJournal(KIND, record as Record<string, unknown>, at(1));
          await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
          await expect(refused).rejects.toMatchObject({ code: 'bad-journal-record' });
        }
        await expect(store.appendJournal(KIND, evaluation(1), 'last tuesday')).rejects.toMatchObject({ code: 'bad-journal-time' });
        expect(await store.journal()).toEqual([]);
        expect((await store.appendJournal(KIND, Object.assign(Object.create(null) as Record<string, unknown>, { ok: true }), at(1))).seq).toBe(1);
      });

      describe('tamper evidence', () => {
        beforeEach(async () => {
          for (const n of [1, 2, 3]) await store.appendJournal(KIND, evaluation(n), at(n));
        });

        it.each([
          ['record', 2, 'a record changed'],
          ['removed', 2, 'an entry removed from the middle'],
          ['swapped', 2, 'two entries swapped'],
          ['inserted', 2, 'an entry inserted'],
          ['latest-removed', 3, 'the latest entry removed'],
          ['head', 3, 'the journal head changed'],
        ] as const)('detects %s (%s) on every read, naming the entry, and appends nothing after it', async (target, seq, _what) => {
          const first = runNumber(1);
          await store.append(first.id, first.decide);
          const named = await h.tamperJournal(target, seq);
          expect(named).toMatch(/: journal entry \d+ /);
          for (const read of [() => store.journal(), () => store.journal(KIND), () => store.appendJournal(KIND, evaluation(4), at(4))]) {
            await expect(read()).rejects.toBeInstanceOf(IntegrityError);
            await expect(read()).rejects.toMatchObject({ code: 'run-store-tampered', message: expect.stringContaining(named) });
            await expect(read()).rejects.toThrow(/; the store was modified outside svc\. Restore it from backup$/);
          }
          // The runs are another chain: still read.
          expect(await store.get(1)).toStrictEqual(first.returned);
        });
      });
    });

    it('keeps a POA&M state and events larger than a part, and reads them back item for item, a part at a time (issue 35)', async () => {
      // About 4 MiB of each: several parts of STATE_PART_BYTES (PostgreSQL) and many chunks of the state file.
      const base = storedRunFor('0'.repeat(64), 1);
      const poam = Array.from({ length: 6000 }, (_, n) => ({
        ...base.poam[n % 2],
        poam_id: `POAM-${String(n + 1).padStart(5, '0')}`,
        weakness_description: `${'x'.repeat(500)} ${n} "quoted" \\ ✓`,
      }));
      const events = Array.from({ length: 6000 }, (_, n) => ({
        ...base.events[1],
        poam_id: `POAM-${String(n + 1).padStart(5, '0')}`,
        summary: `${'y'.repeat(500)} ${n}`,
      }));
      const big = runNumber(1, { poam, events });
      const after = runNumber(2);
      await appendAll(big, after);
      const stored = await store.get(1);
      expect(stored?.poam).toStrictEqual(poam);
      expect(stored?.events).toStrictEqual(events);
      // The next run decides from it as from any other.
      expect(after.calls[0].latest?.poam).toStrictEqual(poam);
    });

    it('reader(): reads runs and their documents as the store does, from one walk of the chain (issue 35)', async () => {
      const runs = [runNumber(1), runNumber(2)];
      await appendAll(...runs);
      const reader = await store.reader();
      expect(await reader.list()).toStrictEqual(await store.list());
      expect(await reader.get(2)).toStrictEqual(await store.get(2));
      expect(await reader.latest()).toStrictEqual(await store.latest());
      expect(await reader.get(3)).toBeUndefined();
      // A run changed behind its back is still caught when the reader reads it.
      const named = await h.tamper('poam', { id: runs[0].id, seq: 1 });
      await expect(reader.get(1)).rejects.toMatchObject({ code: 'run-store-tampered', message: expect.stringContaining(named) });
    });

    describe('tamper evidence: every record is in the hash chain', () => {
      let runs: Decided[];
      beforeEach(async () => {
        runs = [runNumber(1), runNumber(2), runNumber(3)];
        await appendAll(...runs);
      });
      const tampered = (named: string) => ({ code: 'run-store-tampered', message: expect.stringContaining(named) });

      it.each(['record', 'poam', 'events'] as const)('detects the %s of a run changed, naming it, and still reads the other runs', async (target) => {
        const named = await h.tamper(target, { id: runs[1].id, seq: 2 });
        for (const read of [() => store.get(runs[1].id), () => store.get(2)]) {
          await expect(read()).rejects.toBeInstanceOf(IntegrityError);
          await expect(read()).rejects.toMatchObject(tampered(named));
        }
        expect(await store.get(1)).toStrictEqual(runs[0].returned);
        expect(await store.latest()).toStrictEqual(runs[2].returned);
      });

      it('detects the summary of a run changed, naming it, when the run or the list is read (the list read before it changed too)', async () => {
        expect(await store.list()).toHaveLength(runs.length);
        const named = await h.tamper('summary', { id: runs[1].id, seq: 2 });
        for (const read of [() => store.list(), () => store.get(2), () => store.get(runs[1].id)]) {
          await expect(read()).rejects.toBeInstanceOf(IntegrityError);
          await expect(read()).rejects.toMatchObject(tampered(named));
        }
      });

      it.each([
        ['link', 'a run’s link in the chain changed'],
        ['head', 'the chain head changed'],
        ['latest-removed', 'the latest run removed'],
      ] as const)('detects %s (%s) on every read and refuses to append', async (target, _what) => {
        const latest = target === 'link' ? { id: runs[1].id, seq: 2 } : { id: runs[2].id, seq: 3 };
        const named = await h.tamper(target, latest);
        for (const read of [() => store.list(), () => store.get(1), () => store.latest()]) {
          await expect(read()).rejects.toBeInstanceOf(IntegrityError);
          await expect(read()).rejects.toMatchObject(tampered(named));
        }
        const fourth = runNumber(4);
        await expect(store.append(fourth.id, fourth.decide)).rejects.toMatchObject(tampered(named));
        expect(fourth.calls).toEqual([]);
      });
    });
  });
}

function bySeq(runs: Decided[]): Decided[] {
  return [...runs].sort((a, b) => a.calls[0].seq - b.calls[0].seq);
}

/** Each run was decided once, the seqs are 1..n, and run k was decided from run k-1 exactly as stored. */
function expectChain(runs: Decided[]): void {
  for (const run of runs) expect(run.calls).toHaveLength(1);
  const ordered = bySeq(runs);
  expect(ordered.map((r) => r.calls[0].seq)).toEqual(runs.map((_, i) => i + 1));
  expect(ordered[0].calls[0].latest).toBeUndefined();
  for (let k = 1; k < ordered.length; k++) expect(ordered[k].calls[0].latest).toStrictEqual(ordered[k - 1].returned);
}
