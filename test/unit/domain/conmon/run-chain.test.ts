import { chainLink, GENESIS, hashedState, hashOf } from '../../../../src/domain/conmon/run-chain';
import { lazyArray, jsonText } from '../../../../src/domain/encoding/json-chunks';
import type { RunSummary, TrackedPoamItem } from '../../../../src/domain/conmon/run-record';
import type { ConmonEvent } from '../../../../src/domain/conmon/conmon-event';
import { PureJsHashing } from '../../../fakes/pure-js-hashing';

const digest = new PureJsHashing();

describe('hashedState: a run state written once, its events and POA&M state hashed on the way', () => {
  const summary = {
    seq: 2,
    id: 'ab'.repeat(32),
    as_of: '2026-01-02T00:00:00Z',
    recorded_at: '2026-01-02T06:00:00Z',
    counts: { results: 3 },
  } as unknown as RunSummary;
  const poamItems = [
    { poam_id: 'POAM-KSI-AC-02', ksi_id: 'KSI-AC-02', status: 'Open', weakness_description: 'Ünïcode "quoted" \u2028' },
    { poam_id: 'POAM-KSI-IA-02', ksi_id: 'KSI-IA-02', status: 'Closed' },
  ] as unknown as TrackedPoamItem[];
  const eventItems = [{ kind: 'run.recorded', event_id: 'e1', data: { b: 1, a: [1, 2] } }] as unknown as ConmonEvent[];

  it.each([
    ['plain arrays', poamItems, eventItems],
    ['LazyArrays, as recordStep gives them (read once each)', lazyArray(() => poamItems), lazyArray(() => eventItems)],
    ['empty ones', [], []],
  ])("%s: the text is the state's canonical JSON and the digests are hashOf each", (_, poam, events) => {
    const state = hashedState({ summary, poam, events }, digest);
    expect(() => state.digests()).toThrow('the state must be read to its end before its digests');
    expect([...state.chunks].join('')).toBe(jsonText({ summary, poam, events }, 'canonical'));
    expect(state.digests()).toEqual({ poam: hashOf(poam, digest), events: hashOf(events, digest) });
    // The link made with them is the link made by walking both again.
    const run = { summary, poam, events };
    expect(chainLink(run, GENESIS, digest, state.digests())).toEqual(chainLink(run, GENESIS, digest));
  });
});
