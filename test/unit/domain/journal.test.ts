import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { checkJournal, checkJournalHead, EMPTY_JOURNAL, journalHash, nextJournalEntry, type JournalEntry } from '../../../src/domain/conmon/journal';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const digest = new PureJsHashing();
const where = (seq: number) => `journal (line ${seq})`;

function journalOf(count: number): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (let n = 1; n <= count; n++)
    entries.push(nextJournalEntry(entries.at(-1), 'vulnerability-evaluation', { group: `CVE-2026-${n}` }, `2026-11-0${n}T00:00:00Z`, digest));
  return entries;
}

const tampered = (message: string) => ({ code: 'run-store-tampered', message: `${message}; the store was modified outside svc. Restore it from backup` });

describe('the journal chain', () => {
  it('hashes the canonical JSON of seq, kind, recorded_at, record and prev', () => {
    const [first, second] = journalOf(2);
    const expected = (e: JournalEntry) =>
      createHash('sha256')
        .update(canonicalize({ seq: e.seq, kind: e.kind, recorded_at: e.recorded_at, record: e.record, prev: e.prev })!)
        .digest('hex');
    expect([first.prev, first.hash, second.prev, second.hash]).toEqual([null, expected(first), first.hash, expected(second)]);
    expect(journalHash({ ...first, record: { group: 'CVE-2026-9' } }, digest)).not.toBe(first.hash);
  });

  it('passes a journal as appended, and its head', () => {
    const entries = journalOf(3);
    expect(checkJournal(entries, where, digest)).toEqual(entries);
    expect(() => checkJournalHead(entries, { seq: 3, hash: entries[2].hash }, 'head')).not.toThrow();
    expect(() => checkJournalHead([], EMPTY_JOURNAL, 'head')).not.toThrow();
  });

  it.each([
    [
      'a record changed',
      (e: JournalEntry[]) => [e[0], { ...e[1], record: { group: 'CVE-2026-9' } }, e[2]],
      'journal (line 2): journal entry 2 does not match its hash',
    ],
    ['an entry removed', (e: JournalEntry[]) => [e[0], e[2]], 'journal (line 2): journal entry 2 is missing or out of place (entry 3 is in its place)'],
    [
      'two entries swapped',
      (e: JournalEntry[]) => [e[0], e[2], e[1]],
      'journal (line 2): journal entry 2 is missing or out of place (entry 3 is in its place)',
    ],
    [
      'an entry rehashed after its record changed',
      (e: JournalEntry[]) => {
        const changed = { ...e[1], record: { group: 'CVE-2026-9' } };
        return [e[0], { ...changed, hash: journalHash(changed, digest) }, e[2]];
      },
      'journal (line 3): journal entry 3 does not follow entry 2',
    ],
    [
      'a first entry naming a prev',
      (e: JournalEntry[]) => {
        const moved = { ...e[0], prev: e[2].hash };
        return [{ ...moved, hash: journalHash(moved, digest) }];
      },
      'journal (line 1): journal entry 1 does not start the journal',
    ],
    ['a line that is not an entry', (e: JournalEntry[]) => [e[0], undefined], 'journal (line 2): journal entry 2 is not an entry svc wrote'],
  ])('names the first bad entry: %s', (_what, change, message) => {
    expect(() => checkJournal(change(journalOf(3)), where, digest)).toThrow(expect.objectContaining(tampered(message)));
  });

  it('holds the end of the journal to its head', () => {
    const entries = journalOf(3);
    expect(() => checkJournalHead(entries.slice(0, 2), { seq: 3, hash: entries[2].hash }, 'head')).toThrow(
      expect.objectContaining(tampered('head: journal entry 3 is missing (the journal head names entry 3 as the latest)')),
    );
    expect(() => checkJournalHead(entries, { seq: 2, hash: entries[1].hash }, 'head')).toThrow(
      expect.objectContaining(tampered('head: journal entry 3 is not in the journal head (it ends at entry 2)')),
    );
    expect(() => checkJournalHead(entries, { seq: 3, hash: entries[1].hash }, 'head')).toThrow(
      expect.objectContaining(tampered('head: journal entry 3 is not the latest entry the journal head names')),
    );
    expect(() => checkJournalHead(entries, { seq: 3 }, 'head')).toThrow(expect.objectContaining(tampered('head: the journal head is not one svc wrote')));
  });

  it('refuses values an entry cannot carry before making one', () => {
    expect(() => nextJournalEntry(undefined, 'Vuln', {}, '2026-11-01T00:00:00Z', digest)).toThrow(expect.objectContaining({ code: 'bad-journal-kind' }));
    expect(() => nextJournalEntry(undefined, 'x', { at: new Date(0) }, '2026-11-01T00:00:00Z', digest)).toThrow(
      expect.objectContaining({ code: 'bad-journal-record', message: 'journal record of kind x: record.at is not a plain object' }),
    );
    expect(() => nextJournalEntry(undefined, 'x', { a: [1, Number.NaN] }, '2026-11-01T00:00:00Z', digest)).toThrow(
      expect.objectContaining({ message: 'journal record of kind x: record.a[1] is NaN, which JSON cannot carry' }),
    );
    expect(() => nextJournalEntry(undefined, 'x', {}, 'soon', digest)).toThrow(expect.objectContaining({ code: 'bad-journal-time' }));
  });
});
